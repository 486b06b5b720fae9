//go:build !lean

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/tools"
	skillusage "github.com/skillkit-go/skillkit/usage"
)

type runOptions struct {
	dir     string
	input   string
	json    bool
	sandbox bool
}

func runCommand() *command {
	return &command{
		name:    "run",
		args:    "NAME [--input JSON | --input -] [--json] [--sandbox] [--dir DIR]",
		summary: "run a compute-entry skill as execute_skill would and print its output",
		help: `
The input is a JSON object (default {}); "--input -" reads it from standard
input. The skill runs in its folder with the whitelisted environment plus its
own saved secrets (SKILL_SECRET_KEY or APP_SECRET opens them), under its
timeout, confined: it reaches its folder, the system's programs and what its
skill.config.yaml permissions declare, nothing else (docs/security.md);
--sandbox builds that boundary with bubblewrap instead. Prints the skill's JSON output; --json prints the whole outcome
({"success","output"|"error","duration_ms","exit_code"}). Exit status 1 when
the skill fails or cannot run.
The skills folder is --dir, else $SKILLKIT_DIR, else ./skills.`,
		flags: func(fs *flag.FlagSet) any {
			o := &runOptions{}
			fs.StringVar(&o.dir, "dir", "", "the skills folder `DIR` (default $SKILLKIT_DIR, else ./skills)")
			fs.StringVar(&o.input, "input", "{}", "the input `JSON` object, or - to read it from standard input")
			fs.BoolVar(&o.json, "json", false, "print the whole outcome as JSON")
			fs.BoolVar(&o.sandbox, "sandbox", false, "run the skill in a bubblewrap sandbox (Linux, needs bwrap)")
			return o
		},
		run: runRun,
	}
}

func runRun(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*runOptions)
	if len(args) != 1 {
		fmt.Fprintln(c.stderr, "skillkit run: give the NAME of one compute-entry skill")
		return exitUsage
	}
	input := []byte(o.input)
	if o.input == "-" {
		data, err := io.ReadAll(io.LimitReader(c.stdin, 2<<20))
		if err != nil {
			fmt.Fprintf(c.stderr, "skillkit run: reading the input: %v\n", err)
			return exitFailure
		}
		input = data
	}
	dir := resolveDir(c, o.dir)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(c.stderr, "skillkit run: the skills folder %s does not exist (use --dir or SKILLKIT_DIR)\n", dir)
		return exitFailure
	}
	kopts := skillkit.Options{Dir: dir, Getenv: c.getenv, Logger: c.logger, RecordUsage: true}
	if o.sandbox {
		r, err := executor.NewSandboxRunner(ctx, nil)
		if err != nil {
			return c.fail("run", err)
		}
		kopts.Executor = &executor.Options{Runner: r}
	}
	kit, err := c.open(ctx, kopts)
	if err != nil {
		return c.fail("run", err)
	}
	defer kit.Close()
	ex, err := kit.Executor(ctx)
	if err != nil {
		return c.fail("run", err)
	}
	out, err := ex.Execute(ctx, args[0], json.RawMessage(input))
	recordRun(ctx, c, kit, args[0], err)
	if o.json {
		if writeJSON(c, out) != nil {
			return exitFailure
		}
	} else if err == nil {
		fmt.Fprintln(c.stdout, string(out.Output))
	}
	if err != nil {
		c.fail("run", withSuggestions(ctx, kit, args[0], err))
		for _, hint := range runHints(ctx, kit, args[0], err) {
			fmt.Fprintf(c.stderr, "  %s\n", hint)
		}
		return exitFailure
	}
	return exitOK
}

// runHints say which command fixes what kept a skill from running.
func runHints(ctx context.Context, kit *skillkit.Kit, name string, err error) []string {
	switch {
	case errors.Is(err, secrets.ErrCannotOpen):
		return []string{otherKeyHint}
	case errors.Is(err, registry.ErrModified):
		return []string{"review the changes, then approve them: skillkit approve " + name}
	case errors.Is(err, skillkit.ErrDisabled):
		return []string{"enable it first: skillkit enable " + name}
	}
	var nr *executor.NotRunnableError
	if !errors.As(err, &nr) {
		return nil
	}
	switch nr.Code {
	case diagnostics.VenvMissing, diagnostics.DepsMissing:
		return []string{"install its dependencies: skillkit deps " + name}
	case diagnostics.EnvNotConfigured:
		var hints []string
		for _, v := range nr.Env {
			hints = append(hints, fmt.Sprintf("save it: skillkit secrets set %s %s=VALUE   (a VALUE of - reads standard input)", name, v))
		}
		rows, _ := kit.Vault().Configured(ctx, name, nil)
		for _, r := range rows {
			if r.Stale && slices.Contains(nr.Env, r.Name) {
				hints = append(hints, "a value was saved for an earlier install of "+name+": skillkit secrets adopt "+name+" uses it for this one")
				break
			}
		}
		return hints
	}
	return nil
}

// recordRun counts a run in the Kit's usage store, as execute_skill's
// calls are counted; a skill that is not installed is not counted. A use
// that cannot be recorded is a warning: the run happened.
func recordRun(ctx context.Context, c *cli, kit *skillkit.Kit, name string, runErr error) {
	if _, ok, _ := kit.Skill(ctx, name); !ok {
		return
	}
	outcome := skillusage.OK
	if runErr != nil {
		outcome = skillusage.Failed
	}
	u := skillusage.Use{Skill: name, Tool: tools.ExecuteSkillName, Time: time.Now(), Outcome: outcome}
	if err := kit.Usage().Record(ctx, u); err != nil {
		fmt.Fprintf(c.stderr, "warning: %s\n", safeText(err.Error()))
	}
}
