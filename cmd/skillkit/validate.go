package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit/diagnostics"
)

type validateOptions struct {
	strict bool
	json   bool
	level  string
}

func validateCommand() *command {
	return &command{
		name:    "validate",
		args:    "[--strict] [--level error|warning|info] [--json] PATH...",
		summary: "check skills and print every diagnostic",
		help: `
PATH is a skill folder or a folder holding skills at any depth. Every skill
file found is checked, however many there are, skills nested in other
skills included; the summary counts the files checked and the skills that
load. Lenient mode (the default) reports
what a host would load; --strict applies the Agent Skills specification.
Diagnostics at --level or above are shown (default warning: the info ones,
such as fields skillkit does not know, are counted in the summary and
shown with --level info). Human output is one line per diagnostic; --json
prints a JSON array of the diagnostics shown, whose paths start with PATH
as given. Exit status 1 when any diagnostic is an error, whatever --level
shows.`,
		flags: func(fs *flag.FlagSet) any {
			o := &validateOptions{}
			fs.BoolVar(&o.strict, "strict", false, "apply the Agent Skills specification strictly")
			fs.BoolVar(&o.json, "json", false, "print diagnostics as a JSON array")
			fs.StringVar(&o.level, "level", "warning", "show diagnostics at this `LEVEL` or above: error, warning or info")
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
	min, err := diagnostics.ParseLevel(o.level)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit validate: --level: %v\n", err)
		return exitUsage
	}
	checked, diags := loadPaths(ctx, args, o.strict)
	shown := nonNil(diags.AtLeast(min))
	if o.json {
		if err := writeJSON(c, shown); err != nil {
			return exitFailure
		}
	} else {
		for _, d := range shown {
			fmt.Fprintln(c.stdout, safeText(d.String()))
		}
		fmt.Fprintf(c.info(), "%s checked, %d loaded: %s\n", plural(checked.files, "skill file"), len(checked.skills), levelCounts(diags, min))
	}
	if diags.HasErrors() {
		return exitFailure
	}
	return exitOK
}

// levelCounts says how many diagnostics there are at each level, and how
// many of them --level left out: "0 errors, 159 warnings, 842 info (not
// shown; --level info shows them)".
func levelCounts(diags diagnostics.List, shown diagnostics.Level) string {
	errs, warns := len(diags.AtLeast(diagnostics.Error)), len(diags.AtLeast(diagnostics.Warning))
	s := fmt.Sprintf("%s, %s, %d info", plural(errs, "error"), plural(warns-errs, "warning"), len(diags)-warns)
	if hidden := len(diags) - len(diags.AtLeast(shown)); hidden > 0 {
		s += fmt.Sprintf(" (%d not shown; --level info shows them)", hidden)
	}
	return s
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

// jsonObject writes a JSON object as writeJSON would, one member at a
// time and a list one element at a time, so that a listing of thousands
// of skills is never held whole as JSON (encoding/json builds its whole
// output, then an indented copy of it). The one difference: a list whose
// type marshals itself (diagnostics.List, which escapes <, > and &) is
// written element by element, so its text is left unescaped like the
// rest. Errors stick: after the first, nothing more is written, and close
// reports it.
type jsonObject struct {
	c       *cli
	w       *bufio.Writer
	buf     bytes.Buffer
	enc     *json.Encoder
	members int
	err     error
}

func newJSONObject(c *cli) *jsonObject {
	o := &jsonObject{c: c, w: bufio.NewWriter(c.stdout)}
	o.enc = json.NewEncoder(&o.buf)
	o.enc.SetEscapeHTML(false)
	o.w.WriteString("{")
	return o
}

// encode writes v indented as the value of a member (prefix "  ") or of
// an element of a member's list (prefix "    ").
func (o *jsonObject) encode(v any, prefix string) {
	if o.err != nil {
		return
	}
	o.buf.Reset()
	o.enc.SetIndent(prefix, "  ")
	if o.err = o.enc.Encode(v); o.err == nil {
		o.w.Write(bytes.TrimSuffix(o.buf.Bytes(), []byte("\n")))
	}
}

func (o *jsonObject) key(k string) {
	if o.members > 0 {
		o.w.WriteString(",")
	}
	o.members++
	o.w.WriteString("\n  ")
	o.encode(k, "")
	o.w.WriteString(": ")
}

// member writes one member.
func (o *jsonObject) member(k string, v any) {
	o.key(k)
	o.encode(v, "  ")
}

// close ends the object and reports the first error, as writeJSON does.
func (o *jsonObject) close() error {
	if o.members > 0 {
		o.w.WriteString("\n")
	}
	o.w.WriteString("}\n")
	if o.err == nil {
		o.err = o.w.Flush()
	}
	if o.err != nil {
		fmt.Fprintf(o.c.stderr, "skillkit: writing JSON: %v\n", o.err)
	}
	return o.err
}

// jsonList writes the member k, a list: each item as show gives it, or
// as it is when show is nil. A nil list is written as an empty one.
func jsonList[T any](o *jsonObject, k string, items []T, show func(T) any) {
	o.key(k)
	if len(items) == 0 {
		o.w.WriteString("[]")
		return
	}
	o.w.WriteString("[")
	for i, it := range items {
		if i > 0 {
			o.w.WriteString(",")
		}
		o.w.WriteString("\n    ")
		if show != nil {
			o.encode(show(it), "    ")
		} else {
			o.encode(it, "    ")
		}
	}
	o.w.WriteString("\n  ]")
}
