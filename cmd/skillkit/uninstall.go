package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit/installer"
)

type uninstallOptions struct {
	installerFlags
	keep bool
}

func uninstallCommand() *command {
	return &command{
		name:    "uninstall",
		args:    "[--keep-secrets] NAME",
		summary: "remove an installed skill and its record",
		help: `
The skill's folder, its registry record and its saved secrets are removed.
With --keep-secrets the secrets stay, sealed for the install removed: a skill
installed later under the name does not receive them unless you adopt them
(skillkit secrets adopt NAME).` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &uninstallOptions{}
			o.register(fs, false)
			fs.BoolVar(&o.keep, "keep-secrets", false, "keep the skill's saved secrets")
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
		return c.fail("uninstall", err)
	}
	defer kit.Close()
	if err := kit.Uninstall(ctx, args[0], &installer.UninstallOptions{KeepSecrets: o.keep}); err != nil {
		return c.fail("uninstall", withSuggestions(ctx, kit, args[0], err))
	}
	if o.json {
		if writeJSON(c, map[string]any{"name": args[0], "uninstalled": true, "secrets_kept": o.keep}) != nil {
			return exitFailure
		}
		return exitOK
	}
	if o.keep {
		fmt.Fprintf(c.done(), "uninstalled %s, keeping its secrets\n", args[0])
	} else {
		fmt.Fprintf(c.done(), "uninstalled %s and deleted its secrets\n", args[0])
	}
	return exitOK
}
