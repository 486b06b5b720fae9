package loader

import (
	"context"
	"time"
)

// DefaultWatchInterval is how often Watch polls what change notifications
// do not cover, by default.
const DefaultWatchInterval = 2 * time.Second

// watchSettle is how long Watch lets a burst of notifications go on before
// it rescans: saving a file, unpacking a skill or checking out a branch is
// many notifications, and one rescan after them reads each change once.
const watchSettle = 50 * time.Millisecond

// WatchOptions tune [Loader.Watch]. Nil or zero fields mean the defaults.
type WatchOptions struct {
	// Interval between rescans of what change notifications do not cover
	// (default 2 s); between all rescans when polling.
	Interval time.Duration
	// Poll turns change notifications off: every round is a Rescan, every
	// Interval. For folders changed from elsewhere than the kernel that
	// notifies (a network or container file system written by another
	// machine, which Watch cannot tell from a local one when it is mounted
	// below a source).
	Poll bool
}

// Watch keeps the snapshot current until ctx is done, calling changed (from
// Watch's goroutine) after each rescan that added, removed or modified a
// skill. It returns ctx's error.
//
// On Linux, Watch asks the kernel (inotify) to notify every change to the
// folders the last scan listed (source roots, skill folders and their
// sub-folders, each once), and rescans only when a notification came: a
// rescan then lists and stats only the folders notified, and while nothing
// changes Watch does no work at all. What notifications cannot cover is
// polled every interval, as a [Loader.Rescan]: sources that are not on disk
// (os.DirFS is, embed.FS and fstest.MapFS are not), sources on network and
// FUSE file systems (whose changes from other machines are not notified),
// folders reached twice through symbolic links, and source roots that do
// not exist yet. Where the user's inotify watch limit runs out, the
// shallowest folders are watched (source roots, then skill folders, then
// what they hold) and the rest are polled a slice each interval, each at
// least once a minute, so that Watch stays nearly idle (said once in the
// log, with the setting that raises the limit). A lost
// notification (the kernel's queue overflowed) makes the next rescan check
// everything. Elsewhere, and with WatchOptions.Poll, every round is a
// Rescan, every interval.
//
// Each notified folder costs a watch (about 1 KiB of kernel memory) for as
// long as Watch runs.
func (l *Loader) Watch(ctx context.Context, opts *WatchOptions, changed func(Changes)) error {
	interval := DefaultWatchInterval
	if opts != nil && opts.Interval > 0 {
		interval = opts.Interval
	}
	var n *notifier
	if opts == nil || !opts.Poll {
		n = l.newNotifier(ctx, interval)
	}
	if n != nil {
		defer n.close()
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	// Watches are added after what they cover was read: the round that
	// adds them checks, once, that nothing changed in between.
	again := n != nil
	for {
		if !again {
			if err := n.wait(ctx, t.C); err != nil {
				return err
			}
		}
		ch, more, err := l.watchRound(ctx, n)
		if err != nil {
			return err
		}
		again = more
		if !ch.Empty() && changed != nil {
			changed(ch)
		}
	}
}

// watchRound is one round of Watch: a Rescan trusting the folders no
// notification named, or a plain Rescan without a notifier. more is true
// when it added watches, whose folders the next round checks at once.
func (l *Loader) watchRound(ctx context.Context, n *notifier) (ch Changes, more bool, err error) {
	l.scanMu.Lock()
	defer l.scanMu.Unlock()
	if n == nil {
		ch, err = l.rescan(ctx, nil)
		return ch, false, err
	}
	nt, idle := n.begin()
	if idle {
		return Changes{}, false, nil
	}
	prev := l.Snapshot()
	if ch, err = l.rescan(ctx, nt); err != nil {
		return ch, false, err
	}
	if l.Snapshot() == prev && !n.moved() {
		return ch, false, nil // the same folders as before: the same watches
	}
	return ch, n.follow(ctx, l.Snapshot()), nil
}
