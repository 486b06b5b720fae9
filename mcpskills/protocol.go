package mcpskills

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// The extension's names (specification: Extension Identifier, Listing
// Skills, Getting a Skill).
const (
	// ExtensionID identifies the extension in the extensions field of a
	// server's capabilities.
	ExtensionID = "io.modelcontextprotocol/skills"
	// MethodList enumerates the skills a server serves, a page at a time.
	MethodList = "skills/list"
	// MethodGet returns the entry of one skill, named by its SKILL.md URI.
	MethodGet = "skills/get"
	// Scheme is the URI scheme skill files are served under.
	Scheme = "skill"
	// SkillFile is the file every skill has at its root; a skill's URI is
	// the URI of this file.
	SkillFile = "SKILL.md"
	// Dynamic is the value of Skill.Resources for a skill whose content is
	// generated and has no stable digests.
	Dynamic = "dynamic"
)

// The extension's per-skill limits (specification: Limits).
const (
	// MaxResources bounds the files of one skill, SKILL.md included.
	MaxResources = 512
	// MaxSkillBytes bounds the sum of the sizes of one skill's files.
	MaxSkillBytes = 16 << 20
)

// Resource is one file of a skill: its URI, and the SHA-256 digest and
// the size of its raw bytes (specification: Skill Entries, SkillResource).
type Resource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Skill is the entry of one skill, as skills/list and skills/get return
// it (specification: Skill Entries).
type Skill struct {
	// URI is the resource URI of the skill's SKILL.md.
	URI string `json:"uri"`
	// Frontmatter is SKILL.md's YAML frontmatter as a JSON object, every
	// field the author wrote.
	Frontmatter map[string]any `json:"frontmatter"`
	// Resources lists every file of the skill, SKILL.md included; empty
	// with Dynamic set for a generated skill.
	Resources Manifest `json:"resources"`
}

// Manifest is a skill's resources: the list of its files, or "dynamic".
// It is a distinct type so that an entry whose resources field is absent,
// or neither an array nor "dynamic", can be told from an empty list.
type Manifest struct {
	Files   []Resource
	Dynamic bool
	present bool
}

// MarshalJSON writes the list, or "dynamic".
func (m Manifest) MarshalJSON() ([]byte, error) {
	if m.Dynamic {
		return json.Marshal(Dynamic)
	}
	if m.Files == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(m.Files)
}

// UnmarshalJSON reads an array of resources, or the string "dynamic".
func (m *Manifest) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte(`"`+Dynamic+`"`)):
		*m = Manifest{Dynamic: true, present: true}
		return nil
	case len(b) > 0 && b[0] == '[':
		var files []Resource
		if err := json.Unmarshal(b, &files); err != nil {
			return err
		}
		*m = Manifest{Files: files, present: true}
		return nil
	}
	return fmt.Errorf("mcpskills: resources must be an array or %q", Dynamic)
}

// Digest returns the digest of data as the extension writes it:
// "sha256:" and 64 lowercase hexadecimal digits.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ValidDigest reports whether d has the form Digest returns, which is the
// form of a skill folder's fingerprint.
func ValidDigest(d string) bool { return registry.ValidateFingerprint(d) == nil }

// SetDigest returns one digest for a whole manifest: the SHA-256 of its
// URI and digest pairs, sorted by URI. Two manifests have the same set
// digest exactly when they list the same files with the same contents;
// skillkit records it as the version of a skill installed from a server.
func SetDigest(files []Resource) string {
	lines := make([]string, len(files))
	for i, f := range files {
		lines[i] = f.URI + "\x00" + f.Digest + "\n"
	}
	slices.Sort(lines)
	return Digest([]byte(strings.Join(lines, "")))
}

// URI returns the skill:// URI of file rel (a slash path relative to the
// skill folder) of the skill at skillPath ("name", or "prefix/name"): each
// path element percent-encoded as a URI path segment needs.
func URI(skillPath, rel string) string {
	segs := strings.Split(skillPath+"/"+rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return Scheme + "://" + strings.Join(segs, "/")
}

// SkillURI returns the URI of the SKILL.md of the skill at skillPath.
func SkillURI(skillPath string) string { return URI(skillPath, SkillFile) }

// ErrBadURI is wrapped by the errors of [SplitURI].
var ErrBadURI = errors.New("mcpskills: bad skill URI")

// Root returns the URI of a skill's root folder: its SKILL.md URI without
// the "/SKILL.md" suffix, or an error when uri is not a SKILL.md URI.
func Root(uri string) (string, error) {
	root, ok := strings.CutSuffix(uri, "/"+SkillFile)
	if !ok || !strings.Contains(root, "://") || strings.HasSuffix(root, "://") {
		return "", fmt.Errorf("%w: %q is not the URI of a %s", ErrBadURI, uri, SkillFile)
	}
	return root, nil
}

// SkillPath returns the path of the skill a SKILL.md URI names, decoded:
// for skill:// URIs the authority and path ("acme/billing/refunds"), for
// other schemes the scheme first ("github/owner/repo/refunds"). Every
// element passes skill.CheckPath; the last is the skill's name.
func SkillPath(uri string) (string, error) {
	root, err := Root(uri)
	if err != nil {
		return "", err
	}
	scheme, rest, _ := strings.Cut(root, "://")
	p, err := decodePath(rest)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %w", ErrBadURI, uri, err)
	}
	if !strings.EqualFold(scheme, Scheme) {
		if err := skill.CheckPath(scheme); err != nil {
			return "", fmt.Errorf("%w: %q: %w", ErrBadURI, uri, err)
		}
		p = strings.ToLower(scheme) + "/" + p
	}
	return p, nil
}

// RelPath returns the path of file uri inside the skill whose root URI is
// root, decoded and checked with skill.CheckPath, or an error when uri is
// not inside it.
func RelPath(root, uri string) (string, error) {
	rest, ok := strings.CutPrefix(uri, root+"/")
	if !ok || rest == "" {
		return "", fmt.Errorf("%w: %q is not a file of the skill at %q", ErrBadURI, uri, root)
	}
	p, err := decodePath(rest)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %w", ErrBadURI, uri, err)
	}
	return p, nil
}

// decodePath percent-decodes each element of a slash path and checks the
// result with skill.CheckPath. A query or fragment is refused: a file URI
// has neither.
func decodePath(p string) (string, error) {
	if strings.ContainsAny(p, "?#") {
		return "", errors.New("a query or fragment in a file URI")
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		d, err := url.PathUnescape(s)
		if err != nil {
			return "", err
		}
		if strings.Contains(d, "/") {
			return "", errors.New("an encoded slash in a path element")
		}
		segs[i] = d
	}
	out := strings.Join(segs, "/")
	return out, skill.CheckPath(out)
}
