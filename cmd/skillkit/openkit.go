//go:build !lean

package main

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/loader"
)

// openKit opens the skills of dirs (or the default folder) as a host does,
// through skillkit.Open: the first folder is the Kit's skills folder (its
// registry and secrets), the others follow as read-only sources, with the
// flags' limits. So list, doctor, prompt and read see what a host's Kit
// sees, checks included. A DIR that is not a folder is an error: a host may
// open a folder before it exists, a person typing a path may not.
func openKit(ctx context.Context, c *cli, dirs []string, f *loaderFlags) (*skillkit.Kit, error) {
	dirs = append(append([]string{}, f.dirs...), dirs...)
	if len(dirs) == 0 {
		dirs = []string{resolveDir(c, "")}
	}
	for _, v := range []int64{int64(f.maxSkills), int64(f.maxDirs), int64(f.maxDepth), f.maxFileBytes} {
		if v <= 0 {
			return nil, fmt.Errorf("limits must be positive")
		}
	}
	var sources []loader.Source
	seen := map[string]bool{}
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is not a folder", d)
		}
		if seen[d] {
			continue
		}
		seen[d] = true
		if d != dirs[0] {
			sources = append(sources, loader.Source{Name: d, Dir: d})
		}
	}
	kit, err := c.open(ctx, skillkit.Options{
		Dir:     dirs[0],
		DirName: dirs[0],
		Sources: sources,
		// The commands read the skills once and exit: nothing is kept
		// for a rescan.
		Loader: &loader.Options{MaxSkills: f.maxSkills, MaxDirs: f.maxDirs, MaxDepth: f.maxDepth, MaxFileBytes: f.maxFileBytes, OneShot: true},
		Getenv: c.getenv,
		Logger: c.logger,
		// Every command opening the Kit this way reads the skills at once.
		ScanOnOpen: true,
	})
	// The scan's garbage goes before the command builds its output: left
	// to the pacer, the output's allocations meet it and lift the peak
	// (docs/decisions.md).
	runtime.GC()
	return kit, err
}
