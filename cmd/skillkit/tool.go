//go:build !lean

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"

	"github.com/skillkit-go/skillkit/tools"
)

type toolOptions struct {
	loaderFlags
	tools  []string
	skills []string
	json   bool
}

func toolCommand() *command {
	return &command{
		name:    "tool",
		args:    "NAME JSON [--tools T] [--skills S] [--json] [DIR...]",
		summary: "call one of the model's skill tools with JSON arguments, as a model would",
		help: `
Builds the tools an agent gets (the agent's host TOOLS and assigned SKILLS as
with skillkit prompt), then calls the tool NAME (read_skill, read_skill_file,
execute_skill, skill_manage, or any other the agent gets) with the JSON
arguments, and prints its answer to the model. A call that needs the user's
confirmation is confirmed by running this command. --json prints the whole
result ({"text","structured","is_error"}). Exit status 1 when the tool answers
the model with an error, 2 when NAME is not among the agent's tools or JSON is
not a JSON object.
` + loaderHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &toolOptions{}
			o.register(fs)
			fs.Func("tools", "the agent's `TOOLS` (comma-separated)", func(v string) error {
				o.tools = append([]string{}, splitComma(v)...)
				return nil
			})
			fs.Func("skills", "the `SKILLS` assigned to the agent (comma-separated; default all)", func(v string) error {
				o.skills = append([]string{}, splitComma(v)...)
				return nil
			})
			fs.BoolVar(&o.json, "json", false, "print the tool's result as JSON")
			return o
		},
		run: runTool,
	}
}

func runTool(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*toolOptions)
	if len(args) < 2 {
		fmt.Fprintln(c.stderr, "skillkit tool: give the tool's NAME and its JSON arguments")
		return exitUsage
	}
	name, raw, dirs := args[0], json.RawMessage(args[1]), args[2:]
	var object map[string]any
	if err := json.Unmarshal(raw, &object); err != nil || object == nil {
		fmt.Fprintln(c.stderr, safeText(fmt.Sprintf("skillkit tool: the arguments are not a JSON object: %s", args[1])))
		return exitUsage
	}
	kit, err := openKit(ctx, c, dirs, &o.loaderFlags)
	if err != nil {
		return c.fail("tool", err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(ctx, tools.Agent{Skills: o.skills, Tools: o.tools})
	if err != nil {
		return c.fail("tool", err)
	}
	i := slices.IndexFunc(ts.Tools, func(t tools.Tool) bool { return t.Name == name })
	if i < 0 {
		var names []string
		for _, t := range ts.Tools {
			names = append(names, t.Name)
		}
		fmt.Fprintln(c.stderr, safeText(fmt.Sprintf("skillkit tool: the agent has no tool %s%s (it has: %v)", name, didYouMean(suggest(name, names)), names)))
		return exitUsage
	}
	res, err := ts.Tools[i].Invoke(ctx, raw)
	if err != nil {
		return c.fail("tool", err)
	}
	return printToolResult(c, res, o.json)
}
