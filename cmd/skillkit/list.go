package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

type listOptions struct {
	loaderFlags
	json  bool
	long  bool
	tools []string // nil without --tools; --tools "" is an agent with no tools
}

func listCommand() *command {
	return &command{
		name:    "list",
		args:    "[--json] [--long] [--tools a,b] [DIR...]",
		summary: "list the skills a host would load, or that an agent with given tools sees",
		help: `
Without --tools every loaded skill is listed, those disabled in the registry
marked. With --tools (a comma-separated
list of the agent's tool names) the visibility rules are applied as for an
agent with those tools on this machine (its OS, programs on PATH and
environment), and each hidden skill is listed with why. Skill folders found
but not loaded (invalid, a name already taken, over --max-skills, under a
dot folder, nested in another skill) are counted on stderr by reason.
--json prints {"skills":[...],"hidden":[...],"not_loaded":[...],
"diagnostics":[...]}. Skill text is shown with control characters escaped;
--json keeps it exact. --long shows, for the skills of the skills folder,
where each came from and its state (approved, modified or unrecorded;
disabled, pinned) in columns, and adds "installed" to each in --json, as
inspect NAME shows it.
` + loaderHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &listOptions{}
			o.register(fs)
			fs.BoolVar(&o.json, "json", false, "print JSON")
			fs.BoolVar(&o.long, "long", false, "show where each skill came from and its state (reads every file of the skills folder)")
			fs.Func("tools", "apply the visibility rules for an agent with these `TOOLS` (comma-separated)", func(v string) error {
				o.tools = append([]string{}, splitComma(v)...)
				return nil
			})
			return o
		},
		run: runList,
	}
}

// listedSkill is a skill as list shows it.
type listedSkill struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Class       skill.Class `json:"class"`
	Source      string      `json:"source"`
	Path        string      `json:"path"`
	Hidden      bool        `json:"hidden"`  // disable-model-invocation
	Enabled     bool        `json:"enabled"` // false when disabled in the registry
	// Npx says where the `npx skills` installer took the skill from, when
	// a lock file of it lists the skill.
	Npx *npxOrigin `json:"npx,omitempty"`
	// Installed, with --long, is what the registry knows of a skill of
	// the skills folder, as inspect NAME shows it.
	Installed *installedView `json:"installed,omitempty"`
}

// installedView is a skill of the skills folder as its registry and its
// files say.
type installedView struct {
	// Record is the registry's record: origin, times, flags; nil for a
	// skill placed by hand.
	Record *registry.Record `json:"record"`
	// Approval is "approved" (the files are the ones approved),
	// "modified" (they changed since) or "unrecorded" (no record: it runs
	// as a local skill).
	Approval string `json:"approval"`
	// Fingerprint is the fingerprint of the files now.
	Fingerprint string `json:"fingerprint"`
	// Permissions are what skill.config.yaml asks for.
	Permissions skill.Permissions `json:"permissions"`
}

// npxOrigin is a skill's entry in a lock file of `npx skills`.
type npxOrigin struct {
	Lock string `json:"lock"`
	registry.NpxEntry
}

// npxOrigins reads the lock files of `npx skills` that may list the skills
// of the loader's sources: by source name, by skill name. A lock file that
// cannot be read is a warning on stderr, not a failure.
func npxOrigins(c *cli, sources []loader.Source) map[string]map[string]*npxOrigin {
	home, _ := os.UserHomeDir()
	out := map[string]map[string]*npxOrigin{}
	read := map[string]*registry.NpxLock{}
	for _, src := range sources {
		if src.Dir == "" {
			continue
		}
		for _, p := range registry.NpxLockPaths(src.Dir, loader.AgentProject(src.Dir), home) {
			l, seen := read[p]
			if !seen {
				var err error
				l, err = registry.ReadNpxLock(p)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					fmt.Fprintf(c.stderr, "warning: %s\n", safeText(err.Error()))
				}
				read[p] = l
			}
			if l == nil {
				continue
			}
			if out[src.Name] == nil {
				out[src.Name] = map[string]*npxOrigin{}
			}
			for name, e := range l.Skills {
				if _, first := out[src.Name][name]; !first {
					out[src.Name][name] = &npxOrigin{Lock: p, NpxEntry: e}
				}
			}
		}
	}
	return out
}

// listed is what list shows: the loader's skills, the records of the
// skills folder, and with --long what inspect says of each installed skill.
type listed struct {
	loader  *loader.Loader
	records []registry.Record
	// installed says, for --long, what inspect says of a skill; nil for a
	// skill of another source.
	installed func(*skill.Skill) (*installedView, error)
}

// showList prints the skills (runList opens them, in list_kit.go for the
// full build, in lean.go for the lean one).
func showList(ctx context.Context, c *cli, o *listOptions, in listed) int {
	disabled := map[string]bool{}
	for _, r := range in.records {
		disabled[r.Name] = !r.Enabled
	}
	l := in.loader
	snap := l.Snapshot()
	skills := snap.Skills()
	var hidden []loader.Hidden
	if o.tools != nil {
		v, err := snap.Filter(ctx, loader.Env{Tools: o.tools})
		if err != nil {
			return c.fail("list", err)
		}
		skills, hidden = v.Catalog, v.Hidden
	}
	diags := snap.Diagnostics()
	installed := map[string]*installedView{}
	if o.long {
		for _, s := range skills {
			v, err := in.installed(s)
			if err != nil {
				return c.fail("list", err)
			}
			if v != nil {
				installed[s.Name] = v
			}
		}
	}
	if o.json {
		// Streamed, each skill as it is written: the listing of thousands
		// of skills is never held whole.
		out := newJSONObject(c)
		npx := npxOrigins(c, l.Sources())
		jsonList(out, "skills", skills, func(s *skill.Skill) any {
			return listedSkill{s.Name, s.Description, s.Class, s.Source, s.DiskDir, s.Hidden(), !disabled[s.Name], npx[s.Source][s.Name], installed[s.Name]}
		})
		jsonList(out, "hidden", hidden, nil)
		jsonList(out, "not_loaded", snap.NotLoaded(), nil)
		jsonList(out, "diagnostics", diags, nil)
		if out.close() != nil {
			return exitFailure
		}
		return exitOK
	}
	header := []string{"NAME", "CLASS", "SOURCE", "DESCRIPTION"}
	if o.long {
		header = []string{"NAME", "CLASS", "STATE", "COMMIT", "ORIGIN"}
	}
	row := make([]string, len(header))
	err := writeRows(c.stdout, c.width(), len(skills)+1, func(i int) []string {
		if i == 0 {
			return header
		}
		s := skills[i-1]
		name := s.Name
		if disabled[s.Name] && !o.long {
			name += " (disabled)"
		}
		row[0], row[1] = safeText(name), string(s.Class)
		if o.long {
			row[2], row[3], row[4] = longColumns(s, installed[s.Name])
		} else {
			row[2], row[3] = safeText(s.Source), safeText(oneLine(s.Description))
		}
		return row
	})
	if err != nil {
		return c.fail("list", err)
	}
	if len(hidden) > 0 {
		fmt.Fprintln(c.stdout, "\nHidden:")
		for _, h := range hidden {
			var why []string
			for _, r := range h.Reasons {
				why = append(why, r.Message)
			}
			fmt.Fprintf(c.stdout, "  %s: %s\n", safeText(h.Name), safeText(strings.Join(why, "; ")))
		}
	}
	summary := plural(len(skills), "skill")
	if len(hidden) > 0 {
		summary += fmt.Sprintf(", %d hidden", len(hidden))
	}
	if n := len(diags.AtLeast(diagnostics.Warning)); n > 0 {
		summary += fmt.Sprintf("; %s (run skillkit doctor)", pluralOf(n, "warning or error", "warnings or errors"))
	}
	fmt.Fprintln(c.info(), summary)
	if line := notLoadedLine(snap); line != "" {
		fmt.Fprintln(c.info(), safeText(line))
	}
	return exitOK
}

// longColumns are the STATE, COMMIT and ORIGIN columns of list --long:
// for a skill of another source, "-", "" and the source.
func longColumns(s *skill.Skill, in *installedView) (state, commit, origin string) {
	if in == nil {
		return "-", "", safeText(s.Source)
	}
	states := []string{in.Approval}
	r := in.Record
	if r == nil {
		return in.Approval, "", "placed by hand"
	}
	if !r.Enabled {
		states = append(states, "disabled")
	}
	if r.Pinned {
		states = append(states, "pinned")
	}
	origin = string(r.Source)
	if r.URL != "" {
		origin += " " + r.URL
	}
	if r.Subdir != "" {
		origin += " (" + r.Subdir + ")"
	}
	if r.Ref != "" {
		origin += " @" + r.Ref
	}
	if r.Signer.Verified() {
		origin += ", signed by " + strings.Join(r.Signer.Principals, ", ")
	}
	return strings.Join(states, ","), short(r.Commit), safeText(origin)
}

func splitComma(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
