package mcpskills

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/skill"
)

// Errors of entries and of content. A read that fails verification wraps
// installer.ErrDigestMismatch.
var (
	// ErrInvalidEntry: a skill entry breaks the rules of the specification
	// (Skill Entries, Resource Mapping); it is not loaded.
	ErrInvalidEntry = errors.New("mcpskills: invalid skill entry")
	// ErrDynamic: the skill's resources are "dynamic": it has no digests,
	// so it cannot be verified, and skillkit declines it.
	ErrDynamic = errors.New("mcpskills: the skill is dynamic and cannot be verified")
	// ErrTooLarge: the skill has more than MaxResources files or more than
	// MaxSkillBytes in all.
	ErrTooLarge = errors.New("mcpskills: the skill is over the extension's limits")
)

// entry is a skill entry that passed [checkEntry].
type entry struct {
	Skill
	path  string              // the skill's path, decoded; its last element is the name
	root  string              // the URI of the skill's folder
	files map[string]Resource // by path relative to the skill folder
	rels  []string            // the keys of files, sorted
}

// checkEntry validates an entry as the specification asks of a host before
// it loads the skill.
func checkEntry(s Skill) (*entry, error) {
	bad := func(format string, args ...any) (*entry, error) {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalidEntry, quote(s.URI), fmt.Sprintf(format, args...))
	}
	p, err := SkillPath(s.URI)
	if err != nil {
		return bad("%s", reason(err))
	}
	root, _ := Root(s.URI)
	name, _ := s.Frontmatter["name"].(string)
	if _, ok := s.Frontmatter["description"].(string); !ok {
		return bad("the frontmatter has no description")
	}
	switch {
	case name == "":
		return bad("the frontmatter has no name")
	case path.Base(p) != name:
		return bad("the URI's last path element %q is not the skill's name %q", path.Base(p), name)
	}
	if err := skill.ValidateName(name); err != nil || skill.NormalizeName(name) != name {
		return bad("%v", err)
	}
	switch {
	case !s.Resources.present:
		return bad("no resources")
	case s.Resources.Dynamic:
		return nil, fmt.Errorf("%w: %s", ErrDynamic, quote(s.URI))
	case len(s.Resources.Files) > MaxResources:
		return nil, fmt.Errorf("%w: %s lists %d files, over the limit of %d", ErrTooLarge, quote(s.URI), len(s.Resources.Files), MaxResources)
	}
	e := &entry{Skill: s, path: p, root: root, files: make(map[string]Resource, len(s.Resources.Files))}
	var total int64
	for _, r := range s.Resources.Files {
		rel, err := RelPath(root, r.URI)
		if err != nil {
			return bad("%s", reason(err))
		}
		switch {
		case !ValidDigest(r.Digest):
			return bad("the digest of %s is not sha256: and 64 lowercase hexadecimal digits", quote(r.URI))
		case r.Size < 0:
			return bad("the size of %s is negative", quote(r.URI))
		}
		if _, dup := e.files[rel]; dup {
			return bad("%s is listed twice", quote(r.URI))
		}
		e.files[rel] = r
		e.rels = append(e.rels, rel)
		if total += r.Size; total > MaxSkillBytes {
			return nil, fmt.Errorf("%w: %s holds more than %d bytes", ErrTooLarge, quote(s.URI), MaxSkillBytes)
		}
	}
	if r, ok := e.files[SkillFile]; !ok || r.URI != s.URI {
		return bad("its resources do not list its %s", SkillFile)
	}
	slices.Sort(e.rels)
	return e, nil
}

// verify checks data read for file rel of e against the entry: its size,
// its digest and, for SKILL.md, its frontmatter (specification: Integrity
// and Verification).
func (e *entry) verify(rel string, data []byte) error {
	r := e.files[rel]
	fail := func(format string, args ...any) error {
		return &VerifyError{URI: r.URI, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case int64(len(data)) != r.Size:
		return fail("%d bytes read, %d listed", len(data), r.Size)
	case Digest(data) != r.Digest:
		return fail("the content's digest is %s, %s listed", Digest(data), r.Digest)
	}
	if rel != SkillFile {
		return nil
	}
	fm, err := Frontmatter(data)
	if err != nil {
		return fail("%v", err)
	}
	if !sameFrontmatter(fm, e.Frontmatter) {
		return fail("its frontmatter differs from the entry's")
	}
	return nil
}

// VerifyError is content a server served that does not match the entry it
// listed: errors.Is(err, installer.ErrDigestMismatch) holds. The content
// is never used.
type VerifyError struct {
	URI    string // the file
	Reason string // what differs
}

// Error names the file and what differs.
func (e *VerifyError) Error() string {
	return fmt.Sprintf("mcpskills: %s does not match its entry: %s", quote(e.URI), e.Reason)
}

// Is makes errors.Is(err, installer.ErrDigestMismatch) hold.
func (e *VerifyError) Is(target error) bool { return target == installer.ErrDigestMismatch }

// reason is an error of this package as part of another's message,
// without its package prefix.
func reason(err error) string { return strings.TrimPrefix(err.Error(), "mcpskills: ") }

// quote quotes text from a server for messages, so control characters
// never reach a terminal.
func quote(s string) string { return fmt.Sprintf("%q", s) }
