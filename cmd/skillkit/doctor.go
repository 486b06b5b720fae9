//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit/diagnostics"
)

type doctorOptions struct {
	loaderFlags
	json  bool
	level string
}

func doctorCommand() *command {
	return &command{
		name:    "doctor",
		args:    "[--json] [--level error|warning|info] [DIR...]",
		summary: "load the skills as a host would and print every diagnostic, checks included",
		help: `
Prints what loading found (collisions, limits, symbolic links, invalid
skills) and what the checks that look outside the files find (files changed
since install: FINGERPRINT_CHANGED; with --publishers, a skill a listed
publisher signed whose key or Sigstore identity is no longer listed, or
whose archive's bundle no longer verifies: PUBLISHER_UNTRUSTED), one line each, at --level or above
(default info). --json prints a JSON array of diagnostics. Exit status 1 when
any diagnostic is an error, whatever --level shows.
` + loaderHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &doctorOptions{}
			o.register(fs)
			fs.BoolVar(&o.json, "json", false, "print diagnostics as a JSON array")
			fs.StringVar(&o.level, "level", "info", "show diagnostics at this `LEVEL` or above: error, warning or info")
			return o
		},
		run: runDoctor,
	}
}

func runDoctor(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*doctorOptions)
	min, err := diagnostics.ParseLevel(o.level)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit doctor: --level: %v\n", err)
		return exitUsage
	}
	o.publishers = true
	kit, err := openKit(ctx, c, args, &o.loaderFlags)
	if err != nil {
		return c.fail("doctor", err)
	}
	defer kit.Close()
	l, err := kit.Loader(ctx)
	if err != nil {
		return c.fail("doctor", err)
	}
	all, err := kit.Doctor(ctx)
	if err != nil {
		return c.fail("doctor", err)
	}
	shown := all.AtLeast(min)
	if o.json {
		if writeJSON(c, nonNil(shown)) != nil {
			return exitFailure
		}
	} else {
		for _, d := range shown {
			fmt.Fprintln(c.stdout, safeText(d.String()))
		}
		fmt.Fprintf(c.info(), "%s: %s\n", plural(l.Snapshot().Len(), "skill"), levelCounts(all, min))
	}
	if all.HasErrors() {
		return exitFailure
	}
	return exitOK
}
