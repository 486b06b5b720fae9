//go:build !lean

package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit"
	skillusage "github.com/skillkit-go/skillkit/usage"
)

type usageOptions struct {
	dir  string
	json bool
}

func usageCommand() *command {
	return &command{
		name:    "usage",
		args:    "[--json] [--dir DIR]",
		summary: "show how often agents used each skill, and which skills were never used",
		help: `
Every call of read_skill, read_skill_file and execute_skill by an agent, and
every "skillkit run", counts one use of its skill (never the task or the
input). usage lists the installed skills by uses, most first, with their
failures and last use, the skills used before that are no longer installed,
and the installed skills never used: a curator's view of what to keep. The
uses are in the skills folder's .skillhub/usage.json, or with --db in the
database the fleet shares. --json prints {"skills":[{"skill","uses",
"failures","last","by_tool","agents","installed"}],"never_used":[...]}.
The skills folder is --dir, else $SKILLKIT_DIR, else ./skills.`,
		flags: func(fs *flag.FlagSet) any {
			o := &usageOptions{}
			fs.StringVar(&o.dir, "dir", "", "the skills folder `DIR` (default $SKILLKIT_DIR, else ./skills)")
			fs.BoolVar(&o.json, "json", false, "print JSON")
			return o
		},
		run: runUsage,
	}
}

// usedSkill is one skill's line of usage.
type usedSkill struct {
	skillusage.Summary
	Installed bool `json:"installed"`
}

func runUsage(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*usageOptions)
	if len(args) > 0 {
		fmt.Fprintln(c.stderr, "skillkit usage: takes no arguments")
		return exitUsage
	}
	kit, err := c.open(ctx, skillkit.Options{Dir: resolveDir(c, o.dir), Getenv: c.getenv, Logger: c.logger, RecordUsage: true})
	if err != nil {
		return c.fail("usage", err)
	}
	defer kit.Close()
	l, err := kit.Loader(ctx)
	if err != nil {
		return c.fail("usage", err)
	}
	stats, err := kit.Usage().Stats(ctx)
	if err != nil {
		return c.fail("usage", err)
	}
	snap := l.Snapshot()
	used := []usedSkill{}
	seen := map[string]bool{}
	for _, s := range skillusage.Summarize(stats) {
		_, installed := snap.Get(s.Skill)
		used = append(used, usedSkill{s, installed})
		seen[s.Skill] = true
	}
	// Most used first; the skills no longer installed after the others.
	slices.SortStableFunc(used, func(a, b usedSkill) int {
		if a.Installed != b.Installed {
			if a.Installed {
				return -1
			}
			return 1
		}
		return int(b.Uses - a.Uses)
	})
	never := []string{}
	for _, s := range snap.Skills() {
		if !seen[s.Name] {
			never = append(never, s.Name)
		}
	}
	if o.json {
		if writeJSON(c, struct {
			Skills    []usedSkill `json:"skills"`
			NeverUsed []string    `json:"never_used"`
		}{used, never}) != nil {
			return exitFailure
		}
		return exitOK
	}
	rows := [][]string{{"NAME", "USES", "FAILURES", "LAST USED", "BY"}}
	for _, u := range used {
		name := safeText(u.Skill)
		if !u.Installed {
			name += " (not installed)"
		}
		rows = append(rows, []string{name, strconv.FormatInt(u.Uses, 10), strconv.FormatInt(u.Failures, 10),
			u.Last.Local().Format(time.DateTime), safeText(byTool(u.ByTool))})
	}
	if len(used) > 0 {
		if err := writeTable(c.stdout, c.width(), rows); err != nil {
			return c.fail("usage", err)
		}
	}
	if len(never) > 0 {
		if len(used) > 0 {
			fmt.Fprintln(c.stdout)
		}
		fmt.Fprintf(c.stdout, "Never used (%d): %s\n", len(never), safeText(strings.Join(never, ", ")))
	}
	if len(used) == 0 && len(never) == 0 {
		fmt.Fprintln(c.info(), "no skills and no uses")
	}
	return exitOK
}

// byTool says how a skill was used: "execute_skill 3, read_skill 1".
func byTool(counts map[string]int64) string {
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s %d", name, counts[name])
	}
	return strings.Join(parts, ", ")
}
