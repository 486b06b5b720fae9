package provenance

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// Signers are the publishers a host trusts: SSH keys, read from an
// allowed-signers file, and Sigstore identities with the trusted root
// their bundles verify against ([Signers.WithSigstore], [ParsePublishers]).
type Signers struct {
	entries  []signer
	sigstore *sigstoreTrust
}

type signer struct {
	principals  []string
	namespaces  []string // empty: every namespace
	validAfter  time.Time
	validBefore time.Time
	key         ssh.PublicKey
}

// ParseAllowedSigners reads git's allowed-signers format: one key a line,
// "principals [options] keytype base64-key [comment]", with # comments and
// blank lines. The options understood are namespaces="..." and
// valid-after/valid-before ("YYYYMMDD" or "YYYYMMDDhhmm[ss]", UTC with a
// trailing Z, local otherwise); a line with cert-authority or another option
// is refused, not guessed at. A line that does not parse is an error naming
// it.
func ParseAllowedSigners(data []byte) (*Signers, error) {
	s := &Signers{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := parseSignerLine(line)
		if err != nil {
			return nil, fmt.Errorf("provenance: allowed signers, line %d: %w", n+1, err)
		}
		s.entries = append(s.entries, e)
	}
	return s, nil
}

func parseSignerLine(line string) (signer, error) {
	principals, rest, ok := cutField(line)
	if !ok {
		return signer{}, fmt.Errorf("no key after the principals")
	}
	e := signer{principals: strings.Split(principals, ",")}
	// Options come before the key type; a key type has no '='.
	for {
		field, after, _ := cutField(rest)
		if !strings.Contains(field, "=") && field != "cert-authority" {
			break
		}
		if err := e.option(field); err != nil {
			return signer{}, err
		}
		rest = after
	}
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return signer{}, fmt.Errorf("the key: %w", err)
	}
	e.key = key
	return e, nil
}

// cutField splits s at its first space outside double quotes.
func cutField(s string) (field, rest string, ok bool) {
	quoted := false
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case (r == ' ' || r == '\t') && !quoted:
			return s[:i], strings.TrimSpace(s[i+1:]), true
		}
	}
	return s, "", false
}

func (e *signer) option(opt string) error {
	name, value, _ := strings.Cut(opt, "=")
	value = strings.Trim(value, `"`)
	switch strings.ToLower(name) {
	case "namespaces":
		e.namespaces = strings.Split(value, ",")
	case "valid-after", "valid-before":
		t, err := parseSignerTime(value)
		if err != nil {
			return fmt.Errorf("option %s: %w", name, err)
		}
		if strings.EqualFold(name, "valid-after") {
			e.validAfter = t
		} else {
			e.validBefore = t
		}
	default:
		return fmt.Errorf("option %q is not supported", opt)
	}
	return nil
}

func parseSignerTime(v string) (time.Time, error) {
	loc := time.Local
	if z, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = z, time.UTC
	}
	for _, layout := range []string{"20060102150405", "200601021504", "20060102"} {
		if len(v) == len(layout) {
			return time.ParseInLocation(layout, v, loc)
		}
	}
	return time.Time{}, fmt.Errorf("%q is not YYYYMMDD[hhmm[ss]]", v)
}

// match returns the principals of the entries that list key for the git
// namespace at time at.
func (s *Signers) match(key ssh.PublicKey, at time.Time) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, e := range s.entries {
		if !bytes.Equal(e.key.Marshal(), key.Marshal()) {
			continue
		}
		if len(e.namespaces) > 0 && !slices.Contains(e.namespaces, "git") {
			continue
		}
		if !at.IsZero() && (!e.validAfter.IsZero() && at.Before(e.validAfter) || !e.validBefore.IsZero() && at.After(e.validBefore)) {
			continue
		}
		out = append(out, e.principals...)
	}
	return out
}
