package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/skill"
)

// The lock files of the `npx skills` installer: one per project, beside
// its .agents folder, and one for the user's global installs.
const (
	NpxProjectLock = "skills-lock.json"
	NpxGlobalLock  = ".agents/.skill-lock.json" // relative to the home folder
)

// MaxNpxLockBytes caps the lock files ReadNpxLock reads.
const MaxNpxLockBytes = 4 << 20

// NpxEntry is one skill in a lock file of the `npx skills` installer: where
// it came from, for showing it and checking it for updates. Only the
// fields both lock files share, or that one of them keeps, are read.
type NpxEntry struct {
	// Source is the source as the installer normalized it: "owner/repo"
	// for GitHub, a host and path for others.
	Source string `json:"source"`
	// SourceType is "github", "git", "local", "well-known", ...
	SourceType string `json:"sourceType"`
	// SourceURL is the URL installed from (global lock).
	SourceURL string `json:"sourceUrl,omitempty"`
	// Ref is the branch, tag or commit asked for (project lock), when one was.
	Ref string `json:"ref,omitempty"`
	// SkillPath is the skill's SKILL.md (or folder) within the source.
	SkillPath string `json:"skillPath,omitempty"`
	// Hash is what the installer recorded of the skill's content: a
	// SHA-256 over the installed folder (project lock, computedHash) or
	// the source's folder tree hash (global lock, skillFolderHash).
	Hash string `json:"hash,omitempty"`
	// InstalledAt and UpdatedAt are the installer's timestamps, as written
	// (global lock).
	InstalledAt string `json:"installedAt,omitempty"`
	UpdatedAt   string `json:"updatedAt,omitempty"`
}

// NpxLock is a lock file of the `npx skills` installer.
type NpxLock struct {
	Path    string              `json:"path"`
	Version int                 `json:"version"`
	Skills  map[string]NpxEntry `json:"skills"`
}

// Names returns the skills the lock lists, sorted.
func (l *NpxLock) Names() []string { return slices.Sorted(maps.Keys(l.Skills)) }

// ErrInvalidNpxLock is wrapped by the errors of [ParseNpxLock] and
// [ReadNpxLock] about a lock file's content.
var ErrInvalidNpxLock = errors.New("registry: invalid npx skills lock file")

// ReadNpxLock reads a lock file of the `npx skills` installer. A file that
// does not exist wraps fs.ErrNotExist.
func ReadNpxLock(path string) (*NpxLock, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxNpxLockBytes+1))
	if err != nil {
		return nil, fmt.Errorf("registry: %s: %w", path, err)
	}
	if len(data) > MaxNpxLockBytes {
		return nil, fmt.Errorf("%w: %s is over %d bytes", ErrInvalidNpxLock, path, MaxNpxLockBytes)
	}
	l, err := ParseNpxLock(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l.Path = path
	return l, nil
}

// ParseNpxLock parses the JSON of a lock file of the `npx skills`
// installer: {"version": N, "skills": {"<name>": {...}}}. Entries whose
// name is not a valid skill name, or whose fields have the wrong types,
// are an error: the file is not what it claims to be.
func ParseNpxLock(data []byte) (*NpxLock, error) {
	var raw struct {
		Version int                        `json:"version"`
		Skills  map[string]json.RawMessage `json:"skills"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidNpxLock, err)
	}
	if raw.Skills == nil {
		return nil, fmt.Errorf("%w: no skills object", ErrInvalidNpxLock)
	}
	l := &NpxLock{Version: raw.Version, Skills: make(map[string]NpxEntry, len(raw.Skills))}
	for name, msg := range raw.Skills {
		if err := skill.ValidateKey(name); err != nil {
			return nil, fmt.Errorf("%w: skill %q: %v", ErrInvalidNpxLock, name, err)
		}
		var e struct {
			NpxEntry
			ComputedHash    string `json:"computedHash"`
			SkillFolderHash string `json:"skillFolderHash"`
		}
		if err := json.Unmarshal(msg, &e); err != nil {
			return nil, fmt.Errorf("%w: skill %q: %v", ErrInvalidNpxLock, name, err)
		}
		entry := e.NpxEntry
		entry.Hash = e.ComputedHash
		if entry.Hash == "" {
			entry.Hash = e.SkillFolderHash
		}
		if strings.TrimSpace(entry.Source) == "" {
			return nil, fmt.Errorf("%w: skill %q has no source", ErrInvalidNpxLock, name)
		}
		l.Skills[name] = entry
	}
	return l, nil
}

// NpxLockPaths returns the lock files that may say where the skills of a
// skills folder came from: the project lock beside the project's .agents
// folder, when project is not empty (the project an agent skills folder
// belongs to: loader.AgentProject), and the global lock when the folder is
// in the home folder.
func NpxLockPaths(dir, project, home string) []string {
	var out []string
	if project != "" && project != home {
		out = append(out, filepath.Join(project, NpxProjectLock))
	}
	if home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			out = append(out, filepath.Join(home, filepath.FromSlash(NpxGlobalLock)))
		}
	}
	return out
}
