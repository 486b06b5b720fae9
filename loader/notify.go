package loader

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// notifier turns the kernel's change notifications into the folders a
// Watch round must look at again. It watches every folder of the current
// snapshot that it can tell apart (see follow); a folder is trusted, and
// neither listed nor stat'ed by a round, once it has been watched since
// before the previous round looked at it and no notification named it or
// one of its entries since.
type notifier struct {
	fsn   *fsnotify.Watcher
	roots []string // per source: the folder on disk, "" when not notified
	log   *slog.Logger
	done  chan struct{} // closed when the events goroutine ends
	kick  chan struct{} // a notification came (buffered, one)

	// byRef is written by follow only, which runs under the loader's
	// scanMu, as do the scans that read it; the events goroutine reads
	// byPath. Both are written under mu.
	byRef map[dirRef]string // watched folder → its path on disk
	mu    sync.Mutex
	// guarded by mu:
	byPath   map[string]dirRef
	dirty    map[dirRef]bool // named by a notification since the last round
	lost     map[dirRef]bool // moved or removed: the watch is gone
	all      bool            // notifications were lost: trust nothing
	complete bool            // everything the snapshot read is watched or polled
	// polled are the folders the kernel would not watch (its watch
	// limit): each round checks the next slice of them, so that every one
	// is checked within pollCycle.
	polled []dirRef
	cursor int
	slice  int
	// interval is Watch's: how often a round polls.
	interval time.Duration
}

// pollCycle is how long the folders beyond the kernel's watch limit may go
// unchecked: each round checks a slice of them, so that a change there is
// seen within about this long while Watch stays idle otherwise.
const pollCycle = 60 * time.Second

// minPollSlice is the fewest polled folders a round checks.
const minPollSlice = 256

// watchLimit, when positive, is a watch limit of the tests' own, below the
// kernel's: a watch beyond it fails as the kernel's limit does.
var watchLimit int

// dirRef is a folder of a source: its slash path within the source.
type dirRef struct {
	source int
	dir    string
}

// newNotifier starts watching, or returns nil where notifications are not
// used: when no source is on a file system that notifies (see notifies), or
// when the kernel refuses one more inotify instance (logged; Watch then
// polls).
func (l *Loader) newNotifier(ctx context.Context, interval time.Duration) *notifier {
	roots := make([]string, len(l.sources))
	some := false
	for i, src := range l.sources {
		if src.Dir != "" && notifies(src.Dir) {
			roots[i], some = src.Dir, true
		}
	}
	if !some {
		return nil
	}
	fsn, err := fsnotify.NewWatcher()
	if err != nil {
		l.opts.logger().WarnContext(ctx, "loader: change notifications unavailable; Watch polls", "error", err)
		return nil
	}
	n := &notifier{fsn: fsn, roots: roots, log: l.opts.logger(), done: make(chan struct{}), kick: make(chan struct{}, 1),
		byRef: map[dirRef]string{}, byPath: map[string]dirRef{}, dirty: map[dirRef]bool{}, lost: map[dirRef]bool{},
		interval: interval}
	go n.events(ctx)
	n.follow(ctx, l.Snapshot())
	return n
}

// events marks the folders the notifications name until the watcher is
// closed.
func (n *notifier) events(ctx context.Context) {
	defer close(n.done)
	for {
		select {
		case ev, ok := <-n.fsn.Events:
			if !ok {
				return
			}
			n.notice(ev)
		case err, ok := <-n.fsn.Errors:
			if !ok {
				return
			}
			n.failed(ctx, err)
		}
	}
}

// notice marks the folder holding the named entry and, when the entry is a
// watched folder, the folder itself; a watched folder moved or removed has
// lost its watch.
func (n *notifier) notice(ev fsnotify.Event) {
	n.mu.Lock()
	marked := false
	if ref, ok := n.byPath[ev.Name]; ok {
		n.dirty[ref], marked = true, true
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			n.lost[ref] = true
		}
	}
	if ref, ok := n.byPath[filepath.Dir(ev.Name)]; ok {
		n.dirty[ref], marked = true, true
	}
	n.mu.Unlock()
	if marked {
		n.poke()
	}
}

// failed handles an error of the notifications: whatever it was, a
// notification may be lost (the kernel's queue overflowed), so the next
// round trusts nothing.
func (n *notifier) failed(ctx context.Context, err error) {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		n.log.WarnContext(ctx, "loader: change notifications failed; the next rescan checks every folder", "error", err)
	}
	n.mu.Lock()
	n.all = true
	n.mu.Unlock()
	n.poke()
}

func (n *notifier) poke() {
	select {
	case n.kick <- struct{}{}:
	default:
	}
}

// wait returns when a round is due: a notification came (and the burst it
// began has settled), or tick ticked while something is polled. A nil
// notifier polls.
func (n *notifier) wait(ctx context.Context, tick <-chan time.Time) error {
	var kick chan struct{}
	if n != nil {
		kick = n.kick
		if n.isComplete() && !n.polls() {
			tick = nil
		}
	}
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-tick:
		return nil
	case <-kick:
	}
	settle := time.NewTimer(watchSettle)
	defer settle.Stop()
	for {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-kick:
		case <-settle.C:
			return nil
		}
	}
}

func (n *notifier) isComplete() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.complete
}

// polls reports whether some folders are polled.
func (n *notifier) polls() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.polled) > 0
}

// begin starts a round: it takes the folders notified since the last one
// and returns what the round may trust. idle is true when nothing was
// notified and everything is watched: the round has nothing to do.
func (n *notifier) begin() (nt *notified, idle bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.all {
		n.all = false
		n.dirty = map[dirRef]bool{}
		return nil, false
	}
	if len(n.dirty) == 0 && n.complete && len(n.polled) == 0 {
		return nil, true
	}
	dirty := n.dirty
	n.dirty = map[dirRef]bool{}
	nt = &notified{trusted: make([]trust, len(n.roots)), only: n.complete}
	if nt.only {
		for ref := range dirty {
			nt.dirs = append(nt.dirs, ref)
		}
		// The next slice of the folders the kernel would not watch, as
		// if a notification had named them.
		for i := 0; i < n.slice && i < len(n.polled); i++ {
			nt.dirs = append(nt.dirs, n.polled[n.cursor])
			n.cursor = (n.cursor + 1) % len(n.polled)
		}
	}
	for i, root := range n.roots {
		if root == "" {
			continue
		}
		nt.trusted[i] = func(dir string) bool {
			ref := dirRef{i, dir}
			_, watched := n.byRef[ref]
			return watched && !dirty[ref]
		}
	}
	return nt, false
}

// moved reports whether a watched folder was moved or removed since the
// last follow.
func (n *notifier) moved() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.lost) > 0
}

// follow watches the folders of snap it does not watch yet, and stops
// watching those snap no longer has or that were moved or removed. It
// reports whether it added a watch: a folder is watched only after it was
// read, so each new watch marks its folder for the next round to check.
//
// Folders are watched shallowest first (source roots, then skill folders,
// then what they hold), so that where the kernel's watch limit (the
// user's inotify watches) runs out, the folders a new, removed or edited
// skill changes are the ones watched. The folders beyond the limit, or
// whose watch the kernel refuses otherwise, are polled: each round checks
// a slice of them, every one within pollCycle.
//
// Two folders of snap that are one folder on disk (overlapping sources, a
// source linked to a folder of another) are not watched: the kernel would
// notify only one of their paths. They leave the notifier incomplete, and
// Watch rescans what is not watched every interval.
func (n *notifier) follow(ctx context.Context, snap *Snapshot) (added bool) {
	want := map[dirRef]uint64{} // → inode number, 0 when unknown
	for i, root := range n.roots {
		if root == "" || i >= len(snap.dirs) {
			continue
		}
		for dir, m := range snap.dirs[i] {
			want[dirRef{i, dir}] = m.stat.ino
		}
	}
	for _, r := range snap.cache {
		if n.roots[r.source] == "" {
			continue
		}
		for _, p := range r.stamp.paths {
			if p.mode.IsDir() {
				want[dirRef{r.source, p.path}] = p.ino
			}
		}
	}
	shared := sharedFolders(want)

	n.mu.Lock()
	lost := n.lost
	n.lost = map[dirRef]bool{}
	n.mu.Unlock()
	var drop []dirRef
	for ref := range n.byRef {
		if _, ok := want[ref]; !ok || lost[ref] || shared[ref] {
			drop = append(drop, ref)
		}
	}
	for _, ref := range drop {
		p := n.byRef[ref]
		_ = n.fsn.Remove(p) // fails when the kernel already dropped it
		n.mu.Lock()
		delete(n.byRef, ref)
		delete(n.byPath, p)
		n.mu.Unlock()
	}
	order := make([]dirRef, 0, len(want))
	for ref := range want {
		if _, ok := n.byRef[ref]; !ok && !shared[ref] {
			order = append(order, ref)
		}
	}
	slices.SortFunc(order, func(a, b dirRef) int {
		return cmp.Or(cmp.Compare(depth(a.dir), depth(b.dir)), cmp.Compare(a.source, b.source), cmp.Compare(a.dir, b.dir))
	})
	var polled []dirRef
	var firstErr error
	full := false // the kernel's watch limit is reached: no more tries
	for _, ref := range order {
		if full {
			polled = append(polled, ref)
			continue
		}
		p := filepath.Join(n.roots[ref.source], filepath.FromSlash(ref.dir))
		if err := n.add(p); err != nil {
			polled = append(polled, ref)
			firstErr = cmp.Or(firstErr, err)
			full = errors.Is(err, syscall.ENOSPC)
			continue
		}
		added = true
		n.mu.Lock()
		n.byRef[ref], n.byPath[p] = p, ref
		n.dirty[ref] = true
		n.mu.Unlock()
	}
	slice := max(minPollSlice, int((int64(len(polled))*int64(n.interval)+int64(pollCycle)-1)/int64(pollCycle)))
	if len(polled) > 0 {
		n.log.WarnContext(ctx, "loader: some folders are not watched for changes; each is polled at least once a minute",
			"folders", len(polled), "watched", len(n.byRef), "error", firstErr,
			"remedy", "raise the inotify watch limit (sysctl fs.inotify.max_user_watches)")
	}
	complete := len(shared) == 0 && snap.exact
	for _, root := range n.roots {
		complete = complete && root != ""
	}
	n.mu.Lock()
	n.complete = complete
	n.polled, n.slice = polled, slice
	n.cursor = 0
	n.mu.Unlock()
	return added
}

// add watches p.
func (n *notifier) add(p string) error {
	if watchLimit > 0 && len(n.byRef) >= watchLimit {
		return fmt.Errorf("inotify_add_watch %s: %w", p, syscall.ENOSPC)
	}
	return n.fsn.Add(p)
}

// depth is how many folders below its source root dir is.
func depth(dir string) int {
	if dir == "." || dir == "" {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// sharedFolders returns the folders that share an inode number with
// another: one folder on disk reached by two paths.
func sharedFolders(want map[dirRef]uint64) map[dirRef]bool {
	first := make(map[uint64]dirRef, len(want))
	shared := map[dirRef]bool{}
	for ref, ino := range want {
		if ino == 0 {
			continue
		}
		if other, ok := first[ino]; ok {
			shared[ref], shared[other] = true, true
			continue
		}
		first[ino] = ref
	}
	return shared
}

// close stops the notifications and waits for the events goroutine.
func (n *notifier) close() {
	n.fsn.Close()
	<-n.done
}
