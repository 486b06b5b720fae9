package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit/diagnostics"
)

type validateOptions struct {
	strict bool
	json   bool
}

func validateCommand() *command {
	return &command{
		name:    "validate",
		args:    "[--strict] [--json] PATH...",
		summary: "check skills and print every diagnostic",
		help: `
PATH is a skill folder or a folder holding skills at any depth. Every skill
file found is checked, however many there are, skills nested in other
skills included; the summary counts the files checked and the skills that
load. Lenient mode (the default) reports
what a host would load; --strict applies the Agent Skills specification.
Human output is one line per diagnostic; --json prints a JSON array of
diagnostics whose paths start with PATH as given. Exit status 1 when any
diagnostic is an error.`,
		flags: func(fs *flag.FlagSet) any {
			o := &validateOptions{}
			fs.BoolVar(&o.strict, "strict", false, "apply the Agent Skills specification strictly")
			fs.BoolVar(&o.json, "json", false, "print diagnostics as a JSON array")
			return o
		},
		run: runValidate,
	}
}

func runValidate(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*validateOptions)
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "skillkit validate: give at least one PATH")
		return exitUsage
	}
	checked, diags := loadPaths(ctx, args, o.strict)
	if o.json {
		if err := writeJSON(c, diags); err != nil {
			return exitFailure
		}
	} else {
		for _, d := range diags {
			fmt.Fprintln(c.stdout, safeText(d.String()))
		}
		fmt.Fprintf(c.stderr, "%d skill files checked, %d loaded: %d errors, %d warnings\n", checked.files, len(checked.skills),
			len(diags.AtLeast(diagnostics.Error)), len(diags.AtLeast(diagnostics.Warning))-len(diags.AtLeast(diagnostics.Error)))
	}
	if diags.HasErrors() {
		return exitFailure
	}
	return exitOK
}

func writeJSON(c *cli, v any) error {
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(c.stderr, "skillkit: writing JSON: %v\n", err)
		return err
	}
	return nil
}
