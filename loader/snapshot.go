package loader

import (
	"cmp"
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Snapshot is the result of one scan: the skills every source defines after
// collisions and limits, and the diagnostics found. It is immutable and safe
// for concurrent use; a rescan makes a new one. Its skills are shared with
// later snapshots when their files did not change; never modify them.
type Snapshot struct {
	skills   []*skill.Skill // sorted by name
	byName   map[string]*skill.Skill
	byDir    map[string]*skill.Skill // DiskDir and real folder, both clean
	diags    diagnostics.List        // sorted
	skipped  []NotLoaded             // sorted by path
	registry registry.Store
	cache    map[cacheKey]*loaded // what the next rescan may reuse
	dirs     []map[string]dirMemo // per source: folder listings the next rescan may reuse
	probes   [][]probe            // per source: discovery's answers no stamp covers
	// exact: the stamps and probes cover everything the scan read, so a
	// rescan that finds them all unchanged keeps this snapshot
	exact bool
	// deps indexes cache by the folders each stamp covers, for Watch's
	// rounds; built on first use
	depsOnce sync.Once
	deps     map[dirRef][]*loaded
}

// dependents returns the loads whose stamps cover each folder: the skill
// folder, its sub-folders and the folders of its files.
func (s *Snapshot) dependents() map[dirRef][]*loaded {
	s.depsOnce.Do(func() {
		s.deps = make(map[dirRef][]*loaded, len(s.cache))
		add := func(ref dirRef, r *loaded) {
			if deps := s.deps[ref]; len(deps) == 0 || deps[len(deps)-1] != r {
				s.deps[ref] = append(deps, r)
			}
		}
		for _, r := range s.cache {
			add(dirRef{r.source, r.found.Dir}, r)
			for _, p := range r.stamp.paths {
				add(dirRef{r.source, p.folder()}, r)
			}
		}
	})
	return s.deps
}

// cacheKey names a found folder across scans.
type cacheKey struct {
	source int
	dir    string
}

// loaded is one found folder after loading: the skill (nil when it could
// not be loaded), its diagnostics and the stamp taken before loading.
type loaded struct {
	found  Found
	source int
	stamp  stamp
	skill  *skill.Skill
	diags  diagnostics.List
	real   string // the real folder on disk, for ResolveByPath
	reused bool
}

func emptySnapshot(reg registry.Store) *Snapshot {
	return &Snapshot{byName: map[string]*skill.Skill{}, byDir: map[string]*skill.Skill{}, registry: reg}
}

// Skills returns the skills sorted by name. The slice is a copy; the skills
// are shared and must not be modified.
func (s *Snapshot) Skills() []*skill.Skill { return slices.Clone(s.skills) }

// Len returns the number of skills.
func (s *Snapshot) Len() int { return len(s.skills) }

// Get returns the skill with the name (NFKC form, as [skill.NormalizeName]
// gives it).
func (s *Snapshot) Get(name string) (*skill.Skill, bool) {
	sk, ok := s.byName[name]
	return sk, ok
}

// Diagnostics returns what the scan found, sorted: every skill's load
// diagnostics (the losers of collisions included), NAME_COLLISION,
// LIMIT_REACHED, SYMLINK_ESCAPE and READ_ERROR. Checkers' findings are not
// here; see [Snapshot.Check].
func (s *Snapshot) Diagnostics() diagnostics.List { return slices.Clone(s.diags) }

// NotLoaded is a skill folder discovery found that the snapshot does not
// hold, and why: the code and message of the diagnostic that says so.
type NotLoaded struct {
	Path   string           `json:"path"` // the skill folder, on disk when the source is
	Source string           `json:"source"`
	Code   diagnostics.Code `json:"code"`
	Reason string           `json:"reason"`
}

// NotLoaded returns every skill folder found and not loaded, sorted by
// path: skills that cannot be loaded (FRONTMATTER_INVALID, DESC_MISSING,
// FILE_TOO_LARGE, ...), losers of name collisions (NAME_COLLISION), skills
// past the skill limit (LIMIT_REACHED), skills under dot folders that are
// not skill roots (SKILL_IN_DOT_FOLDER), skills whose skill file leads
// outside the source (SYMLINK_ESCAPE) and, unless Options.NestedSkills,
// skills nested in others (NESTED_SKILL). Folders the folder and depth
// limits left unsearched are in LIMIT_REACHED diagnostics, not here: what
// they hold is unknown.
func (s *Snapshot) NotLoaded() []NotLoaded { return slices.Clone(s.skipped) }

// ResolveByPath returns the skill whose folder on disk holds path: path is
// the folder itself or lies below it ("dir" + separator prefix, so
// skills/pdf-tools never matches skills/pdf). A relative path is taken from
// the working directory. The folder is matched as the loader reached it and
// as its real path after symbolic links, so a path the OS reports through
// either spelling resolves. Only skills from sources with a Dir can match.
// Matching is by bytes: on case-insensitive file systems the case must
// agree.
func (s *Snapshot) ResolveByPath(p string) (*skill.Skill, bool) {
	if p == "" || len(s.byDir) == 0 {
		return nil, false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, false
	}
	for dir := abs; ; {
		if sk, ok := s.byDir[dir]; ok {
			return sk, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, false
		}
		dir = parent
	}
}

// Check runs the checkers over every skill, in parallel, and returns their
// diagnostics sorted. Checkers run live, not at scan time: what they look at
// (saved secrets, installed runtimes, recorded fingerprints) changes without
// any skill file changing, so a snapshot cannot hold their answer.
func (s *Snapshot) Check(ctx context.Context, checkers ...Checker) diagnostics.List {
	if len(checkers) == 0 || len(s.skills) == 0 {
		return nil
	}
	var mu sync.Mutex
	var out diagnostics.List
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(2 * runtime.GOMAXPROCS(0))
	for _, c := range checkers {
		for _, sk := range s.skills {
			g.Go(func() error {
				if ctx.Err() != nil {
					return nil
				}
				d := c.Check(ctx, sk)
				mu.Lock()
				out = append(out, d...)
				mu.Unlock()
				return nil
			})
		}
	}
	g.Wait()
	return out.Sorted()
}

// newSnapshot assembles a snapshot from the winners (in precedence order).
func newSnapshot(winners []*loaded, diags diagnostics.List, cache map[cacheKey]*loaded, reg registry.Store) *Snapshot {
	s := emptySnapshot(reg)
	s.cache = cache
	s.diags = diags.Sorted()
	for _, l := range winners {
		s.skills = append(s.skills, l.skill)
		s.byName[l.skill.Name] = l.skill
		if l.skill.DiskDir != "" {
			s.byDir[filepath.Clean(l.skill.DiskDir)] = l.skill
			if l.real != "" {
				if _, taken := s.byDir[l.real]; !taken {
					s.byDir[l.real] = l.skill
				}
			}
		}
	}
	slices.SortFunc(s.skills, func(a, b *skill.Skill) int { return cmp.Compare(a.Name, b.Name) })
	return s
}
