//go:build !lean

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/installer"
)

func historyCommand() *command {
	return &command{
		name:    "history",
		args:    "[--json] NAME",
		summary: "list the versions of a skill that can be restored",
		help: `
Every change of a skill's files keeps a version: an install over it, an
update, a sync from the shared database, an agent's write, a person's
approve of edited files, an uninstall, a rollback; and files found edited in
its folder when another change replaced them (op "found"). Each line is one
version: its number, when, what made it, who asked (person, agent, sync, or a
name the host gave), its origin and commit, and its fingerprint; * marks the
version installed now. skillkit rollback NAME [VERSION] restores one. The
skills folder keeps, per skill, the last 10 versions and any younger than 30
days, within 64 MiB (docs/decisions.md). --json prints the versions with
stable keys.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &installerFlags{}
			o.register(fs, false)
			return o
		},
		run: runHistory,
	}
}

func runHistory(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*installerFlags)
	if len(args) != 1 {
		fmt.Fprintln(c.stderr, "skillkit history: give the NAME of one skill")
		return exitUsage
	}
	kit, err := o.open(ctx, c, false, nil)
	if err != nil {
		return c.fail("history", err)
	}
	defer kit.Close()
	vs, err := kit.History(ctx, args[0])
	if err == nil && len(vs) == 0 {
		// A skill installed before its folder kept history has none; a
		// name nothing holds is a mistake.
		if _, ok, serr := kit.Skill(ctx, args[0]); serr != nil || !ok {
			err = errors.Join(serr, fmt.Errorf("%w: %s, which has no history", installer.ErrNotInstalled, args[0]))
		}
	}
	if err != nil {
		return c.fail("history", withSuggestions(ctx, kit, args[0], err))
	}
	if o.json {
		if vs == nil {
			vs = []installer.Version{}
		}
		if writeJSON(c, vs) != nil {
			return exitFailure
		}
		return exitOK
	}
	name := safeText(args[0])
	if len(vs) == 0 {
		fmt.Fprintf(c.info(), "%s has no history\n", name)
		return exitOK
	}
	rows := [][]string{{"", "VERSION", "TIME", "OP", "ACTOR", "ORIGIN", "FINGERPRINT"}}
	for i := len(vs) - 1; i >= 0; i-- {
		v := vs[i]
		mark := ""
		if v.Current {
			mark = "*"
		}
		rows = append(rows, []string{mark, strconv.Itoa(v.Seq), v.Time.Local().Format(time.DateTime), v.Op, safeText(v.Actor), safeText(originText(v.Origin())),
			short(strings.TrimPrefix(v.Fingerprint, "sha256:"))})
	}
	if err := writeTable(c.stdout, c.width(), rows); err != nil {
		return c.fail("history", err)
	}
	fmt.Fprintf(c.info(), "%s of %s kept\n", plural(len(vs), "version"), name)
	return exitOK
}
