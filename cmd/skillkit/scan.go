//go:build !lean

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

type scanOptions struct {
	json bool
}

func scanCommand() *command {
	return &command{
		name:    "scan",
		args:    "[--json] PATH...",
		summary: "check skills for attacks without running them: injection, hidden text, exfiltration, malware",
		help: `
PATH is a skill folder or a folder holding skills at any depth. Every file of
each skill is read (within the scan's limits) and checked against the rules
of the scan package; each skill gets a verdict: safe, caution or dangerous.
Nothing is run and nothing is sent anywhere. Human output is the verdict of
each skill and its findings, with control and invisible characters shown
as escapes; --json prints {"skills": [{"name", "path", "verdict",
"findings": [{"rule", "severity", "file", "line", "match", ...}]}]}.
Exit status 1 when any skill is dangerous or a PATH cannot be read.`,
		flags: func(fs *flag.FlagSet) any {
			o := &scanOptions{}
			fs.BoolVar(&o.json, "json", false, `print {"skills": [...]} as JSON`)
			return o
		},
		run: runScan,
	}
}

func runScan(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*scanOptions)
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "skillkit scan: give at least one PATH")
		return exitUsage
	}
	reports := []scan.Report{}
	failed := false
	for _, root := range args {
		reps, err := scanPath(ctx, root)
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(c.stderr, "skillkit scan: %v\n", ctx.Err())
				return exitFailure
			}
			fmt.Fprintf(c.stderr, "skillkit scan: %s: %s\n", scan.Visible(root), scan.Visible(err.Error()))
			failed = true
		}
		reports = append(reports, reps...)
	}
	counts := map[scan.Verdict]int{}
	for _, r := range reports {
		counts[r.Verdict]++
	}
	if o.json {
		if writeJSON(c, struct {
			Skills []scan.Report `json:"skills"`
		}{reports}) != nil {
			return exitFailure
		}
	} else {
		for _, r := range reports {
			fmt.Fprintf(c.stdout, "%s %s (%s)\n", r.Verdict, scan.Visible(r.Name), scan.Visible(r.Path))
			for _, f := range r.Findings {
				fmt.Fprintf(c.stdout, "  %s\n", f)
			}
		}
		fmt.Fprintf(c.info(), "%s scanned: %d dangerous, %d caution, %d safe\n", plural(len(reports), "skill"),
			counts[scan.Dangerous], counts[scan.Caution], counts[scan.Safe])
	}
	if failed || counts[scan.Dangerous] > 0 {
		return exitFailure
	}
	return exitOK
}

// scanPath scans every skill under root: a skill folder, or a folder holding
// skills at any depth. Files are read through an os.Root, so no symbolic
// link leads the scan outside root.
func scanPath(ctx context.Context, root string) ([]scan.Report, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, errors.New("not a folder")
	}
	found, diags := loader.Discover(ctx, loader.Source{Name: root, Dir: root}, everything())
	if errs := diags.AtLeast(diagnostics.Error); len(found) == 0 {
		if len(errs) > 0 {
			return nil, errors.New(errs[0].Message)
		}
		return nil, fmt.Errorf("no skill found: no folder here holds a %s", skill.FileName)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []scan.Report
	for _, f := range found {
		rep, err := scan.Skill(ctx, r.FS(), f.Dir, nil)
		if err != nil {
			return out, err
		}
		rep.Path = root // as given, like validate's paths
		if f.Dir != "." {
			rep.Path = strings.TrimSuffix(root, string(filepath.Separator)) + string(filepath.Separator) + filepath.FromSlash(f.Dir)
		}
		out = append(out, rep)
	}
	return out, nil
}
