package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
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
		fmt.Fprintf(c.stderr, "skillkit outdated: %v\n", err)
		return exitFailure
	}
	defer kit.Close()
	st, err := kit.CheckUpdates(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit outdated: %v\n", err)
		return exitFailure
	}
	code := exitOK
	for _, s := range st {
		if s.Error != "" {
			code = exitFailure
			fmt.Fprintf(c.stderr, "skillkit outdated: %s: %s\n", s.Name, s.Error)
		}
	}
	if o.json {
		if writeJSON(c, st) != nil {
			return exitFailure
		}
		return code
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	n := 0
	for _, s := range st {
		if !s.HasUpdate {
			continue
		}
		if n == 0 {
			fmt.Fprintln(tw, "NAME\tCURRENT\tLATEST\tSOURCE")
		}
		n++
		name := s.Name
		if s.Pinned {
			name += " (pinned)"
		}
		src := s.URL
		if s.Ref != "" {
			src += " @" + s.Ref
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, short(s.Current), short(s.Latest), src)
	}
	tw.Flush()
	fmt.Fprintf(c.stderr, "%d of %d skills have updates\n", n, len(st))
	return code
}
