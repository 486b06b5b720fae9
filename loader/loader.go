package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Loader finds skills in its sources and keeps the current [Snapshot]. It
// is safe for concurrent use: readers get the current snapshot without
// waiting, while Rescan builds the next one and swaps it in atomically.
type Loader struct {
	sources  []Source
	registry registry.Store // nil: no skill is disabled
	opts     Options
	cur      atomic.Pointer[Snapshot]
	scanMu   sync.Mutex    // one scan at a time
	racy     time.Duration // see racyWindow
}

// Changes says which skills a rescan added, removed or modified, by name,
// each sorted. A skill is modified when its files changed or it now comes
// from another folder or source.
type Changes struct {
	Added    []string `json:"added"`
	Removed  []string `json:"removed"`
	Modified []string `json:"modified"`
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Modified) == 0
}

// New checks the sources, scans them once and returns the loader. reg, when
// not nil, is where Filter reads which skills are disabled (it is read at
// each Filter, so enabling a skill needs no rescan). Problems with skills and
// folders are diagnostics of the snapshot, not errors; the error is for bad
// sources (wrapping [ErrInvalidSource]) or a done ctx.
func New(ctx context.Context, sources []Source, reg registry.Store, opts *Options) (*Loader, error) {
	srcs, err := prepareSources(sources)
	if err != nil {
		return nil, err
	}
	l := &Loader{sources: srcs, registry: reg, racy: racyWindow}
	if opts != nil {
		l.opts = *opts
		l.opts.Checkers = slices.Clone(opts.Checkers)
	}
	l.cur.Store(emptySnapshot(reg))
	if _, err := l.Rescan(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// Sources returns the sources in precedence order, with Dir absolute.
func (l *Loader) Sources() []Source { return slices.Clone(l.sources) }

// Snapshot returns the current snapshot.
func (l *Loader) Snapshot() *Snapshot { return l.cur.Load() }

// Get returns the named skill from the current snapshot.
func (l *Loader) Get(name string) (*skill.Skill, bool) { return l.Snapshot().Get(name) }

// ResolveByPath returns the skill of the current snapshot whose folder holds
// path; see [Snapshot.ResolveByPath].
func (l *Loader) ResolveByPath(path string) (*skill.Skill, bool) {
	return l.Snapshot().ResolveByPath(path)
}

// Filter returns what an agent sees in the current snapshot; see
// [Snapshot.Filter].
func (l *Loader) Filter(ctx context.Context, env Env) (*Visibility, error) {
	return l.Snapshot().Filter(ctx, env)
}

// Doctor returns every diagnostic about the current snapshot: the scan's and
// those of Options.Checkers, run now, sorted.
func (l *Loader) Doctor(ctx context.Context) diagnostics.List {
	snap := l.Snapshot()
	all := append(snap.Diagnostics(), snap.Check(ctx, l.opts.Checkers...)...)
	return all.Sorted()
}

// Rescan scans the sources again and swaps in the new snapshot. A skill
// whose skill file, skill.config.yaml and folder listing (sizes and
// modification times) did not change is reused, not read again. The error
// is only ever ctx's; the current snapshot is then kept.
func (l *Loader) Rescan(ctx context.Context) (Changes, error) {
	l.scanMu.Lock()
	defer l.scanMu.Unlock()
	return l.rescan(ctx, nil)
}

// rescan is Rescan, trusting what notifications vouch for (nil: nothing).
// The caller holds scanMu.
func (l *Loader) rescan(ctx context.Context, nt *notified) (Changes, error) {
	start := time.Now()
	prev := l.Snapshot()
	sc := &scan{l: l, prev: prev, settled: start.Add(-l.racy).UnixNano(), notified: nt}
	open := openScanFS
	if l.opts.OneShot {
		open = openUnstampedFS
	}
	for _, src := range l.sources {
		sc.fsys = append(sc.fsys, open(src))
	}
	defer sc.close()
	if sc.unchanged(ctx) {
		l.opts.logger().DebugContext(ctx, "skills scanned: nothing changed", "skills", prev.Len(), "elapsed", time.Since(start))
		return Changes{}, nil
	}
	if err := ctx.Err(); err != nil {
		return Changes{}, err
	}
	next, err := sc.run(ctx)
	if err != nil {
		return Changes{}, err
	}
	l.cur.Store(next)
	ch := diff(prev, next, l.opts.OneShot)
	l.opts.logger().DebugContext(ctx, "skills scanned", "skills", next.Len(), "reused", sc.reused,
		"diagnostics", len(next.diags), "added", len(ch.Added), "removed", len(ch.Removed),
		"modified", len(ch.Modified), "elapsed", time.Since(start))
	return ch, nil
}

// diff says what changed from prev to next. A skill the scan reused is the
// same *Skill; reloaded says every skill was read again (Options.OneShot),
// so skills are compared instead.
func diff(prev, next *Snapshot, reloaded bool) Changes {
	var ch Changes
	for _, s := range next.skills {
		old, ok := prev.byName[s.Name]
		switch {
		case !ok:
			ch.Added = append(ch.Added, s.Name)
		case old != s && (!reloaded || !sameSkill(old, s)):
			ch.Modified = append(ch.Modified, s.Name)
		}
	}
	for _, s := range prev.skills {
		if _, ok := next.byName[s.Name]; !ok {
			ch.Removed = append(ch.Removed, s.Name)
		}
	}
	return ch
}

// scan is one run over the sources.
type scan struct {
	l       *Loader
	prev    *Snapshot
	settled int64    // see fileStamp.settle
	fsys    []scanFS // per source
	// listings per source: this scan's folder listings, discovery's and
	// the loads'
	listings []*listings
	reused   int
	notified *notified // what notifications vouch for, or nil
}

// notified is what change notifications tell a rescan.
type notified struct {
	trusted []trust // per source; a nil entry vouches for nothing
	// only: every folder the previous snapshot read is watched, and dirs
	// are those notified since, the only ones that can differ
	only bool
	dirs []dirRef
}

// trusts returns what notifications vouch for in a source.
func (sc *scan) trusts(source int) trust {
	if nt := sc.notified; nt != nil && source < len(nt.trusted) {
		return nt.trusted[source]
	}
	return nil
}

func (sc *scan) close() {
	for _, f := range sc.fsys {
		f.close()
	}
}

// job is one candidate folder, in precedence order, and its load.
type job struct {
	source int
	found  Found
	result *loaded // set by the worker that loads it
}

// run discovers and loads. Discovery walks the sources in precedence order
// on its own goroutine and streams what it finds; the first MaxSkills
// distinct folders start loading at once, on a few workers, while the walk
// goes on. Collisions and the limit are then resolved in precedence order;
// when losers and broken skills left places, the next candidates are loaded
// in further rounds, so the limit cuts without loading what it cuts.
func (sc *scan) run(ctx context.Context) (*Snapshot, error) {
	l := sc.l
	opts := &l.opts
	maxSkills := opts.maxSkills()
	walkDiags := make([]diagnostics.List, len(l.sources))
	walkSkipped := make([][]NotLoaded, len(l.sources))
	walks := make([]*walker, len(l.sources))
	for i, src := range l.sources {
		var prev map[string]dirMemo
		if i < len(sc.prev.dirs) {
			prev = sc.prev.dirs[i]
		}
		walks[i] = newWalker(src, sc.fsys[i], opts, prev, sc.settled)
		walks[i].trusts = sc.trusts(i)
	}
	sc.listings = make([]*listings, len(walks))
	for i, w := range walks {
		sc.listings[i] = w.next
		w.next.forget = opts.OneShot
	}
	found := make(chan job, 256)
	go func() {
		defer close(found)
		for i, w := range walks {
			w.run(ctx, func(f Found) { found <- job{source: i, found: f} })
			walkDiags[i], walkSkipped[i] = w.diags, w.skipped
		}
	}()

	// One physical folder once; the first maxSkills start loading.
	var jobs []*job
	seen := map[string]bool{}
	queue, done := sc.workers(ctx)
	for j := range found {
		if seen[j.found.key] {
			continue
		}
		seen[j.found.key] = true
		jobs = append(jobs, &j)
		if len(jobs) <= maxSkills {
			queue <- &j
		}
	}
	close(queue)
	<-done
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var diags diagnostics.List
	var skipped []NotLoaded
	for i, d := range walkDiags {
		diags = append(diags, d...)
		skipped = append(skipped, walkSkipped[i]...)
	}

	var cache map[cacheKey]*loaded // what the next rescan may reuse
	if !opts.OneShot {
		cache = make(map[cacheKey]*loaded, len(jobs))
	}
	winners := map[string]*loaded{}
	var order []*loaded
	next := 0
	for next < len(jobs) && len(order) < maxSkills {
		batch := jobs[next : next+min(maxSkills-len(order), len(jobs)-next)] // no overflow near Unlimited
		next += len(batch)
		if batch[0].result == nil { // later rounds
			queue, done := sc.workers(ctx)
			for _, j := range batch {
				queue <- j
			}
			close(queue)
			<-done
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, j := range batch {
			r := j.result
			if cache != nil {
				cache[cacheKey{r.source, r.found.Dir}] = r
			}
			if r.reused {
				sc.reused++
			}
			diags = append(diags, r.diags...)
			if !opts.NestedSkills {
				// The skills nested in this one, loaded or not, are named.
				for _, d := range r.diags.WithCode(diagnostics.NestedSkill) {
					dir := path.Dir(d.Path)
					if l.sources[r.source].Dir != "" {
						dir = filepath.Dir(d.Path)
					}
					skipped = append(skipped, NotLoaded{Path: dir, Source: l.sources[r.source].Name, Code: d.Code, Reason: d.Message})
				}
			}
			if r.skill == nil {
				skipped = append(skipped, sc.failed(r))
				continue
			}
			if w, taken := winners[r.skill.Name]; taken {
				d := sc.collision(w, r)
				diags = append(diags, d)
				skipped = append(skipped, sc.notLoaded(r, d))
				continue
			}
			winners[r.skill.Name] = r
			order = append(order, r)
		}
	}
	if next < len(jobs) {
		var left []string
		for _, j := range jobs[next:] {
			left = append(left, l.sources[j.source].Name+":"+j.found.Dir)
			skipped = append(skipped, NotLoaded{Path: foundPath(j.found), Source: l.sources[j.source].Name, Code: diagnostics.LimitReached,
				Reason: fmt.Sprintf("over the limit of %d skills", maxSkills)})
		}
		diags = append(diags, diagnostics.New(diagnostics.LimitReached, "", "",
			"more than %d skills: these %d skill folders were not loaded: %s", maxSkills, len(left), sample(left)).
			With("limit", "max_skills").With("value", maxSkills).With("skipped", left))
	}
	snap := newSnapshot(order, diags, cache, l.registry)
	if !opts.OneShot {
		snap.dirs = make([]map[string]dirMemo, len(walks))
		snap.exact = true
		for i, w := range walks {
			snap.dirs[i] = w.next.m
			snap.probes = append(snap.probes, w.probes)
			snap.exact = snap.exact && w.exact
		}
	}
	slices.SortStableFunc(skipped, func(a, b NotLoaded) int { return strings.Compare(a.Path, b.Path) })
	snap.skipped = skipped
	return snap, nil
}

// workers starts the loading workers: they load every job sent on queue
// until it is closed, then close done. Once ctx is done they drain the
// queue without loading. A few workers take jobs in turn: a goroutine per
// skill would cost a scheduler hand-off per skill.
func (sc *scan) workers(ctx context.Context) (chan<- *job, <-chan struct{}) {
	queue := make(chan *job, 64)
	done := make(chan struct{})
	var g errgroup.Group
	for range sc.l.opts.concurrency() {
		g.Go(func() error {
			for j := range queue {
				if ctx.Err() == nil {
					j.result = sc.load(j.source, j.found)
					if sc.l.opts.OneShot {
						j.found.entries = nil
					}
				}
			}
			return nil
		})
	}
	go func() {
		g.Wait()
		close(done)
	}()
	return queue, done
}

// load loads a found folder, or reuses the previous scan's result when the
// folder is unchanged.
func (sc *scan) load(source int, f Found) *loaded {
	src := sc.l.sources[source]
	prev, hadPrev := sc.prev.cache[cacheKey{source, f.Dir}]
	if hadPrev && prev.found.File == f.File && prev.stamp.unchanged(sc.fsys[source], &f, sc.trusts(source)) {
		r := *prev
		r.reused = true
		return &r
	}
	memo := newMemoFS(sc.fsys[source], sc.listings[source], sc.settled, &f)
	opts := &skill.LoadOptions{Strict: sc.l.opts.Strict, MaxFileBytes: sc.l.opts.MaxFileBytes, DiskRoot: src.Dir, KeepFS: src.FS}
	s, diags := skill.Load(memo, f.Dir, opts)
	files := 0
	if s != nil {
		files = len(s.Files)
	}
	r := &loaded{found: f, source: source}
	if sc.l.opts.OneShot {
		r.found.entries = nil // only the stamp reads them
	} else {
		r.stamp = memo.stamp(&f, files)
	}
	memo.done()
	for i := range diags {
		diags[i] = diags[i].With("source", src.Name)
	}
	r.diags = diags
	if s != nil {
		s.Source, s.Origin = src.Name, src.Origin
		s.Diagnostics = diags
		r.skill = s
		if src.Dir != "" {
			r.real = f.key
		}
		// Touched but not changed (or a file system without modification
		// times): keep the previous Skill, so it is not reported modified.
		if hadPrev && prev.skill != nil && sameSkill(prev.skill, s) {
			r.skill, r.diags = prev.skill, prev.diags
		}
	}
	return r
}

// sameSkill reports whether two loads of a folder gave the same skill: the
// same model, files and diagnostics, as their JSON form shows them.
func sameSkill(a, b *skill.Skill) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// foundPath is where a found folder is, as reported: on disk when the
// source is.
func foundPath(f Found) string {
	if f.DiskDir != "" {
		return f.DiskDir
	}
	return f.Dir
}

// failed is the NotLoaded of a folder whose skill could not be loaded: the
// first error that says why.
func (sc *scan) failed(r *loaded) NotLoaded {
	errs := r.diags.AtLeast(diagnostics.Error)
	if len(errs) == 0 { // skill.Load always says why; keep the promise anyway
		return sc.notLoaded(r, diagnostics.New(diagnostics.ReadError, "", "", "the skill could not be loaded"))
	}
	return sc.notLoaded(r, errs[0])
}

func (sc *scan) notLoaded(r *loaded, d diagnostics.Diagnostic) NotLoaded {
	return NotLoaded{Path: foundPath(r.found), Source: sc.l.sources[r.source].Name, Code: d.Code, Reason: d.Message}
}

// collision reports the loser of a name collision.
func (sc *scan) collision(winner, loser *loaded) diagnostics.Diagnostic {
	where := func(r *loaded) string { return foundPath(r.found) }
	ws, ls := sc.l.sources[winner.source].Name, sc.l.sources[loser.source].Name
	return diagnostics.New(diagnostics.NameCollision, loser.skill.Name, where(loser),
		"the name %q is already taken by %s (source %s); this skill (source %s) is not loaded",
		loser.skill.Name, where(winner), ws, ls).
		With("winner_path", where(winner)).With("winner_source", ws).
		With("loser_path", where(loser)).With("loser_source", ls)
}
