package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit/installer"
)

type uninstallOptions struct {
	installerFlags
	purge bool
}

func uninstallCommand() *command {
	return &command{
		name:    "uninstall",
		args:    "[--purge] NAME",
		summary: "remove an installed skill and its record",
		help: `
The skill's folder and its registry record are removed; its saved secrets stay
(a reinstall finds them again) unless --purge.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &uninstallOptions{}
			o.register(fs, false)
			fs.BoolVar(&o.purge, "purge", false, "also delete the skill's saved secrets")
			return o
		},
		run: runUninstall,
	}
}

func runUninstall(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*uninstallOptions)
	if len(args) != 1 {
		fmt.Fprintln(c.stderr, "skillkit uninstall: give one NAME")
		return exitUsage
	}
	kit, err := o.open(ctx, c, false, nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit uninstall: %v\n", err)
		return exitFailure
	}
	defer kit.Close()
	if err := kit.Uninstall(ctx, args[0], &installer.UninstallOptions{Purge: o.purge}); err != nil {
		fmt.Fprintf(c.stderr, "skillkit uninstall: %v\n", err)
		return exitFailure
	}
	if o.json {
		if writeJSON(c, map[string]any{"name": args[0], "uninstalled": true, "purged": o.purge}) != nil {
			return exitFailure
		}
		return exitOK
	}
	fmt.Fprintf(c.stdout, "uninstalled %s", args[0])
	if o.purge {
		fmt.Fprint(c.stdout, " and deleted its secrets")
	}
	fmt.Fprintln(c.stdout)
	return exitOK
}
