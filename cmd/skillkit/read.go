package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit/tools"
)

type readOptions struct {
	loaderFlags
	task string
	file string
	json bool
}

func readCommand() *command {
	return &command{
		name:    "read",
		args:    "NAME [--task T] [--file PATH] [--json] [DIR...]",
		summary: "print what read_skill (or read_skill_file) returns to the model",
		help: `
Without --file: the skill's instructions as read_skill returns them, with the
references it requires; --task is the task the model states, which includes the
references of matching routes. With --file: the file as read_skill_file returns
it (paths relative to the skill folder), with control characters escaped.
--json prints the tool's whole result exactly ({"text","structured",
"is_error"}). Exit status 1 when the tool would
answer the model with an error.
` + loaderHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &readOptions{}
			o.register(fs)
			fs.StringVar(&o.task, "task", "", "the task the model states (read_skill's task argument)")
			fs.StringVar(&o.file, "file", "", "a file of the skill to read, as read_skill_file")
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
		fmt.Fprintf(c.stderr, "skillkit read: %v\n", err)
		return exitFailure
	}
	defer kit.Close()
	l, err := kit.Loader(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit read: %v\n", err)
		return exitFailure
	}
	var names []string
	for _, s := range l.Snapshot().Skills() {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		fmt.Fprintln(c.stderr, "skillkit read: no skills found")
		return exitFailure
	}
	tool, err := tools.ReadSkill(l, names, nil)
	argv := map[string]string{"name": name}
	if o.task != "" {
		argv["task"] = o.task
	}
	if o.file != "" {
		tool, err = tools.ReadSkillFile(l, names, nil)
		argv = map[string]string{"name": name, "path": o.file}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit read: %v\n", err)
		return exitFailure
	}
	raw, _ := json.Marshal(argv)
	res, err := tool.Invoke(ctx, raw)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit read: %v\n", err)
		return exitFailure
	}
	switch {
	case o.json:
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
