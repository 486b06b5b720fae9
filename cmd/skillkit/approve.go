//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
)

type approveOptions struct {
	installerFlags
	trustFlags
}

func approveCommand() *command {
	return &command{
		name:    "approve",
		args:    "[--yes] [--allow-dangerous] [--json] NAME",
		summary: "approve the current files of an installed skill, so they may run",
		help: `
What may run is what was approved: the fingerprint of a skill's files when it
was installed, updated or last approved. A skill whose files changed since
(an edit by hand, or by anything else) does not run, installs no
dependencies and gets no secret: SKILL_MODIFIED names the files. approve
shows which files differ, scans the current files and applies the trust
policy as install does, and records their fingerprint as approved.` + trustHelp + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &approveOptions{}
			o.installerFlags.register(fs, false)
			o.trustFlags.register(fs)
			return o
		},
		run: runApprove,
	}
}

func runApprove(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*approveOptions)
	if len(args) != 1 {
		fmt.Fprintln(c.stderr, "skillkit approve: give the NAME of one installed skill")
		return exitUsage
	}
	kit, err := o.open(ctx, c, false, func(k *skillkit.Options) { k.AllowDangerous = o.allowDangerous })
	if err != nil {
		return c.fail("approve", err)
	}
	defer kit.Close()
	aopts := &installer.ApproveOptions{Confirmed: o.yes}
	a, err := kit.Approve(ctx, args[0], aopts)
	stop, err := againAfterScan(c, "approve", o.json, err, func(fp string) (err error) {
		aopts.Confirmed, aopts.Fingerprint = true, fp
		a, err = kit.Approve(ctx, args[0], aopts)
		return err
	})
	if stop != exitOK {
		return stop
	}
	if err != nil {
		return c.fail("approve", err)
	}
	if o.json {
		if writeJSON(c, a) != nil {
			return exitFailure
		}
		return exitOK
	}
	w := c.done()
	name := safeText(a.Name)
	if a.Unchanged {
		fmt.Fprintf(w, "%s is unchanged: its files are the approved ones (%s)\n", name, short(strings.TrimPrefix(a.Fingerprint, "sha256:")))
		return exitOK
	}
	for _, ch := range a.Changes {
		fmt.Fprintf(w, "  %s %s\n", ch.Change, safeText(ch.Path))
	}
	fmt.Fprintf(w, "approved %s: the scan rates it %s (%s source); fingerprint %s\n", name, a.Scan.Verdict, a.Trust, short(strings.TrimPrefix(a.Fingerprint, "sha256:")))
	return exitOK
}
