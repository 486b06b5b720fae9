package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
)

type updateOptions struct {
	installerFlags
	all   bool
	force bool
}

func updateCommand() *command {
	return &command{
		name:    "update",
		args:    "[--force] [--json] NAME | --all",
		summary: "fetch skills again from where they were installed",
		help: `
A git skill is fetched again when its remote has a newer commit; a folder or ZIP
file when its contents changed. Pinned skills are skipped; a skill whose files
were edited since install is refused unless --force, which discards the edits.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &updateOptions{}
			o.register(fs, true)
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
	p := newProgress(c.stderr)
	kit, err := o.open(ctx, c, false, func(k *skillkit.Options) { k.Installer.Progress = p.event })
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit update: %v\n", err)
		return exitFailure
	}
	defer kit.Close()
	uo := &installer.UpdateOptions{Force: o.force}
	var results []installer.UpdateResult
	if o.all {
		if results, err = kit.UpdateAll(ctx, uo); err != nil {
			fmt.Fprintf(c.stderr, "skillkit update: %v\n", err)
			return exitFailure
		}
	} else {
		res, err := kit.Update(ctx, args[0], uo)
		results = []installer.UpdateResult{{Name: args[0], Result: res, Err: err}}
	}
	code := exitOK
	type jsonResult struct {
		installer.UpdateResult
		Error string `json:"error,omitempty"`
	}
	var out []jsonResult
	for _, r := range results {
		jr := jsonResult{UpdateResult: r}
		switch {
		case r.Err != nil:
			code = exitFailure
			jr.Error = r.Err.Error()
			fmt.Fprintf(c.stderr, "skillkit update: %v\n", r.Err)
		case r.Skipped != "" && !o.json:
			fmt.Fprintf(c.stdout, "%s: skipped (%s)\n", r.Name, r.Skipped)
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
