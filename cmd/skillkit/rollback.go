//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
)

type rollbackOptions struct {
	installerFlags
	trustFlags
}

func rollbackCommand() *command {
	return &command{
		name:    "rollback",
		args:    "[--yes] [--allow-dangerous] [--json] NAME [VERSION]",
		summary: "restore an earlier version of a skill from its history",
		help: `
VERSION is a number skillkit history shows, or a fingerprint (at least 7 of
its hex digits); without it, the version before the one installed now (for an
uninstalled skill, the one removed). The kept files are installed again as
an install would: checked, scanned and weighed by the trust policy as they
would be today, so a version the scan now rates dangerous is refused like
any dangerous install. The files it replaces are kept as a version too, so a
rollback can itself be undone. Dependencies built for the replaced version
are rebuilt when the restored one needs others.` + trustHelp + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &rollbackOptions{}
			o.installerFlags.register(fs, false)
			o.trustFlags.register(fs)
			return o
		},
		run: runRollback,
	}
}

func runRollback(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*rollbackOptions)
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprintln(c.stderr, "skillkit rollback: give the NAME of one skill, and optionally the VERSION to restore")
		return exitUsage
	}
	name, version := args[0], ""
	if len(args) == 2 {
		version = args[1]
	}
	p := newProgress(c)
	kit, err := o.open(ctx, c, false, func(k *skillkit.Options) {
		k.Installer.Progress = p.event
		k.AllowDangerous = o.allowDangerous
	})
	if err != nil {
		return c.fail("rollback", err)
	}
	defer kit.Close()
	ropts := &installer.RollbackOptions{Confirmed: o.yes}
	res, err := kit.Rollback(ctx, name, version, ropts)
	stop, err := againAfterScan(c, "rollback", o.json, err, func(fp string) (err error) {
		ropts.Confirmed, ropts.Fingerprint = true, fp
		res, err = kit.Rollback(ctx, name, version, ropts)
		return err
	})
	if stop != exitOK {
		return stop
	}
	if err != nil {
		return c.fail("rollback", err)
	}
	if o.json {
		if writeJSON(c, res) != nil {
			return exitFailure
		}
		return exitOK
	}
	printResult(c, "rolled back", res)
	printNext(ctx, c, kit, res.Name)
	return exitOK
}
