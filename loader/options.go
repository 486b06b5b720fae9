package loader

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"path/filepath"
	"runtime"

	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/skill"
)

// Default limits. Zero in [Options] means these, never "unlimited".
const (
	DefaultMaxSkills    = 200                       // skills in a snapshot, all sources together
	DefaultMaxDirs      = 2000                      // folders visited per source
	DefaultMaxDepth     = 6                         // folder levels searched below a source root
	DefaultMaxFileBytes = skill.DefaultMaxFileBytes // SKILL.md and skill.config.yaml (256 KiB)
)

// Unlimited, given as a limit, lifts it. Tools that must see everything
// (skillkit validate) use it; hosts should not.
const Unlimited = math.MaxInt

// Source is one root folder of skills. Sources are given in precedence
// order: where two define the same name, the first wins.
type Source struct {
	// Name identifies the source in diagnostics and Skill.Source ("workspace",
	// "user", "bundled"). Required and unique.
	Name string
	// FS holds the skills. When nil, Dir is read through os.DirFS. It is
	// read from several goroutines at once, so it must be safe for
	// concurrent use (os.DirFS, embed.FS and fstest.MapFS are).
	FS fs.FS
	// Dir is where FS is on disk; empty for an embed.FS or a fstest.MapFS.
	// The loader makes it absolute and clean, and uses it for Skill.DiskDir,
	// for symbolic-link checks and for ResolveByPath.
	Dir string
	// Writable marks the source where the installer and agents may write.
	Writable bool
	// LinkRoots are folders outside Dir that symbolic links in the source
	// may lead into (absolute paths); a link leading anywhere else is
	// SYMLINK_ESCAPE. Besides these, links may lead anywhere in the project
	// Dir belongs to, when Dir is or lies in one of the project's agent
	// skills folders ([AgentSkillDirs]: /p for /p/.claude/skills), and into
	// the agent skills folders of the user's home (only those, when the
	// project is the home): the links the `npx skills` installer makes from
	// .claude/skills and the other agents' folders into .agents/skills. A
	// folder reached through several links is loaded once.
	LinkRoots []string
	// NoAgentLinks follows links into LinkRoots only, not into agent
	// skills folders.
	NoAgentLinks bool
	// Origin names who serves this source's skills when it is not the host
	// itself: "mcp:docs-server" for an MCP server the host labels
	// docs-server (mcpskills.Client.Source). It becomes Skill.Origin, which
	// the catalog and read_skill show the model, so that it can tell such
	// skills from the host's own. Empty for the host's own folders.
	Origin string

	ownFS bool // FS is os.DirFS(Dir), made by the loader
}

// Options tune a [Loader]. A nil *Options, or a zero field, means the
// default; zero never means "unlimited".
type Options struct {
	// MaxSkills caps the skills in a snapshot (default 200). Skills past it,
	// in precedence order, are left out with a LIMIT_REACHED diagnostic that
	// names them.
	MaxSkills int
	// MaxDirs caps the folders visited per source (default 2000).
	MaxDirs int
	// MaxDepth caps how many folder levels below a source root are searched
	// for skills to load (default 6: a skill at a/b/c/d/e/f/SKILL.md is
	// found). Deeper folders are searched last, within MaxDirs, only to name
	// the skill files they hold.
	MaxDepth int
	// MaxFileBytes caps skill.config.yaml and SKILL.md's frontmatter
	// (default 256 KiB): a larger one is FILE_TOO_LARGE and its skill is
	// skipped. A longer SKILL.md loads with a FILE_TOO_LARGE warning, and
	// what is served of it stops at the cap.
	MaxFileBytes int64
	// Strict loads skills in strict mode (see package skill).
	Strict bool
	// NestedSkills loads a skill inside another skill's folder as a skill of
	// its own too. By default only the outer skill is loaded, and the inner
	// skill file is named in its NESTED_SKILL diagnostic; either way the
	// outer skill's files include the inner one's.
	NestedSkills bool
	// Concurrency bounds the skills loaded, and the folders listed ahead of
	// the walk, at once (default 2×GOMAXPROCS).
	Concurrency int
	// Checkers add diagnostics that need outside state; see [Checker].
	Checkers []Checker
	// Logger receives one debug line per scan, and Watch's warnings
	// (change notifications unavailable, folders past the watch limit).
	// Nil discards.
	Logger *slog.Logger
	// OneShot keeps nothing for a rescan: no folder listings, stamps or
	// per-folder results stay in the snapshot, and the scan takes no stamp
	// of its own, so a program that scans once and exits (a command-line
	// listing) holds only its skills. The cost is every later scan:
	// Rescan then reads and parses every skill again, as the first scan
	// did, and compares each with the previous one to report what changed.
	// Leave it off for a loader that rescans or watches.
	OneShot bool
}

func limit(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

func (o *Options) maxSkills() int {
	if o == nil {
		return DefaultMaxSkills
	}
	return limit(o.MaxSkills, DefaultMaxSkills)
}

func (o *Options) maxDirs() int {
	if o == nil {
		return DefaultMaxDirs
	}
	return limit(o.MaxDirs, DefaultMaxDirs)
}

func (o *Options) maxDepth() int {
	if o == nil {
		return DefaultMaxDepth
	}
	return limit(o.MaxDepth, DefaultMaxDepth)
}

func (o *Options) concurrency() int {
	if o == nil || o.Concurrency <= 0 {
		return 2 * runtime.GOMAXPROCS(0)
	}
	return o.Concurrency
}

func (o *Options) logger() *slog.Logger {
	if o == nil || o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// ErrInvalidSource is wrapped by [New] errors about its sources.
var ErrInvalidSource = errors.New("loader: invalid source")

// CheckSources checks sources as [New] does — each named, names unique,
// each with an FS or a Dir — without reading them. Errors wrap
// [ErrInvalidSource].
func CheckSources(sources []Source) error {
	_, err := prepareSources(sources)
	return err
}

// prepareSources checks the sources and fills in FS and the absolute Dir.
func prepareSources(sources []Source) ([]Source, error) {
	out := make([]Source, len(sources))
	seen := map[string]bool{}
	for i, src := range sources {
		if src.Name == "" {
			return nil, fmt.Errorf("%w: source %d has no name", ErrInvalidSource, i)
		}
		if seen[src.Name] {
			return nil, fmt.Errorf("%w: two sources are named %q", ErrInvalidSource, src.Name)
		}
		seen[src.Name] = true
		if src.Dir != "" {
			abs, err := filepath.Abs(src.Dir)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %w", ErrInvalidSource, src.Name, err)
			}
			src.Dir = abs
			if src.FS == nil {
				src.FS, src.ownFS = osfs.Dir(abs), true
			}
		}
		if src.FS == nil {
			return nil, fmt.Errorf("%w: %s has neither FS nor Dir", ErrInvalidSource, src.Name)
		}
		out[i] = src
	}
	return out, nil
}
