//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit"
)

// flagCommand builds pin, unpin, enable and disable: one NAME, one change
// of its record.
func flagCommand(name, summary, done string, change func(kit *skillkit.Kit, ctx context.Context, skill string) error) *command {
	return &command{
		name:    name,
		args:    "NAME",
		summary: summary,
		help: `
A skill placed in the skills folder by hand gets a record (source local).` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &installerFlags{}
			o.register(fs, false)
			return o
		},
		run: func(ctx context.Context, c *cli, opts any, args []string) int {
			o := opts.(*installerFlags)
			if len(args) != 1 {
				fmt.Fprintf(c.stderr, "skillkit %s: give one NAME\n", name)
				return exitUsage
			}
			kit, err := o.open(ctx, c, false, nil)
			if err != nil {
				return c.fail(name, err)
			}
			defer kit.Close()
			if err := change(kit, ctx, args[0]); err != nil {
				return c.fail(name, withSuggestions(ctx, kit, args[0], err))
			}
			if o.json {
				rec, err := kit.Registry().Get(ctx, args[0])
				if err != nil || writeJSON(c, rec) != nil {
					return exitFailure
				}
				return exitOK
			}
			fmt.Fprintf(c.done(), "%s %s\n", done, args[0])
			return exitOK
		},
	}
}

func pinCommand() *command {
	return flagCommand("pin", "keep a skill at its installed version: update skips it", "pinned", (*skillkit.Kit).Pin)
}

func unpinCommand() *command {
	return flagCommand("unpin", "let update change a pinned skill again", "unpinned", (*skillkit.Kit).Unpin)
}
