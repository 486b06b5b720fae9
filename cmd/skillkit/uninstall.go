//go:build !lean

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

type uninstallOptions struct {
	installerFlags
	keep  bool
	force bool
}

func uninstallCommand() *command {
	return &command{
		name:    "uninstall",
		args:    "[--keep-secrets] [--force] NAME",
		summary: "remove an installed skill and its record",
		help: `
The skill's folder, its registry record and its saved secrets are removed.
With --keep-secrets the secrets stay, sealed for the install removed: a skill
installed later under the name does not receive them unless you adopt them
(skillkit secrets adopt NAME).

A folder skillkit has no record of installing (placed by hand, or by another
tool) is refused: there is no copy to get it back from. --force deletes it,
and says so.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &uninstallOptions{}
			o.register(fs, false)
			fs.BoolVar(&o.keep, "keep-secrets", false, "keep the skill's saved secrets")
			fs.BoolVar(&o.force, "force", false, "also delete a skill folder skillkit has no record of installing")
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
	if o.force {
		rec, err := kit.Registry().Get(ctx, args[0])
		if err != nil && !errors.Is(err, registry.ErrNotFound) {
			return c.fail("uninstall", err)
		}
		if !installer.Recorded(&rec) && skill.ValidateKey(args[0]) == nil {
			if _, err := os.Stat(filepath.Join(kit.Dir(), args[0])); err == nil {
				fmt.Fprintf(c.stderr, "skillkit uninstall: deleting %s for good: skillkit has no record of installing it\n", safeText(filepath.Join(kit.Dir(), args[0])))
			}
		}
	}
	if err := kit.Uninstall(ctx, args[0], &installer.UninstallOptions{KeepSecrets: o.keep, Force: o.force}); err != nil {
		if errors.Is(err, installer.ErrNotRecorded) {
			c.fail("uninstall", err)
			fmt.Fprintf(c.stderr, "  to delete it anyway: skillkit uninstall --force %s\n", safeText(args[0]))
			return exitFailure
		}
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
