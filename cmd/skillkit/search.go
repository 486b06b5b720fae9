//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/search"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

type searchOptions struct {
	loaderFlags
	json  bool
	limit int
	tools []string // nil without --tools
}

func searchCommand() *command {
	return &command{
		name:    "search",
		args:    "QUERY [--json] [--limit N] [--tools a,b] [--dir DIR...]",
		summary: "find skills by what a task needs, as search_skills ranks them",
		help: `
QUERY says what the task needs, in words a user would write ("fill in a PDF
form", "把图片里的文字识别出来"); several arguments are joined. Skills are
ranked as the search_skills tool ranks them (BM25 over name, description,
tags, metadata and the start of the body; docs/tools.md), best first, at
most --limit (default 5). Without --tools every loaded skill may be found;
with --tools (an agent's tool names, comma-separated) only those an agent
with these tools sees, as its search_skills finds them. --json prints
{"query","skills":[{"name","description","class","source","score"}]}.
` + loaderHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &searchOptions{}
			o.register(fs)
			fs.BoolVar(&o.json, "json", false, "print JSON")
			fs.IntVar(&o.limit, "limit", tools.DefaultSearchLimit, "show at most `N` skills")
			fs.Func("tools", "search what an agent with these `TOOLS` sees (comma-separated)", func(v string) error {
				o.tools = append([]string{}, splitComma(v)...)
				return nil
			})
			return o
		},
		run: runSearch,
	}
}

// foundSkill is one skill search prints.
type foundSkill struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Class       skill.Class `json:"class"`
	Source      string      `json:"source"`
	Score       float64     `json:"score"`
}

func runSearch(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*searchOptions)
	query := strings.TrimSpace(strings.Join(args, " "))
	if query == "" || o.limit <= 0 {
		fmt.Fprintln(c.stderr, "skillkit search: give a QUERY, and a --limit above 0")
		return exitUsage
	}
	kit, err := openKit(ctx, c, nil, &o.loaderFlags)
	if err != nil {
		return c.fail("search", err)
	}
	defer kit.Close()
	l, err := kit.Loader(ctx)
	if err != nil {
		return c.fail("search", err)
	}
	snap := l.Snapshot()
	skills := snap.Skills()
	if o.tools != nil {
		v, err := snap.Filter(ctx, loader.Env{Tools: o.tools})
		if err != nil {
			return c.fail("search", err)
		}
		skills = v.Catalog
	}
	byName := make(map[string]*skill.Skill, len(skills))
	for _, s := range skills {
		byName[s.Name] = s
	}
	ix := search.New(nil)
	if _, err := ix.Sync(skills); err != nil {
		return c.fail("search", err)
	}
	found := []foundSkill{}
	for _, h := range ix.Search(query, o.limit, nil) {
		s := byName[h.Name]
		found = append(found, foundSkill{s.Name, s.Description, s.Class, s.Source, h.Score})
	}
	if o.json {
		if writeJSON(c, struct {
			Query  string       `json:"query"`
			Skills []foundSkill `json:"skills"`
		}{query, found}) != nil {
			return exitFailure
		}
		return exitOK
	}
	if len(found) == 0 {
		fmt.Fprintf(c.info(), "no skill of %s matches %q\n", plural(len(skills), "skill"), query)
		return exitOK
	}
	rows := [][]string{{"NAME", "SCORE", "CLASS", "DESCRIPTION"}}
	for _, f := range found {
		rows = append(rows, []string{safeText(f.Name), strconv.FormatFloat(f.Score, 'f', 2, 64), string(f.Class), safeText(oneLine(f.Description))})
	}
	if err := writeTable(c.stdout, c.width(), rows); err != nil {
		return c.fail("search", err)
	}
	return exitOK
}
