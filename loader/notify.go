package loader

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
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
	complete bool            // everything the snapshot read is watched
}

// dirRef is a folder of a source: its slash path within the source.
type dirRef struct {
	source int
	dir    string
}

// newNotifier starts watching, or returns nil where notifications are not
// used: when no source is on a file system that notifies (see notifies), or
// when the kernel refuses one more inotify instance (logged; Watch then
// polls).
func (l *Loader) newNotifier(ctx context.Context) *notifier {
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
		byRef: map[dirRef]string{}, byPath: map[string]dirRef{}, dirty: map[dirRef]bool{}, lost: map[dirRef]bool{}}
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
		if n.isComplete() {
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
	if len(n.dirty) == 0 && n.complete {
		return nil, true
	}
	dirty := n.dirty
	n.dirty = map[dirRef]bool{}
	nt = &notified{trusted: make([]trust, len(n.roots)), only: n.complete}
	if nt.only {
		for ref := range dirty {
			nt.dirs = append(nt.dirs, ref)
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
// Two folders of snap that are one folder on disk (overlapping sources, a
// source linked to a folder of another) are not watched: the kernel would
// notify only one of their paths. A folder whose watch the kernel refuses
// (the user's watch limit) is not either; such folders leave the notifier
// incomplete, and Watch polls.
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
	unwatched := len(shared)

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
	refused := 0
	var firstErr error
	for ref := range want {
		if _, ok := n.byRef[ref]; ok || shared[ref] {
			continue
		}
		p := filepath.Join(n.roots[ref.source], filepath.FromSlash(ref.dir))
		if err := n.fsn.Add(p); err != nil {
			refused++
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		added = true
		n.mu.Lock()
		n.byRef[ref], n.byPath[p] = p, ref
		n.dirty[ref] = true
		n.mu.Unlock()
	}
	if refused > 0 {
		n.log.WarnContext(ctx, "loader: some folders are not watched for changes and are polled", "folders", refused, "error", firstErr)
	}
	complete := unwatched+refused == 0 && snap.exact
	for _, root := range n.roots {
		complete = complete && root != ""
	}
	n.mu.Lock()
	n.complete = complete
	n.mu.Unlock()
	return added
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
