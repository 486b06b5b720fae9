package main

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestCLIDocsCoverEveryCommand: docs/cli.md has a section for every
// command, and its flag table lists exactly the command's flags (the global
// --quiet and --verbose are documented once, at the top).
func TestCLIDocsCoverEveryCommand(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	heading := regexp.MustCompile("(?m)^### `skillkit ([a-z-]+)`$")
	locs := heading.FindAllStringSubmatchIndex(string(data), -1)
	for i, l := range locs {
		end := len(data)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		sections[string(data[l[2]:l[3]])] = string(data[l[1]:end])
	}
	flagRow := regexp.MustCompile("(?m)^\\| `--([a-z-]+)")
	for _, cmd := range commands() {
		section, ok := sections[cmd.name]
		if !ok {
			t.Errorf("docs/cli.md has no section for %s", cmd.name)
			continue
		}
		delete(sections, cmd.name)
		fs := newFlagSet(cmd, &cli{})
		if cmd.flags != nil {
			cmd.flags(fs)
		}
		var want []string
		fs.VisitAll(func(f *flag.Flag) {
			if f.Name != "quiet" && f.Name != "verbose" {
				want = append(want, f.Name)
			}
		})
		var got []string
		for _, m := range flagRow.FindAllStringSubmatch(section, -1) {
			got = append(got, m[1])
		}
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("docs/cli.md, %s: flags %q, the command has %q", cmd.name, got, want)
		}
		if !strings.Contains(section, "`skillkit "+cmd.name) {
			t.Errorf("docs/cli.md, %s: no usage line", cmd.name)
		}
	}
	for name := range sections {
		t.Errorf("docs/cli.md documents %s, which is no command", name)
	}
	for _, global := range []string{"--dir DIR", "--json", "--quiet", "--verbose", "--version"} {
		if !strings.Contains(string(data), "| `"+global+"` |") {
			t.Errorf("docs/cli.md does not list the global flag %s", global)
		}
	}
}
