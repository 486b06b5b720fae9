//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"
)

func outdatedCommand() *command {
	return &command{
		name:    "outdated",
		args:    "[--json] [--allow-host H] [--allow-file-urls]",
		summary: "list installed git skills whose remote has a newer commit",
		help: `
Asks the remote of every skill installed from git (git ls-remote: any host, no
token) for the commit its branch or tag points to now. Skills installed from a
ZIP file or folder cannot be checked. --json prints every skill's status.
Exits 1 when a remote could not be asked.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &installerFlags{}
			o.register(fs, true)
			return o
		},
		run: runOutdated,
	}
}

func runOutdated(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*installerFlags)
	if len(args) != 0 {
		fmt.Fprintln(c.stderr, "skillkit outdated: takes no arguments")
		return exitUsage
	}
	kit, err := o.open(ctx, c, false, nil)
	if err != nil {
		return c.fail("outdated", err)
	}
	defer kit.Close()
	st, err := kit.CheckUpdates(ctx)
	if err != nil {
		return c.fail("outdated", err)
	}
	code := exitOK
	for _, s := range st {
		if s.Error != "" {
			code = exitFailure
			c.fail("outdated", fmt.Errorf("%s: %s", s.Name, s.Error))
		}
	}
	if o.json {
		if writeJSON(c, st) != nil {
			return exitFailure
		}
		return code
	}
	rows := [][]string{{"NAME", "CURRENT", "LATEST", "SOURCE"}}
	for _, s := range st {
		if !s.HasUpdate {
			continue
		}
		name := s.Name
		if s.Pinned {
			name += " (pinned)"
		}
		src := s.URL
		if s.Ref != "" {
			src += " @" + s.Ref
		}
		rows = append(rows, []string{name, short(s.Current), short(s.Latest), safeText(src)})
	}
	if len(rows) > 1 {
		if err := writeTable(c.stdout, c.width(), rows); err != nil {
			return c.fail("outdated", err)
		}
	}
	fmt.Fprintf(c.info(), "updates for %d of %s\n", len(rows)-1, plural(len(st), "skill"))
	return code
}
