package wellknown

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// The discovery RFC's names (sections URI Structure, Versioning, Index
// Format, Backward Compatibility).
const (
	// IndexPath is where a site publishes its index.
	IndexPath = "/.well-known/agent-skills/index.json"
	// LegacyIndexPath is where v0.1.0 of the RFC put it; read when
	// IndexPath is not found.
	LegacyIndexPath = "/.well-known/skills/index.json"
	// Schema is the $schema of a v0.2.0 index, the only one this package
	// reads besides v0.1.0.
	Schema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
	// TypeSkillMD is an entry whose artifact is the skill's SKILL.md.
	TypeSkillMD = "skill-md"
	// TypeArchive is an entry whose artifact is a .tar.gz or .zip archive
	// of the skill's folder.
	TypeArchive = "archive"
)

// Errors of the index.
var (
	// ErrIndex: the index is not JSON, not an object, has no skills array,
	// or names a $schema this package does not know.
	ErrIndex = errors.New("wellknown: invalid index")
	// ErrNotFound: the site publishes no index (404 at both paths), or the
	// index has no skill of that name.
	ErrNotFound = errors.New("wellknown: not found")
)

// Index is a site's discovery index, parsed and checked.
type Index struct {
	// URL is the index that was read.
	URL string `json:"url"`
	// Legacy is true for a v0.1.0 index (no $schema): its entries list
	// their files and carry no digest, so their content cannot be
	// verified.
	Legacy bool `json:"legacy"`
	// Skills are the valid entries, in the index's order.
	Skills []Entry `json:"skills"`
	// Skipped are the entries left out, each with why.
	Skipped []Skipped `json:"skipped,omitempty"`
}

// Entry is one skill of an index.
type Entry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Type is TypeSkillMD or TypeArchive; "" in a v0.1.0 index.
	Type string `json:"type,omitempty"`
	// URL is the artifact's absolute URL (resolved against the index's);
	// in a v0.1.0 index, the skill's folder, ending in "/".
	URL string `json:"url"`
	// Digest is the artifact's "sha256:" digest; "" in a v0.1.0 index.
	Digest string `json:"digest,omitempty"`
	// Files are the skill's files, relative to URL (v0.1.0 only).
	Files []string `json:"files,omitempty"`
}

// Skipped is an entry left out of an index, and why.
type Skipped struct {
	Index  int    `json:"index"`          // its position in the skills array
	Name   string `json:"name,omitempty"` // its name, when it has one
	Reason string `json:"reason"`
}

// Get returns the entry named name.
func (ix *Index) Get(name string) (Entry, bool) {
	for _, e := range ix.Skills {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// rawEntry is an entry as written; pointers tell absent from empty.
type rawEntry struct {
	Name        *string           `json:"name"`
	Type        *string           `json:"type"`
	Description *string           `json:"description"`
	URL         *string           `json:"url"`
	Digest      *string           `json:"digest"`
	Files       []json.RawMessage `json:"files"`
}

// ParseIndex reads an index published at indexURL (against which the
// entries' URLs are resolved). An index whose $schema is [Schema] is read
// as v0.2.0, one without $schema as v0.1.0; any other $schema is refused,
// as the RFC advises (Versioning). Unknown fields are ignored. Entries that
// break the RFC are left out, each in Skipped with why: a name that breaks
// the Agent Skills naming rules or appears twice, a missing or over-long
// (1024 characters) description, an unknown type, a missing URL or one
// that is not http(s) or carries credentials, a digest that is not
// "sha256:" and 64 lowercase hexadecimal digits; in v0.1.0, a files array
// that is empty, lacks SKILL.md, or holds a path that is not a relative
// slash path of printable ASCII without \ ? # [ ] or ".." (Files Array of
// v0.1.0), or that skill.CheckPath refuses.
func ParseIndex(data []byte, indexURL string) (*Index, error) {
	base, err := url.Parse(indexURL)
	if err != nil || !base.IsAbs() {
		return nil, fmt.Errorf("%w: the index URL %q is not absolute", ErrIndex, indexURL)
	}
	var top struct {
		Schema *string          `json:"$schema"`
		Skills *json.RawMessage `json:"skills"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrIndex, err)
	}
	ix := &Index{URL: base.String(), Legacy: top.Schema == nil, Skills: []Entry{}}
	if top.Schema != nil && *top.Schema != Schema {
		return nil, fmt.Errorf("%w: unknown $schema %q (this client reads %s and v0.1.0)", ErrIndex, *top.Schema, Schema)
	}
	var raws []json.RawMessage
	if top.Skills == nil || json.Unmarshal(*top.Skills, &raws) != nil || raws == nil {
		return nil, fmt.Errorf("%w: no skills array", ErrIndex)
	}
	seen := map[string]bool{}
	for i, raw := range raws {
		var r rawEntry
		if err := json.Unmarshal(raw, &r); err != nil {
			ix.Skipped = append(ix.Skipped, Skipped{Index: i, Reason: err.Error()})
			continue
		}
		e, err := ix.entry(r, base)
		if err == nil && seen[e.Name] {
			err = errors.New("the name appears earlier in the index")
		}
		if err != nil {
			s := Skipped{Index: i, Reason: err.Error()}
			if r.Name != nil {
				s.Name = *r.Name
			}
			ix.Skipped = append(ix.Skipped, s)
			continue
		}
		seen[e.Name] = true
		ix.Skills = append(ix.Skills, e)
	}
	return ix, nil
}

// entry checks one entry.
func (ix *Index) entry(r rawEntry, base *url.URL) (Entry, error) {
	if r.Name == nil {
		return Entry{}, errors.New("no name")
	}
	if err := skill.ValidateName(*r.Name); err != nil || skill.NormalizeName(*r.Name) != *r.Name {
		return Entry{}, fmt.Errorf("the name %q breaks the naming rules", *r.Name)
	}
	e := Entry{Name: *r.Name}
	switch {
	case r.Description == nil || strings.TrimSpace(*r.Description) == "":
		return Entry{}, errors.New("no description")
	case utf8.RuneCountInString(*r.Description) > skill.MaxDescriptionLength:
		return Entry{}, fmt.Errorf("the description is over %d characters", skill.MaxDescriptionLength)
	}
	e.Description = *r.Description
	if ix.Legacy {
		return legacyEntry(e, r, base)
	}
	switch {
	case r.Type == nil:
		return Entry{}, errors.New("no type")
	case *r.Type != TypeSkillMD && *r.Type != TypeArchive:
		return Entry{}, fmt.Errorf("unknown type %q", *r.Type)
	case r.URL == nil || *r.URL == "":
		return Entry{}, errors.New("no url")
	case r.Digest == nil || registry.ValidateFingerprint(*r.Digest) != nil:
		return Entry{}, errors.New(`the digest is not "sha256:" and 64 lowercase hexadecimal digits`)
	}
	u, err := resolve(base, *r.URL)
	if err != nil {
		return Entry{}, err
	}
	e.Type, e.URL, e.Digest = *r.Type, u.String(), *r.Digest
	return e, nil
}

// legacyEntry checks the files of a v0.1.0 entry; its files are at
// <index folder>/<name>/<path>.
func legacyEntry(e Entry, r rawEntry, base *url.URL) (Entry, error) {
	if len(r.Files) == 0 {
		return Entry{}, errors.New("no files")
	}
	for _, raw := range r.Files {
		var p string
		if err := json.Unmarshal(raw, &p); err != nil {
			return Entry{}, errors.New("a v0.1.0 index lists files as strings")
		}
		if err := legacyPath(p); err != nil {
			return Entry{}, fmt.Errorf("file %q: %w", p, err)
		}
		e.Files = append(e.Files, p)
	}
	if !slices.Contains(e.Files, skill.FileName) {
		return Entry{}, fmt.Errorf("the files do not include %s", skill.FileName)
	}
	u, err := resolve(base, e.Name+"/")
	if err != nil {
		return Entry{}, err
	}
	e.URL = u.String()
	return e, nil
}

// legacyPath applies the path rules of v0.1.0 and skill.CheckPath.
func legacyPath(p string) error {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c > 0x7e || strings.IndexByte(`\?#[]`, c) >= 0 {
			return fmt.Errorf("the character %q is not allowed", c)
		}
	}
	return skill.CheckPath(p)
}

// resolve resolves ref against the index URL (RFC 3986 section 5, as the
// RFC's URL Resolution asks) and keeps http(s) URLs without credentials.
// Whether a host may be fetched from is decided when it is fetched.
func resolve(base *url.URL, ref string) (*url.URL, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("the url %q: %w", ref, err)
	}
	u := base.ResolveReference(r)
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, fmt.Errorf("the url %q is not http(s)", ref)
	case u.User != nil:
		return nil, fmt.Errorf("the url %q carries credentials", ref)
	case u.Host == "":
		return nil, fmt.Errorf("the url %q names no host", ref)
	}
	u.Fragment = ""
	return u, nil
}
