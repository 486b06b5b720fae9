//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/tools"
)

type promptOptions struct {
	loaderFlags
	format   string
	lang     string
	tools    []string
	skills   []string
	maxChars int
	json     bool
}

func promptCommand() *command {
	return &command{
		name:    "prompt",
		args:    "[--format skillkit|agentskills] [--lang en|zh] [--tools a,b] [--skills a,b] [--max-chars N] [--json] [DIR...]",
		summary: "print the <available_skills> catalog an agent would get",
		help: `
The catalog is what Resolve puts in an agent's system prompt: the skills the
agent sees (--skills assigns skills, default all; --tools names its tools, for
the skills' conditions), in skillkit's format (each skill's type, how to use
it and a compute skill's input) or the Agent Skills one, within
--max-chars characters. Over budget the catalog shortens descriptions, then
lists names only, then leaves skills out, and says so on stderr. Stderr also
names the skills hidden from this agent and why, and counts the skill
folders not loaded by reason. The catalog is shown with control characters
escaped; --json keeps it exact and prints {"prompt","listed","omitted",
"compaction","shortened","hidden","not_loaded","warnings","diagnostics"};
warnings are for whoever configures the agent.
` + loaderHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &promptOptions{}
			o.register(fs)
			fs.StringVar(&o.format, "format", string(prompt.FormatSkillkit), "the catalog's `FORMAT`: skillkit or agentskills")
			fs.StringVar(&o.lang, "lang", string(prompt.English), "the language, `LANG`, of the guidance: en or zh")
			fs.Func("tools", "the agent's `TOOLS` (comma-separated)", func(v string) error {
				o.tools = append([]string{}, splitComma(v)...)
				return nil
			})
			fs.Func("skills", "the `SKILLS` assigned to the agent (comma-separated; default all)", func(v string) error {
				o.skills = append([]string{}, splitComma(v)...)
				return nil
			})
			fs.IntVar(&o.maxChars, "max-chars", prompt.DefaultMaxChars, "at most `N` characters in the catalog")
			fs.BoolVar(&o.json, "json", false, "print JSON")
			return o
		},
		run: runPrompt,
	}
}

func runPrompt(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*promptOptions)
	format := prompt.Format(o.format)
	if format != prompt.FormatSkillkit && format != prompt.FormatAgentSkills {
		fmt.Fprintf(c.stderr, "skillkit prompt: --format must be skillkit or agentskills, not %q\n", o.format)
		return exitUsage
	}
	lang := prompt.Language(o.lang)
	if lang != prompt.English && lang != prompt.Chinese {
		fmt.Fprintf(c.stderr, "skillkit prompt: --lang must be en or zh, not %q\n", o.lang)
		return exitUsage
	}
	if o.maxChars <= 0 {
		fmt.Fprintln(c.stderr, "skillkit prompt: --max-chars must be positive")
		return exitUsage
	}
	kit, err := openKit(ctx, c, args, &o.loaderFlags)
	if err != nil {
		return c.fail("prompt", err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(ctx, tools.Agent{
		Skills:  o.skills,
		Tools:   o.tools,
		Catalog: &prompt.Options{Format: format, Language: lang, MaxChars: o.maxChars},
	})
	if err != nil {
		return c.fail("prompt", err)
	}
	l, err := kit.Loader(ctx)
	if err != nil {
		return c.fail("prompt", err)
	}
	snap := l.Snapshot()
	cat := ts.Catalog
	hidden := nonNil(ts.Visibility.Hidden)
	if o.json {
		out := newJSONObject(c)
		out.member("prompt", ts.Prompt)
		jsonList(out, "listed", cat.Listed, nil)
		jsonList(out, "omitted", cat.Omitted, nil)
		out.member("compaction", cat.Compaction)
		jsonList(out, "shortened", cat.Shortened, nil)
		jsonList(out, "hidden", hidden, nil)
		jsonList(out, "not_loaded", snap.NotLoaded(), nil)
		jsonList(out, "warnings", ts.Warnings, nil)
		jsonList(out, "diagnostics", ts.Diagnostics, nil)
		if out.close() != nil {
			return exitFailure
		}
		return exitOK
	}
	if ts.Prompt != "" {
		fmt.Fprintln(c.stdout, safeText(ts.Prompt))
	}
	// The warnings include the catalog's diagnostics, in words.
	for _, w := range ts.Warnings {
		fmt.Fprintf(c.info(), "warning: %s\n", safeText(w))
	}
	summary := fmt.Sprintf("%s listed, %d left out", plural(len(cat.Listed), "skill"), len(cat.Omitted))
	switch cat.Compaction {
	case prompt.CompactionShortened:
		summary += fmt.Sprintf("; %s shortened to at most %s", plural(len(cat.Shortened), "description"), plural(cat.DescriptionChars, "character"))
	case prompt.CompactionNamesOnly:
		summary += "; names only, descriptions left out"
	}
	fmt.Fprintln(c.info(), summary)
	for _, line := range []string{hiddenLine(hidden), notLoadedLine(snap)} {
		if line != "" {
			fmt.Fprintln(c.info(), safeText(line))
		}
	}
	return exitOK
}
