package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// MaxFileBytes caps lock.json and each origin file; a larger file is
// reported as corrupt rather than read.
const MaxFileBytes = 64 << 20

// formatVersion is the "version" of lock.json and of origin files.
const formatVersion = 1

// lockFile is .skillhub/lock.json. Entries stay raw so that the fields of
// entries a write does not touch are kept as they were; so are unknown
// top-level keys.
type lockFile struct {
	other  map[string]json.RawMessage
	skills map[string]json.RawMessage
}

// lockEntry is one skill's entry in lock.json.
type lockEntry struct {
	Version     looseString `json:"version,omitempty"`
	Fingerprint string      `json:"fingerprint,omitempty"`
	InstalledAt time.Time   `json:"installedAt,omitzero"`
	UpdatedAt   time.Time   `json:"updatedAt,omitzero"`
	Enabled     *bool       `json:"enabled,omitempty"` // absent (files other tools wrote): enabled
	Pinned      bool        `json:"pinned,omitempty"`
	InstallID   string      `json:"installId,omitempty"`
	Signer      *Signer     `json:"signer,omitempty"`
}

// originFile is .skillhub/origins/<name>.json.
type originFile struct {
	Version     int       `json:"version"`
	Source      Source    `json:"source,omitempty"`
	URL         string    `json:"url,omitempty"`
	Branch      string    `json:"branch,omitempty"` // Record.Ref: a branch or a tag
	CommitHash  string    `json:"commitHash,omitempty"`
	InstalledAt time.Time `json:"installedAt,omitzero"`
	UpdatedAt   time.Time `json:"updatedAt,omitzero"`
	Subdir      string    `json:"subdir,omitempty"`
	Tree        string    `json:"tree,omitempty"`
}

// looseString reads a JSON string or number as text, since hand-written lock
// files say "version": 1 as often as "version": "1".
type looseString string

// UnmarshalJSON reads a string, a number (as its text) or null.
func (s *looseString) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var v string
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		*s = looseString(v)
		return nil
	}
	if bytes.Equal(data, []byte("null")) {
		*s = ""
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(data, &n); err != nil {
		return fmt.Errorf("want a string or a number: %w", err)
	}
	*s = looseString(n.String())
	return nil
}

// decodeLock reads lock.json. Empty data is an empty lock file.
func decodeLock(data []byte) (*lockFile, error) {
	lf := &lockFile{other: map[string]json.RawMessage{}, skills: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return lf, nil
	}
	if err := json.Unmarshal(data, &lf.other); err != nil {
		return nil, fmt.Errorf("%w: lock.json: %v", ErrCorrupt, err)
	}
	if lf.other == nil {
		return nil, fmt.Errorf("%w: lock.json is null", ErrCorrupt)
	}
	if err := checkVersion(lf.other["version"]); err != nil {
		return nil, fmt.Errorf("%w: lock.json: %v", ErrCorrupt, err)
	}
	if raw, ok := lf.other["skills"]; ok {
		if err := json.Unmarshal(raw, &lf.skills); err != nil {
			return nil, fmt.Errorf("%w: lock.json skills: %v", ErrCorrupt, err)
		}
		if lf.skills == nil {
			lf.skills = map[string]json.RawMessage{}
		}
	}
	delete(lf.other, "skills")
	delete(lf.other, "version")
	// Decode every entry now, so a bad one is found on read, not on use.
	for name := range lf.skills {
		if _, err := lf.entry(name); err != nil {
			return nil, err
		}
	}
	return lf, nil
}

// checkVersion accepts a missing version or 1.
func checkVersion(raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	var v json.Number
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("version: %v", err)
	}
	if n, err := strconv.Atoi(v.String()); err != nil || n != formatVersion {
		return fmt.Errorf("unsupported version %s (want %d)", v, formatVersion)
	}
	return nil
}

func (lf *lockFile) entry(name string) (lockEntry, error) {
	var e lockEntry
	raw := lf.skills[name]
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return e, fmt.Errorf("%w: lock.json entry %q is null", ErrCorrupt, name)
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return e, fmt.Errorf("%w: lock.json entry %q: %v", ErrCorrupt, name, err)
	}
	return e, nil
}

// encode writes "version" first, then unknown keys, then "skills", each
// map in sorted key order, indented.
func (lf *lockFile) encode() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"version":%d`, formatVersion)
	for _, k := range slices.Sorted(maps.Keys(lf.other)) {
		key, _ := json.Marshal(k)
		fmt.Fprintf(&b, ",%s:%s", key, lf.other[k])
	}
	skills, err := json.Marshal(lf.skills)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, `,"skills":%s}`, skills)
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// decodeOrigin reads an origin file.
func decodeOrigin(data []byte) (originFile, error) {
	var o originFile
	if err := json.Unmarshal(data, &o); err != nil {
		return o, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if o.Version != 0 && o.Version != formatVersion {
		return o, fmt.Errorf("%w: unsupported version %d (want %d)", ErrCorrupt, o.Version, formatVersion)
	}
	return o, nil
}

// split turns a record into its lock entry and origin file.
func split(rec Record) (lockEntry, originFile) {
	enabled := rec.Enabled
	return lockEntry{
			Version:     looseString(rec.Version),
			Fingerprint: rec.Fingerprint,
			InstalledAt: rec.InstalledAt.UTC(),
			UpdatedAt:   rec.UpdatedAt.UTC(),
			Enabled:     &enabled,
			Pinned:      rec.Pinned,
			InstallID:   rec.InstallID,
			Signer:      rec.Signer,
		}, originFile{
			Version:     formatVersion,
			Source:      rec.Source,
			URL:         rec.URL,
			Branch:      rec.Ref,
			CommitHash:  rec.Commit,
			InstalledAt: rec.InstalledAt.UTC(),
			UpdatedAt:   rec.UpdatedAt.UTC(),
			Subdir:      rec.Subdir,
			Tree:        rec.Tree,
		}
}

// join builds a record from its lock entry and origin file (nil when the
// skill has none).
func join(name string, e lockEntry, o *originFile) Record {
	rec := Record{
		Name:        name,
		Version:     string(e.Version),
		Fingerprint: e.Fingerprint,
		InstalledAt: e.InstalledAt,
		UpdatedAt:   e.UpdatedAt,
		Enabled:     e.Enabled == nil || *e.Enabled,
		Pinned:      e.Pinned,
		InstallID:   e.InstallID,
		Signer:      e.Signer,
	}
	if o != nil {
		rec.Source, rec.URL, rec.Ref, rec.Commit, rec.Subdir, rec.Tree = o.Source, o.URL, o.Branch, o.CommitHash, o.Subdir, o.Tree
		if rec.InstalledAt.IsZero() {
			rec.InstalledAt = o.InstalledAt
		}
		if rec.UpdatedAt.IsZero() {
			rec.UpdatedAt = o.UpdatedAt
		}
	}
	return rec
}
