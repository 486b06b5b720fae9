//go:build !lean

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"

	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/tools"
)

type readOptions struct {
	loaderFlags
	args string
	task string
	file string
	json bool
}

func readCommand() *command {
	return &command{
		name:    "read",
		args:    "NAME [--task T] [--args A] [--file PATH] [--json] [DIR...]",
		summary: "print what read_skill (or read_skill_file) returns to the model",
		help: `
Without --file: the skill's instructions as read_skill returns them, with the
references it requires; --task is the task the model states, which includes the
references of matching routes; --args is what a person types after the skill's
name to invoke it ($ARGUMENTS, $ARGUMENTS[N] and $N in the body become the
text and its words; a body without them gets "ARGUMENTS: A" at its end). With --file: the file as read_skill_file returns
it (paths relative to the skill folder), with control characters escaped.
--json prints the tool's whole result exactly ({"text","structured",
"is_error"}). A NAME no skill has is named with the closest names; with
--json, the tool's answer (which lists every skill) is printed. Exit
status 1 when the tool would answer the model with an error.
` + loaderHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &readOptions{}
			o.register(fs)
			fs.StringVar(&o.task, "task", "", "the `TASK` the model states (read_skill's task argument)")
			fs.StringVar(&o.args, "args", "", "the `ARGUMENTS` a person invokes the skill with")
			fs.StringVar(&o.file, "file", "", "a file of the skill to read, as read_skill_file, at `PATH` in the skill folder")
			fs.BoolVar(&o.json, "json", false, "print the tool's result as JSON")
			return o
		},
		run: runRead,
	}
}

func runRead(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*readOptions)
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "skillkit read: give the NAME of a skill")
		return exitUsage
	}
	name, dirs := args[0], args[1:]
	kit, err := openKit(ctx, c, dirs, &o.loaderFlags)
	if err != nil {
		return c.fail("read", err)
	}
	defer kit.Close()
	l, err := kit.Loader(ctx)
	if err != nil {
		return c.fail("read", err)
	}
	var names []string
	for _, s := range l.Snapshot().Skills() {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		fmt.Fprintln(c.stderr, "skillkit read: no skills found")
		return exitFailure
	}
	if !o.json && !slices.Contains(names, name) {
		// The tool answers the model with every name; a person gets the
		// closest few.
		fmt.Fprintln(c.stderr, safeText(fmt.Sprintf("skillkit read: no skill named %s%s; skillkit list shows them all", name, didYouMean(suggest(name, names)))))
		return exitFailure
	}
	tool, err := tools.ReadSkill(l, names, &tools.ReadOptions{Activate: prompt.ActivateOptions{Arguments: o.args}})
	argv := map[string]string{"name": name}
	if o.task != "" {
		argv["task"] = o.task
	}
	if o.file != "" {
		tool, err = tools.ReadSkillFile(l, names, nil)
		argv = map[string]string{"name": name, "path": o.file}
	}
	if err != nil {
		return c.fail("read", err)
	}
	raw, _ := json.Marshal(argv)
	res, err := tool.Invoke(ctx, raw)
	if err != nil {
		return c.fail("read", err)
	}
	return printToolResult(c, res, o.json)
}

// printToolResult prints what a tool answers the model: its whole result
// as JSON, or its text (on standard error when it is an error). The exit
// status is 1 for an error answer.
func printToolResult(c *cli, res tools.Result, asJSON bool) int {
	switch {
	case asJSON:
		if writeJSON(c, res) != nil {
			return exitFailure
		}
	case res.IsError:
		fmt.Fprintln(c.stderr, safeText(res.Text))
	default:
		fmt.Fprintln(c.stdout, safeText(res.Text))
	}
	if res.IsError {
		return exitFailure
	}
	return exitOK
}
