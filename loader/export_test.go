package loader

import (
	"context"
	"slices"
	"time"
)

// SetRacyWindow sets how recent a change must be for its stamp to prove
// nothing. Tests set 0, so a rescan right after they write trusts the
// stamps and takes the path that keeps the snapshot.
func SetRacyWindow(l *Loader, d time.Duration) { l.racy = d }

// ScanListings runs one scan of l's first source, as Rescan does, and
// returns the folders whose listings the scan still held at its end.
func ScanListings(l *Loader) ([]string, error) {
	sc := &scan{l: l, prev: emptySnapshot(nil), settled: time.Now().UnixNano()}
	sc.fsys = []scanFS{openUnstampedFS(l.sources[0])}
	defer sc.close()
	if _, err := sc.run(context.Background()); err != nil {
		return nil, err
	}
	var dirs []string
	for d := range sc.listings[0].m {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return dirs, nil
}
