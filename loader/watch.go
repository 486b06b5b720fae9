package loader

import (
	"context"
	"time"
)

// DefaultWatchInterval is how often Watch rescans by default.
const DefaultWatchInterval = 2 * time.Second

// WatchOptions tune [Loader.Watch]. Nil or zero fields mean the defaults.
type WatchOptions struct {
	// Interval between rescans (default 2 s).
	Interval time.Duration
}

// Watch rescans every interval until ctx is done, calling changed (from
// Watch's goroutine) after each rescan that added, removed or modified a
// skill. It returns ctx's error.
//
// Watch polls: each round is a [Loader.Rescan], which reads folder listings
// and stats files but re-reads only the skills that changed. Polling works
// for every source (os.DirFS, embed.FS, network and container file systems
// where change notifications are missing or partial), follows symbolic links
// into other folders, and costs no watch descriptor per folder. A change is
// seen within one interval.
func (l *Loader) Watch(ctx context.Context, opts *WatchOptions, changed func(Changes)) error {
	interval := DefaultWatchInterval
	if opts != nil && opts.Interval > 0 {
		interval = opts.Interval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-t.C:
		}
		ch, err := l.Rescan(ctx)
		if err != nil {
			return err
		}
		if !ch.Empty() && changed != nil {
			changed(ch)
		}
	}
}
