//go:build !lean

package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
)

type updateOptions struct {
	installerFlags
	trustFlags
	all   bool
	force bool
}

func updateCommand() *command {
	return &command{
		name:    "update",
		args:    "[--force] [--yes] [--allow-dangerous] [--json] NAME | --all",
		summary: "fetch skills again from where they were installed",
		help: `
A git skill is fetched again when its remote has a newer commit; a folder or ZIP
file when its contents changed. Pinned skills are skipped; a skill whose files
were edited since install is refused unless --force, which discards the edits.` + trustHelp + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &updateOptions{}
			o.installerFlags.register(fs, true)
			o.trustFlags.register(fs)
			fs.BoolVar(&o.all, "all", false, "update every skill that is not pinned")
			fs.BoolVar(&o.force, "force", false, "discard local edits")
			return o
		},
		run: runUpdate,
	}
}

func runUpdate(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*updateOptions)
	if o.all != (len(args) == 0) || len(args) > 1 {
		fmt.Fprintln(c.stderr, "skillkit update: give one NAME, or --all")
		return exitUsage
	}
	p := newProgress(c)
	kit, err := o.open(ctx, c, false, func(k *skillkit.Options) {
		k.Installer.Progress = p.event
		k.AllowDangerous = o.allowDangerous
	})
	if err != nil {
		return c.fail("update", err)
	}
	defer kit.Close()
	uo := &installer.UpdateOptions{Force: o.force, Confirmed: o.yes}
	var results []installer.UpdateResult
	if o.all {
		if results, err = kit.UpdateAll(ctx, uo); err != nil {
			return c.fail("update", err)
		}
	} else {
		res, err := kit.Update(ctx, args[0], uo)
		results = []installer.UpdateResult{{Name: args[0], Result: res, Err: withSuggestions(ctx, kit, args[0], err)}}
	}
	code := exitOK
	type jsonResult struct {
		installer.UpdateResult
		Error   string               `json:"error,omitempty"`
		Refusal *installer.ScanError `json:"refusal,omitempty"`
	}
	var out []jsonResult
	answers := bufio.NewReader(c.stdin)
	for _, r := range results {
		jr := jsonResult{UpdateResult: r}
		se := scanError(r.Err)
		if se != nil && !o.json {
			if answer := confirmScan(c, "update", se, answers); answer != exitOK {
				code = worse(code, answer)
				continue
			}
			r.Result, r.Err = kit.Update(ctx, r.Name, &installer.UpdateOptions{Force: o.force, Confirmed: true, Fingerprint: se.Record.Fingerprint})
			changedSinceShown(c, "update", r.Err)
		}
		jr.Refusal = se
		switch {
		case se != nil && o.json:
			// --json: the refusal is in the output, not asked.
			code = worse(code, scanCode(se))
			jr.Error = cliWords(r.Err.Error())
		case r.Err != nil:
			code = worse(code, c.fail("update", r.Err))
			jr.Error = cliWords(r.Err.Error())
		case r.Skipped != "" && !o.json:
			fmt.Fprintf(c.done(), "%s: skipped (%s)\n", r.Name, r.Skipped)
		case r.Result != nil && !o.json:
			printResult(c, "updated", r.Result)
			if !r.Result.UpToDate {
				printNext(ctx, c, kit, r.Name)
			}
		}
		out = append(out, jr)
	}
	if o.json && writeJSON(c, out) != nil {
		return exitFailure
	}
	return code
}
