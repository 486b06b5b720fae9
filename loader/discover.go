package loader

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// maxListed caps the folders a LIMIT_REACHED diagnostic names.
const maxListed = 20

// Found is a skill folder that discovery found.
type Found struct {
	Dir     string `json:"dir"`                // slash path within the source's FS
	DiskDir string `json:"disk_dir,omitempty"` // absolute OS path, when the source is on disk
	File    string `json:"file"`               // SKILL.md, or the other spelling it has

	key     string        // the folder's real identity, for de-duplication
	entries []fs.DirEntry // the folder's entries, for the rescan stamp
	stat    fileStamp     // the folder's own stamp, taken before listing it
}

// dirMemo is a folder's listing, kept for the next scan: a folder whose
// stamp is unchanged has the same entries, so the next scan stats it
// instead of listing it. A stamp that proves nothing (no modification time,
// as in embed.FS and fstest.MapFS, or taken too close to a change) does not
// spare the listing.
type dirMemo struct {
	stat    fileStamp
	entries []fs.DirEntry
}

// Discover finds the skill folders of one source, in the order the loader
// considers them: depth first, each folder's entries in sorted order. A
// folder holding a skill file (any spelling of SKILL.md) is a skill and is
// not searched below unless opts.NestedSkills; node_modules, .git and the
// other [skill.InfraDirs] are never searched; dot folders are searched for
// their conventional skill roots ([ConventionalRoots]) and, last, to name
// the skill files they hold (SKILL_IN_DOT_FOLDER); symbolic links to folders
// inside the source root are followed,
// and a folder reached twice is found once, at its first path. A link
// leaving the root is SYMLINK_ESCAPE; a folder cut by MaxDirs or MaxDepth is
// named in a LIMIT_REACHED diagnostic. A source root that does not exist
// holds no skills and is not reported. Discover does not load the skills.
func Discover(ctx context.Context, src Source, opts *Options) ([]Found, diagnostics.List) {
	srcs, err := prepareSources([]Source{src})
	if err != nil {
		return nil, diagnostics.List{diagnostics.New(diagnostics.ReadError, "", src.Dir, "%v", err)}
	}
	fsys := openScanFS(srcs[0])
	defer fsys.close()
	w := newWalker(srcs[0], fsys, opts, nil, time.Now().UnixNano())
	var found []Found
	w.run(ctx, func(f Found) { found = append(found, f) })
	return found, w.diags
}

// resolver tells where a path really leads, so the walker can refuse links
// that leave the source root and recognise one folder reached twice.
type resolver interface {
	// root returns the real identity of the source root; ok is false when the
	// root does not exist.
	root() (key string, ok bool)
	// resolve follows every link in p (a slash path in the source's FS) and
	// returns the real identity of its target and whether it stays inside
	// the root.
	resolve(p string) (key string, inside bool, err error)
	// child returns the identity of name inside the folder whose identity is
	// key, when name is not a link.
	child(key, name string) string
}

// diskResolver follows links with the OS, for sources on disk. A link
// target counts as inside when it lies in the source root or in one of the
// source's link roots (agent skills folders, Source.LinkRoots).
type diskResolver struct {
	dir, real string
	links     []string // the link roots, as given
	realLinks []string // the link roots that exist, resolved
}

func (r *diskResolver) root() (string, bool) {
	real, err := filepath.EvalSymlinks(r.dir)
	if err != nil {
		return "", false
	}
	r.real = real
	r.realLinks = realRoots(r.links)
	return real, true
}

func (r *diskResolver) resolve(p string) (string, bool, error) {
	target, err := filepath.EvalSymlinks(filepath.Join(r.dir, filepath.FromSlash(p)))
	if err != nil {
		return "", false, err
	}
	return target, within(r.real, target) || withinAny(r.realLinks, target), nil
}

func (r *diskResolver) child(key, name string) string { return filepath.Join(key, name) }

// within reports whether target is root or inside it (both real, clean).
func within(root, target string) bool {
	rel, err := filepath.Rel(root, target)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fsResolver follows links inside an fs.FS (fstest.MapFS and the like),
// for sources that are not on disk. An absolute target, or one climbing
// above the root, leaves the root.
type fsResolver struct {
	fsys   fs.FS
	prefix string // keeps these identities apart from other sources'
}

// maxLinkHops bounds the links followed for one path, as the OS does.
const maxLinkHops = 40

// Identities are the prefix, a NUL, and the clean path ("." for the root).
func (r *fsResolver) key(p string) string { return r.prefix + "\x00" + p }

func (r *fsResolver) root() (string, bool) {
	_, err := fs.Stat(r.fsys, ".")
	return r.key("."), err == nil
}

func (r *fsResolver) child(key, name string) string {
	return r.key(path.Join(strings.TrimPrefix(key, r.prefix+"\x00"), name))
}

func (r *fsResolver) resolve(p string) (string, bool, error) {
	todo := strings.Split(p, "/")
	var cur []string
	hops := 0
	for len(todo) > 0 {
		part := todo[0]
		todo = todo[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return "", false, nil
			}
			cur = cur[:len(cur)-1]
			continue
		}
		next := path.Join(append(slices.Clone(cur), part)...)
		info, err := fs.Lstat(r.fsys, next)
		if err != nil {
			return "", false, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur = append(cur, part)
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", false, errors.New("too many levels of symbolic links")
		}
		target, err := fs.ReadLink(r.fsys, next)
		if err != nil {
			return "", false, err
		}
		if path.IsAbs(target) || filepath.IsAbs(target) {
			return "", false, nil
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	if len(cur) == 0 {
		return r.key("."), true, nil
	}
	return r.key(path.Join(cur...)), true, nil
}

// walker searches one source.
type walker struct {
	src      Source
	fsys     scanFS
	res      resolver
	settled  int64 // see fileStamp.settle
	maxDirs  int
	maxDepth int
	nested   bool            // search below skill folders too
	seen     map[string]bool // real identities of the folders visited
	diags    diagnostics.List
	skipped  []NotLoaded        // skill folders found and not loaded: dot folders, escaping links
	prev     map[string]dirMemo // the previous scan's listings; read only
	trusts   trust              // the prev listings notifications vouch for
	slots    chan struct{}      // listings in flight; nil: each folder is listed when reached
	started  int                // listings started, at most maxDirs
	next     *listings          // this scan's listings, for the loads and the next scan
	// probes are the walk's answers that no folder stamp covers; exact is
	// false when the walk depended on something neither covers (a folder
	// it could not list, a root that does not exist).
	probes []probe
	exact  bool
}

func newWalker(src Source, fsys scanFS, opts *Options, prev map[string]dirMemo, settled int64) *walker {
	w := &walker{src: src, fsys: fsys, settled: settled, maxDirs: opts.maxDirs(), maxDepth: opts.maxDepth(), nested: opts != nil && opts.NestedSkills,
		seen: map[string]bool{}, prev: prev, next: newListings(), slots: make(chan struct{}, opts.concurrency()), exact: true}
	w.res = newResolver(src, fsys)
	return w
}

func newResolver(src Source, fsys scanFS) resolver {
	if src.Dir != "" {
		return &diskResolver{dir: src.Dir, links: src.linkRoots()}
	}
	return &fsResolver{fsys: fsys, prefix: "\x00" + src.Name}
}

// display is the path reported for a slash path of the source.
func (w *walker) display(p string) string {
	if w.src.Dir == "" {
		return p
	}
	if p == "." {
		return w.src.Dir
	}
	return filepath.Join(w.src.Dir, filepath.FromSlash(p))
}

func (w *walker) add(code diagnostics.Code, p, format string, args ...any) *diagnostics.Diagnostic {
	d := diagnostics.New(code, "", w.display(p), format, args...).With("source", w.src.Name)
	w.diags = append(w.diags, d)
	return &w.diags[len(w.diags)-1]
}

type pending struct {
	dir    string
	key    string
	depth  int
	listed *listing // the listing started when the folder was queued, or nil
	// hiddenBy is the dot folder this one lies in, "" when none: skill files
	// found there are named, not loaded.
	hiddenBy string
	// deep: the folder lies past MaxDepth; skill files found in it (at any
	// depth) are named, not loaded.
	deep bool
}

// ConventionalRoots returns the skill folders other agents keep under a dot
// folder, as slash paths ([AgentSkillDirs]): below a source, discovery
// searches them like any other folder, while the rest of a dot folder is
// only searched to name the skill files it holds.
func ConventionalRoots() []string { return AgentSkillDirs() }

// conventionalRoot returns the skills folder below dot folder name
// ("skills" for ".claude"), or "" when it has none.
func conventionalRoot(name string) string {
	if agentDotDir(name) {
		return "skills"
	}
	return ""
}

// listing is a folder's listing, done on another goroutine.
type listing struct {
	done    chan struct{}
	entries []fs.DirEntry
	stat    fileStamp
	err     error
}

// startList lists dir on another goroutine, at most cap(w.slots) at once, so
// the folders queued ahead of the walk are listed while it goes on. It
// returns nil, and nothing is started, once ctx is done.
func (w *walker) startList(ctx context.Context, dir string) *listing {
	if w.slots == nil {
		return nil
	}
	select {
	case w.slots <- struct{}{}:
	case <-ctx.Done():
		return nil
	}
	w.started++
	l := &listing{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer func() { <-w.slots }()
		l.entries, l.stat, l.err = w.list(dir)
	}()
	return l
}

// settle waits for the listings still in flight (of folders the walk
// skipped or never reached), so none writes after the walk returns.
func (w *walker) settle() {
	for range cap(w.slots) {
		w.slots <- struct{}{}
	}
	for range cap(w.slots) {
		<-w.slots
	}
}

// listed waits for p's listing, or lists it now.
func (w *walker) listed(p pending) ([]fs.DirEntry, fileStamp, error) {
	if p.listed == nil {
		return w.list(p.dir)
	}
	<-p.listed.done
	return p.listed.entries, p.listed.stat, p.listed.err
}

// run walks the source and hands each skill folder to emit, in order.
func (w *walker) run(ctx context.Context, emit func(Found)) {
	defer w.settle()
	rootKey, ok := w.res.root()
	if !ok {
		w.exact = false // a rescan looks again
		return
	}
	var tooDeep, deepSkills []string
	// Dot folders and folders past the depth limit wait on a stack of their
	// own, searched once the rest is done, so they never take the folder
	// budget from skills that load.
	stack := []pending{{dir: ".", key: rootKey}}
	var dotStack []pending
	visited := 0
	for len(stack)+len(dotStack) > 0 {
		if ctx.Err() != nil {
			return
		}
		from := &stack
		if len(stack) == 0 {
			from = &dotStack
		}
		p := (*from)[len(*from)-1]
		*from = (*from)[:len(*from)-1]
		if w.seen[p.key] {
			continue // a loop, or a folder reached twice: silently once
		}
		if visited >= w.maxDirs {
			w.cutByDirs(append(append(dotStack, stack...), p))
			break
		}
		visited++
		w.seen[p.key] = true
		entries, stat, err := w.listed(p)
		if err != nil {
			w.exact = false
			if !(p.dir == "." && errors.Is(err, fs.ErrNotExist)) {
				w.add(diagnostics.ReadError, p.dir, "cannot read the folder: %v", err)
			}
			if len(entries) == 0 {
				continue
			}
		}
		if p.hiddenBy != "" {
			w.nameHidden(p, entries)
		} else if p.deep {
			if f := w.nameDeep(p, entries); f != "" {
				deepSkills = append(deepSkills, f)
			}
		} else if f, isSkill := w.skillFolder(p, entries, stat); isSkill {
			if f != nil {
				emit(*f)
			}
			if !w.nested {
				continue
			}
		}
		// Conventional roots come after the folder's other children: they
		// are often links to the source's own skills folder.
		var children, roots, dotChildren []pending
		for _, e := range entries {
			name := e.Name()
			if skill.IsInfraDir(name) {
				continue // .git, node_modules, .venv, ...: never searched
			}
			if name[0] != '.' && !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
				continue // a file: nothing to search
			}
			child := path.Join(p.dir, name)
			hiddenBy := p.hiddenBy
			if name[0] == '.' && hiddenBy == "" {
				hiddenBy = child
				if sub := conventionalRoot(name); sub != "" {
					if root, ok := w.conventionalRoot(p, path.Join(child, sub)); ok && (p.deep || root.depth > w.maxDepth) {
						if !p.deep {
							tooDeep = append(tooDeep, root.dir)
						}
						root.deep = true
						dotChildren = append(dotChildren, root)
					} else if ok {
						roots = append(roots, root)
					}
				}
			}
			var key string
			if e.Type()&fs.ModeSymlink != 0 {
				if hiddenBy != "" {
					continue // links in dot folders are not followed
				}
				var isDir bool
				key, isDir = w.followDirLink(child)
				if !isDir {
					continue
				}
			} else if !e.IsDir() {
				continue
			} else {
				key = w.res.child(p.key, name)
			}
			// Past the depth limit, folders are searched last and only to
			// name the skill files they hold, so none is left out in silence.
			deep := p.deep
			if !deep && p.depth+1 > w.maxDepth && hiddenBy == "" {
				deep = true
				tooDeep = append(tooDeep, child)
			}
			next := pending{dir: child, key: key, depth: p.depth + 1, hiddenBy: hiddenBy, deep: deep}
			if hiddenBy != "" || deep {
				dotChildren = append(dotChildren, next)
			} else {
				children = append(children, next)
			}
		}
		children = append(children, roots...)
		// Start listing the children in walk order, as long as the folder
		// limit can still reach them.
		for i := range children {
			if w.started >= w.maxDirs {
				break
			}
			children[i].listed = w.startList(ctx, children[i].dir)
		}
		for i := len(children) - 1; i >= 0; i-- {
			stack = append(stack, children[i])
		}
		for i := len(dotChildren) - 1; i >= 0; i-- {
			dotStack = append(dotStack, dotChildren[i])
		}
	}

	if len(tooDeep) > 0 {
		d := w.add(diagnostics.LimitReached, ".", "folders more than %d levels below the source root (%d) were searched only to name skill files: %s found, not loaded%s",
			w.maxDepth, len(tooDeep), plural(len(deepSkills), "skill file"), listed(deepSkills))
		*d = d.With("limit", "max_depth").With("value", w.maxDepth).With("folders", firstN(tooDeep)).With("skipped", firstN(deepSkills))
	}
}

// nameDeep names the skill file of a folder past the depth limit, in a
// LIMIT_REACHED entry of NotLoaded, and returns its path ("" when the
// folder holds none).
func (w *walker) nameDeep(p pending, entries []fs.DirEntry) string {
	names := skill.SkillFileNames(entries)
	if len(names) == 0 {
		return ""
	}
	w.skipped = append(w.skipped, NotLoaded{Path: w.display(p.dir), Source: w.src.Name, Code: diagnostics.LimitReached,
		Reason: fmt.Sprintf("more than %d folder levels below the source root (max depth)", w.maxDepth)})
	return path.Join(p.dir, names[0])
}

// plural writes "1 skill file", "2 skill files".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// listed is ": a, b and 3 more" for a message, "" for no items.
func listed(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return ": " + sample(items)
}

// conventionalRoot returns the pending search of a conventional skills
// folder below a dot folder (rel: ".claude/skills" below p), when it exists,
// is a folder and, through links, lies within the
// source root. The caller applies the depth limit.
func (w *walker) conventionalRoot(p pending, rel string) (pending, bool) {
	r := w.ask(probeRoot, rel)
	if !r.statDir {
		return pending{}, false
	}
	if r.resolveErr != "" {
		w.add(diagnostics.ReadError, rel, "cannot follow the path: %s", r.resolveErr)
		return pending{}, false
	}
	if !r.inside {
		w.add(diagnostics.SymlinkEscape, rel, "the skills folder leads outside the source root and was not searched")
		return pending{}, false
	}
	return pending{dir: rel, key: r.key, depth: p.depth + 2}, true
}

// skip records a skill folder that is not loaded, for the snapshot's
// NotLoaded.
func (w *walker) skip(dir string, d diagnostics.Diagnostic) {
	w.skipped = append(w.skipped, NotLoaded{Path: w.display(dir), Source: w.src.Name, Code: d.Code, Reason: d.Message})
}

// nameHidden names the skill file of a folder inside a dot folder that is
// not a conventional skill root: such skills are not loaded, but not lost
// in silence either.
func (w *walker) nameHidden(p pending, entries []fs.DirEntry) {
	names := skill.SkillFileNames(entries)
	if len(names) == 0 {
		return
	}
	d := w.add(diagnostics.SkillInDotFolder, path.Join(p.dir, names[0]), "a skill under the dot folder %s, which is not a skill root (%s); it is not loaded",
		p.hiddenBy, strings.Join(ConventionalRoots(), ", "))
	*d = d.With("dot_folder", p.hiddenBy)
	w.skip(p.dir, *d)
}

// list returns a folder's entries and stamp: the previous scan's entries
// when notifications vouch for the folder or its stamp proves them
// unchanged, else a fresh listing.
func (w *walker) list(dir string) ([]fs.DirEntry, fileStamp, error) {
	if m, ok := w.prev[dir]; ok && (w.trusts.vouches(dir) || m.stat.proves() && w.fsys.stamp(dir).same(m.stat)) {
		w.next.put(dir, m)
		return m.entries, m.stat, nil
	}
	entries, st, err := w.fsys.list(dir)
	st.settle(w.settled)
	if err == nil {
		w.next.put(dir, dirMemo{stat: st, entries: entries})
	}
	return entries, st, err
}

func (w *walker) cutByDirs(left []pending) {
	var names []string
	for i := len(left) - 1; i >= 0; i-- {
		names = append(names, left[i].dir)
	}
	d := w.add(diagnostics.LimitReached, ".", "the source has more than %d folders; these %d, and anything below them, were not searched: %s",
		w.maxDirs, len(names), sample(names))
	*d = d.With("limit", "max_dirs").With("value", w.maxDirs).With("skipped", firstN(names))
}

// sample names a few of the items for a message: "a, b, c and 4 more".
func sample(items []string) string {
	const shown = 5
	if len(items) <= shown {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:shown], ", "), len(items)-shown)
}

func firstN(names []string) []string {
	if len(names) > maxListed {
		return names[:maxListed]
	}
	return names
}

// followDirLink resolves a link found while searching. It returns the
// target's identity and whether it is a folder to search; a link leaving the
// root is reported and not followed.
func (w *walker) followDirLink(p string) (string, bool) {
	r := w.ask(probeLink, p)
	switch {
	case r.resolveErr != "":
		w.add(diagnostics.ReadError, p, "cannot follow the symbolic link: %s", r.resolveErr)
		return "", false
	case !r.inside:
		w.add(diagnostics.SymlinkEscape, p, "the symbolic link leads outside the source root and was not followed")
		return "", false
	case r.statErr != "":
		w.add(diagnostics.ReadError, p, "cannot read the symbolic link's target: %s", r.statErr)
		return "", false
	}
	return r.key, r.statDir
}

// skillFolder reports whether the folder holds a skill file. It returns nil
// for a skill that must be skipped because its SKILL.md or skill.config.yaml
// is a link leaving the source root (reported).
func (w *walker) skillFolder(p pending, entries []fs.DirEntry, stat fileStamp) (*Found, bool) {
	file := ""
	for _, want := range skill.SkillFileNames(entries) {
		i := slices.IndexFunc(entries, func(e fs.DirEntry) bool { return e.Name() == want })
		if e := entries[i]; e.Type().IsRegular() {
			file = want
			break
		} else if e.Type()&fs.ModeSymlink != 0 {
			if r := w.ask(probeStat, path.Join(p.dir, want)); r.statErr == "" && !r.statDir {
				file = want
				break
			}
		}
	}
	if file == "" {
		return nil, false
	}
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink == 0 || (e.Name() != file && e.Name() != skill.ConfigFileName) {
			continue
		}
		rel := path.Join(p.dir, e.Name())
		if r := w.ask(probeResolve, rel); r.resolveErr == "" && !r.inside {
			d := w.add(diagnostics.SymlinkEscape, rel, "the skill's %s is a symbolic link leading outside the source root; the skill is skipped", e.Name())
			w.skip(p.dir, *d)
			return nil, true
		}
	}
	return &Found{Dir: p.dir, DiskDir: w.diskDir(p.dir), File: file, key: p.key, entries: entries, stat: stat}, true
}

func (w *walker) diskDir(p string) string {
	if w.src.Dir == "" {
		return ""
	}
	return w.display(p)
}

// probeKind says what a probe asked.
type probeKind uint8

const (
	probeLink    probeKind = iota // resolve a link found while searching, then stat its target
	probeRoot                     // stat a conventional skills folder, then resolve it
	probeStat                     // stat a linked skill file
	probeResolve                  // resolve a linked skill file or skill.config.yaml
)

// probe is an answer of the walk that no folder stamp covers: where a link
// leads, whether a conventional skills folder exists. A rescan that finds
// every stamp unchanged asks each probe again before it keeps the
// snapshot.
type probe struct {
	kind probeKind
	path string
	probeResult
}

type probeResult struct {
	statErr    string
	statDir    bool
	resolveErr string
	key        string
	inside     bool
}

// ask answers a probe and records it.
func (w *walker) ask(kind probeKind, p string) probeResult {
	r := answer(w.fsys, w.res, kind, p)
	w.probes = append(w.probes, probe{kind: kind, path: p, probeResult: r})
	return r
}

// answer answers a probe; the same file system state gives the same answer.
func answer(fsys scanFS, res resolver, kind probeKind, p string) probeResult {
	var r probeResult
	stat := func() {
		st, err := fsys.Stat(p)
		if err != nil {
			r.statErr = err.Error()
		} else {
			r.statDir = st.IsDir()
		}
	}
	resolve := func() {
		key, inside, err := res.resolve(p)
		if err != nil {
			r.resolveErr = err.Error()
		}
		r.key, r.inside = key, inside
	}
	switch kind {
	case probeLink:
		if resolve(); r.resolveErr == "" && r.inside {
			stat()
		}
	case probeRoot:
		if stat(); r.statErr == "" && r.statDir {
			resolve()
		}
	case probeStat:
		stat()
	case probeResolve:
		resolve()
	}
	return r
}
