package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/tools"
)

// shellTool is the host's own bash tool, the one compute-toolkit skills are
// run with: the model reads a skill with read_skill, then runs its scripts
// as "bash <skill folder>/scripts/x.sh ..." from the agent's workspace.
// The command gets the host's whitelisted variables plus the variables of
// the skill it touches — the skill whose folder is the working directory,
// or else the first one a path in the command lies in — from Kit.EnvFor,
// so a skill's secrets reach its own scripts and nothing else. The command
// runs confined (executor.LocalRunner): a skill's scripts reach what that
// skill declares (Kit.ConfinementFor), any command the workspace, and
// nothing else of the machine's files, nor the network unless the skill
// declares it.
func shellTool(kit *skillkit.Kit, workspace string) tools.Tool {
	schema := json.RawMessage(`{"type":"object","properties":{` +
		`"command":{"type":"string","minLength":1,"description":"A bash command line."},` +
		`"cwd":{"type":"string","description":"The working directory; default the workspace."}},` +
		`"required":["command"],"additionalProperties":false}`)
	return tools.Tool{
		Name:        "bash",
		Description: "Run a bash command in the workspace and return its output.",
		InputSchema: schema,
		Invoke: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			var a struct{ Command, Cwd string }
			if err := json.Unmarshal(args, &a); err != nil || a.Command == "" {
				return tools.Errorf("give a command"), nil
			}
			dir := workspace
			if a.Cwd != "" {
				dir = a.Cwd
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(workspace, dir)
				}
			}
			env, skillPath, err := shellEnv(ctx, kit, dir, a.Command)
			if err != nil {
				return tools.Result{}, err
			}
			confine, ok := kit.ConfinementFor(skillPath)
			if !ok {
				confine = &executor.Confinement{}
			}
			// The workspace is the agent's: lent to the command, as a staging
			// folder is (on a root host commands run as nobody).
			confine.Work = append(confine.Work, workspace)
			res, err := (&executor.LocalRunner{}).Run(ctx, executor.Command{Path: "bash", Args: []string{"-c", a.Command},
				Dir: dir, Env: env, Timeout: time.Minute, Confine: confine})
			if err != nil {
				return tools.Result{Text: err.Error(), IsError: true}, nil
			}
			out := string(res.Stdout) + string(res.Stderr)
			if res.ExitCode != 0 {
				return tools.Result{Text: fmt.Sprintf("%sexit code %d", out, res.ExitCode), IsError: true}, nil
			}
			return tools.Result{Text: out}, nil
		},
	}
}

// shellEnv is the environment of a command: the host's whitelisted
// variables, then the skill's own from Kit.EnvFor — by the working
// directory, or else by the first path in the command inside a skill.
func shellEnv(ctx context.Context, kit *skillkit.Kit, dir, command string) (map[string]string, string, error) {
	vars := map[string]string{}
	for _, name := range executor.DefaultEnvWhitelist() {
		if v, ok := os.LookupEnv(name); ok {
			vars[name] = v
		}
	}
	skillPath := dir
	own, err := kit.EnvFor(ctx, dir)
	if err != nil {
		return nil, "", err
	}
	if _, inSkill := kit.ConfinementFor(dir); !inSkill {
		for _, word := range strings.Fields(command) {
			p := strings.Trim(word, `"'`)
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if _, err := os.Stat(p); err != nil {
				continue
			}
			if _, inSkill := kit.ConfinementFor(p); !inSkill {
				continue
			}
			if own, err = kit.EnvFor(ctx, p); err != nil {
				return nil, "", err
			}
			skillPath = p
			break
		}
	}
	maps.Copy(vars, own)
	return vars, skillPath, nil
}
