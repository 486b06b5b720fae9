//go:build !lean

package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

type depsOptions struct {
	installerFlags
	setup   bool
	yes     bool
	force   bool
	pipArgs []string
	npmArgs []string
	env     map[string]string
}

func depsCommand() *command {
	return &command{
		name:    "deps",
		args:    "[--setup] [--yes] [--force] [--pip-arg A] [--npm-arg A] [--env K=V] [--json] NAME",
		summary: "install a skill's dependencies and check the tools it needs",
		help: `
Builds the skill's own .venv (uv, else python3 -m venv and pip) and
node_modules (npm install --ignore-scripts), runs dotnet restore, and runs
the check of each system dependency, as its skill.config.yaml declares. Each
is built aside and swapped in, so a failure leaves what was there. Package
names, requirements and check commands are checked before anything runs.
Installing dependencies runs code the skill chose (its check commands, pip
building source packages, MSBuild files during dotnet restore): run it for
skills you trust.

--setup also runs the skill's setup script, which only skills installed from
GitHub, git or a ZIP may have run. On a terminal you are asked first;
without one, --setup needs --yes. A skill an agent wrote is asked about (or
needs --yes) too: building Python packages can run their code.

The tools get a controlled environment (PATH, HOME, locale, proxies), not
yours: pass a package index or registry with --env (PIP_INDEX_URL=...,
npm_config_registry=...) or --pip-arg / --npm-arg. Configuration files in
your home folder (pip.conf, .npmrc) are read as usual.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &depsOptions{env: map[string]string{}}
			o.register(fs, false)
			fs.BoolVar(&o.setup, "setup", false, "also run the skill's setup script")
			fs.BoolVar(&o.yes, "yes", false, "answer yes to the questions (the setup script, an agent-written skill)")
			fs.BoolVar(&o.force, "force", false, "rebuild .venv and node_modules even when they are up to date")
			fs.Func("pip-arg", "pass `ARG` to pip install / uv pip install (repeatable)", func(v string) error {
				o.pipArgs = append(o.pipArgs, v)
				return nil
			})
			fs.Func("npm-arg", "pass `ARG` to npm install (repeatable)", func(v string) error {
				o.npmArgs = append(o.npmArgs, v)
				return nil
			})
			fs.Func("env", "set a variable for the tools, `K=V` (repeatable)", func(v string) error {
				k, val, ok := strings.Cut(v, "=")
				if !ok || k == "" {
					return errors.New("want K=V")
				}
				o.env[k] = val
				return nil
			})
			return o
		},
		run: runDeps,
	}
}

func runDeps(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*depsOptions)
	if len(args) != 1 {
		fmt.Fprintln(c.stderr, "skillkit deps: give one NAME")
		return exitUsage
	}
	name := args[0]
	progress := func(e deps.Event) {
		if !e.Done && !o.json {
			fmt.Fprintf(c.info(), "[%s] %s\n", e.Step, safeText(e.Message))
		}
	}
	kit, err := o.open(ctx, c, false, func(k *skillkit.Options) {
		k.Deps = &deps.Options{Progress: progress, Env: o.env, PipArgs: o.pipArgs, NpmArgs: o.npmArgs}
	})
	if err != nil {
		return c.fail("deps", err)
	}
	defer kit.Close()
	questions := depsQuestions(ctx, kit, name, o.setup)
	dopts := &deps.InstallOptions{Force: o.force}
	answers := bufio.NewReader(c.stdin)
	for _, q := range questions {
		yes := o.yes
		if !yes {
			if !c.interactive {
				fmt.Fprintf(c.stderr, "skillkit deps: %s\nWithout a terminal, answer with --yes.\n", q.text)
				return exitNeedsYes
			}
			var err error
			if yes, err = ask(c, answers, q.text); err != nil {
				return c.fail("deps", err)
			}
		}
		switch {
		case yes && q.setup:
			dopts.Setup = true
		case yes:
			dopts.AllowAgentWritten = true
		case q.setup:
			fmt.Fprintln(c.info(), "not running the setup script")
		default:
			fmt.Fprintln(c.stderr, "nothing installed")
			return exitFailure
		}
	}
	res, err := kit.InstallDeps(ctx, name, dopts)
	err = withSuggestions(ctx, kit, name, err)
	if o.json {
		out := struct {
			*deps.Result
			Error string `json:"error,omitempty"`
		}{Result: res}
		if err != nil {
			out.Error = cliWords(err.Error())
		}
		if res != nil || err != nil {
			if writeJSON(c, out) != nil {
				return exitFailure
			}
		}
	} else if res != nil {
		printDeps(c, res)
	}
	switch {
	case err != nil:
		return c.fail("deps", err)
	case res.Diagnostics.HasErrors():
		return exitFailure
	}
	return exitOK
}

// question is something a person must agree to before the dependencies install.
type question struct {
	text  string
	setup bool // the setup script; else the agent-written skill
}

// depsQuestions finds what needs a yes: a skill an agent wrote, and with
// --setup a setup script. What cannot be read is left to the install to
// report.
func depsQuestions(ctx context.Context, kit *skillkit.Kit, name string, setup bool) []question {
	if skill.ValidateKey(name) != nil {
		return nil
	}
	var out []question
	if rec, err := kit.Registry().Get(ctx, name); err == nil && rec.Source == registry.SourceAgent {
		out = append(out, question{text: fmt.Sprintf("%s was written by an agent, not installed by a person; installing its dependencies can run code (Python packages built from source). Install them?", name)})
	}
	if !setup {
		return out
	}
	s, _, _ := kit.Skill(ctx, name)
	if s == nil || s.Config == nil {
		return out
	}
	script := s.Config.Setup.Posix
	if runtime.GOOS == "windows" {
		script = s.Config.Setup.Win32
	}
	if script != "" {
		out = append(out, question{setup: true, text: fmt.Sprintf("%s has a setup script, %s, which runs confined to what the skill may reach (%s). Run it?",
			name, script, s.Config.Permissions)})
	}
	return out
}

// ask puts a yes/no question on stderr and reads the answer, a line.
func ask(c *cli, answers *bufio.Reader, q string) (bool, error) {
	fmt.Fprintf(c.stderr, "%s [y/N] ", q)
	line, err := answers.ReadString('\n')
	if err != nil && line == "" {
		return false, fmt.Errorf("no answer: %w", err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// printDeps says what InstallDeps did, one line per step, then the
// diagnostics.
func printDeps(c *cli, res *deps.Result) {
	w := c.done()
	if len(res.Steps) == 0 {
		fmt.Fprintf(w, "%s declares no dependencies\n", res.Name)
	}
	for _, s := range res.Steps {
		line := fmt.Sprintf("%s: %s", s.Step, s.Status)
		if s.Detail != "" {
			line += " (" + s.Detail + ")"
		}
		fmt.Fprintln(w, safeText(line))
		if s.Step == deps.StepSetup && s.Status == deps.Skipped && strings.Contains(s.Detail, "confirms") {
			fmt.Fprintf(w, "  run it with: skillkit deps --setup %s\n", res.Name)
		}
	}
	for _, d := range res.Diagnostics.AtLeast(diagnostics.Warning) {
		to := w
		if d.Level == diagnostics.Error { // what failed shows under --quiet too
			to = c.stdout
		}
		fmt.Fprintf(to, "  %s %s: %s\n", d.Level, d.Code, safeText(d.Message))
	}
}
