package loader

import "time"

// SetRacyWindow sets how recent a change must be for its stamp to prove
// nothing. Tests set 0, so a rescan right after they write trusts the
// stamps and takes the path that keeps the snapshot.
func SetRacyWindow(l *Loader, d time.Duration) { l.racy = d }
