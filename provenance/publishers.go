package provenance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// publishersFile is the JSON form of a publishers file.
type publishersFile struct {
	AllowedSigners string `json:"allowed_signers"`
	Sigstore       *struct {
		TrustedRoot string     `json:"trusted_root"`
		Identities  []Identity `json:"identities"`
	} `json:"sigstore"`
}

// ParsePublishers reads a host's publishers file, in one of two forms.
//
// An allowed-signers file (git's format, [ParseAllowedSigners]) lists SSH
// keys only. A JSON object (the first character that is not a space is
// "{") lists both kinds of publishers:
//
//	{
//	  "allowed_signers": "allowed_signers",
//	  "sigstore": {
//	    "trusted_root": "trusted_root.json",
//	    "identities": [
//	      {"san": "release@example.com", "issuer": "https://accounts.google.com"},
//	      {"san_regexp": "^https://github\\.com/example/skills/", "issuer": "https://token.actions.githubusercontent.com"}
//	    ]
//	  }
//	}
//
// Both members are optional; fields it does not know are refused.
// allowed_signers and trusted_root name files, which read returns (the
// caller decides where relative names lead and which places are safe).
// Sigstore identities need a trusted root.
func ParsePublishers(data []byte, read func(name string) ([]byte, error)) (*Signers, error) {
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		return ParseAllowedSigners(data)
	}
	var f publishersFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("provenance: publishers file: %w", err)
	}
	if dec.More() {
		return nil, errors.New("provenance: publishers file: more than one JSON value")
	}
	s := &Signers{}
	if f.AllowedSigners != "" {
		data, err := read(f.AllowedSigners)
		if err != nil {
			return nil, fmt.Errorf("provenance: publishers file: allowed_signers: %w", err)
		}
		if s, err = ParseAllowedSigners(data); err != nil {
			return nil, fmt.Errorf("provenance: publishers file: %s: %w", f.AllowedSigners, err)
		}
	}
	if f.Sigstore == nil {
		return s, nil
	}
	if f.Sigstore.TrustedRoot == "" {
		return nil, errors.New("provenance: publishers file: sigstore needs a trusted_root")
	}
	tr, err := read(f.Sigstore.TrustedRoot)
	if err != nil {
		return nil, fmt.Errorf("provenance: publishers file: trusted_root: %w", err)
	}
	return s.WithSigstore(tr, f.Sigstore.Identities)
}

// LoadPublishers reads the publishers file name ([ParsePublishers]); the
// files it names are read relative to its folder, each after allow (when
// set) accepted its path.
func LoadPublishers(name string, allow func(path string) error) (*Signers, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return ParsePublishers(data, func(p string) ([]byte, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(name), p)
		}
		if allow != nil {
			if err := allow(p); err != nil {
				return nil, err
			}
		}
		return os.ReadFile(p)
	})
}
