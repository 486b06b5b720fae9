package mcpskills

import (
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
)

// What a server serves of a skill skillkit loaded, and how: the server
// side of the extension, which the MCP adapter (package
// github.com/skillkit-go/skillkit/adapters/mcp) puts on the wire.

// Served returns the files of s a server serves, sorted: SKILL.md (the
// skill file, whatever its spelling on disk, is served as SKILL.md) and
// every attached file whose path, and the path it resolves to through
// symbolic links, is not infrastructure (skill.IsInfra: skill.config.yaml,
// .env, package.json, .venv/, ...). Files that cannot be read safely (a
// link leaving the folder, a hard link, not a regular file) are left out,
// as read_skill_file refuses them.
func Served(s *skill.Skill) []string {
	out := []string{SkillFile}
	for _, rel := range s.Files { // the loader lists no infrastructure, no link
		if rel == SkillFile {
			continue
		}
		if _, err := servedPath(s, rel); err == nil {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

// servedPath returns the path rel resolves to, or why it is not served:
// only files the skill listed when it was loaded, and only while they do
// not lead, through a link put in their place since, to infrastructure.
func servedPath(s *skill.Skill, rel string) (string, error) {
	if rel == SkillFile {
		return s.File, nil
	}
	if !slices.Contains(s.Files, rel) {
		return "", fmt.Errorf("mcpskills: %s has no served file %s", s.Name, quote(rel))
	}
	resolved, err := s.Resolve(rel)
	if err != nil {
		return "", fmt.Errorf("mcpskills: %s/%s: %w", s.Name, rel, err)
	}
	if resolved == "." || skill.IsInfra(resolved) {
		return "", fmt.Errorf("mcpskills: %s/%s leads to %s, which is not served", s.Name, rel, resolved)
	}
	return resolved, nil
}

// ReadServed reads file rel of s as a server serves it: one of [Served],
// read through the skill's own checks (skill.Skill.Open: no path out of
// the folder, no hard link, regular files only), at most MaxSkillBytes.
func ReadServed(s *skill.Skill, rel string) ([]byte, error) {
	resolved, err := servedPath(s, rel)
	if err != nil {
		return nil, err
	}
	f, err := s.Open(resolved)
	if err != nil {
		return nil, fmt.Errorf("mcpskills: %s/%s: %w", s.Name, rel, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("mcpskills: %s/%s: %w", s.Name, rel, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("mcpskills: %s/%s is not a regular file", s.Name, rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSkillBytes+1))
	if err != nil {
		return nil, fmt.Errorf("mcpskills: %s/%s: %w", s.Name, rel, err)
	}
	if len(data) > MaxSkillBytes {
		return nil, fmt.Errorf("mcpskills: %s/%s: %w: over %d bytes", s.Name, rel, ErrTooLarge, MaxSkillBytes)
	}
	return data, nil
}

// Entry returns the entry a server publishes for s, at skill path
// s.Name: its URI, its frontmatter as JSON (from SKILL.md's bytes) and
// the digest and size of every file [Served] lists, read now. It fails for
// a skill whose name breaks the specification's naming rules (it cannot
// be the last element of a skill URI), whose frontmatter has no JSON form
// or is one clients reject (a description over 1,024 characters, metadata
// that is not a mapping of strings: [ErrFrontmatter]), or which is over
// the extension's limits ([ErrTooLarge]).
func Entry(s *skill.Skill) (Skill, error) {
	if err := skill.ValidateName(s.Name); err != nil {
		return Skill{}, fmt.Errorf("mcpskills: %s is not served: %w", s.Name, err)
	}
	files := Served(s)
	if len(files) > MaxResources {
		return Skill{}, fmt.Errorf("mcpskills: %s is not served: %w: %d files, over %d", s.Name, ErrTooLarge, len(files), MaxResources)
	}
	e := Skill{URI: SkillURI(s.Name), Resources: Manifest{Files: make([]Resource, 0, len(files)), present: true}}
	var total int64
	for _, rel := range files {
		data, err := ReadServed(s, rel)
		if err != nil {
			return Skill{}, err
		}
		if total += int64(len(data)); total > MaxSkillBytes {
			return Skill{}, fmt.Errorf("mcpskills: %s is not served: %w: over %d bytes", s.Name, ErrTooLarge, MaxSkillBytes)
		}
		if rel == SkillFile {
			if e.Frontmatter, err = Frontmatter(data); err != nil {
				return Skill{}, fmt.Errorf("mcpskills: %s is not served: %w", s.Name, err)
			}
			if err := clientAccepts(e.Frontmatter); err != nil {
				return Skill{}, fmt.Errorf("mcpskills: %s is not served: %w", s.Name, err)
			}
		}
		e.Resources.Files = append(e.Resources.Files, Resource{URI: URI(s.Name, rel), Digest: Digest(data), Size: int64(len(data))})
	}
	return e, nil
}

// clientAccepts checks what Skills-extension clients validate in an
// entry's frontmatter beyond name and description being strings: a
// description of at most skill.MaxDescriptionLength characters, and
// metadata, when present, a mapping of string values. A client that finds
// one entry breaking them may reject the whole listing, so a server leaves
// such a skill out; the entry must carry the frontmatter as written, so it
// cannot be changed to fit.
func clientAccepts(fm map[string]any) error {
	if d, _ := fm["description"].(string); utf8.RuneCountInString(d) > skill.MaxDescriptionLength {
		return fmt.Errorf("%w: the description has %d characters, over the %d clients accept", ErrFrontmatter, utf8.RuneCountInString(d), skill.MaxDescriptionLength)
	}
	md, present := fm["metadata"]
	if !present || md == nil {
		return nil
	}
	m, ok := md.(map[string]any)
	if !ok {
		return fmt.Errorf("%w: metadata is not a mapping, which clients require", ErrFrontmatter)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if _, ok := m[k].(string); !ok {
			return fmt.Errorf("%w: metadata.%s is not a string, which clients require", ErrFrontmatter, k)
		}
	}
	return nil
}

// SplitServed splits a URI a server built with [URI] for a skill at a
// one-element skill path into the skill's name and the file's path.
func SplitServed(uri string) (name, rel string, err error) {
	rest, ok := strings.CutPrefix(uri, Scheme+"://")
	if !ok {
		return "", "", fmt.Errorf("%w: %q is not a %s:// URI", ErrBadURI, uri, Scheme)
	}
	first, _, _ := strings.Cut(rest, "/")
	root := Scheme + "://" + first
	if rel, err = RelPath(root, uri); err != nil {
		return "", "", err
	}
	if name, err = decodePath(first); err != nil || path.Base(name) != name {
		return "", "", fmt.Errorf("%w: %q", ErrBadURI, uri)
	}
	return name, rel, nil
}

// MIMEType is the media type a server gives a served file, from its
// extension: text/markdown for Markdown (SKILL.md included), a few common
// text and data types, else text/plain for text and
// application/octet-stream for anything else. A fixed table, so the answer
// does not depend on the machine's MIME database.
func MIMEType(rel string, data []byte) string {
	switch strings.ToLower(path.Ext(rel)) {
	case ".md", ".markdown":
		return "text/markdown"
	case ".json":
		return "application/json"
	case ".yaml", ".yml":
		return "application/yaml"
	case ".py":
		return "text/x-python"
	case ".js", ".mjs", ".cjs":
		return "text/javascript"
	case ".ts":
		return "text/x-typescript"
	case ".sh":
		return "text/x-shellscript"
	case ".html", ".htm":
		return "text/html"
	case ".csv":
		return "text/csv"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".svg":
		return "image/svg+xml"
	case ".pdf":
		return "application/pdf"
	}
	if prompt.IsText(data) {
		return "text/plain"
	}
	return "application/octet-stream"
}
