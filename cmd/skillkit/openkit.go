//go:build !lean

package main

import (
	"cmp"
	"context"
	"runtime"

	"github.com/skillkit-go/skillkit"
)

// openKit opens the skills of dirs (or the default folder) as a host does,
// through skillkit.Open: the first folder is the Kit's skills folder (its
// registry and secrets), the others follow as read-only sources, with the
// flags' limits (see loaderSources). So list, doctor, prompt and read see
// what a host's Kit sees, checks included.
func openKit(ctx context.Context, c *cli, dirs []string, f *loaderFlags) (*skillkit.Kit, error) {
	first, sources, lopts, err := loaderSources(c, dirs, f)
	if err != nil {
		return nil, err
	}
	kit, err := c.open(ctx, skillkit.Options{
		Dir:     first,
		DirName: first,
		Sources: sources,
		Loader:  lopts,
		Getenv:  c.getenv,
		Logger:  c.logger,
		// Every command opening the Kit this way reads the skills at once.
		ScanOnOpen:     true,
		PublishersFile: publishersFile(c, f.publishers),
	})
	// The scan's garbage goes before the command builds its output: left
	// to the pacer, the output's allocations meet it and lift the peak
	// (docs/decisions.md).
	runtime.GC()
	return kit, err
}

// publishersFile is the publishers file (--publishers, else
// $SKILLKIT_PUBLISHERS) when want, else "".
func publishersFile(c *cli, want bool) string {
	if !want {
		return ""
	}
	return cmp.Or(c.publishers, c.getenv("SKILLKIT_PUBLISHERS"))
}
