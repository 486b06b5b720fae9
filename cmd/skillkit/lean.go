//go:build lean

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
)

// The lean build (go build -tags lean) links only what the commands that
// read skills need; the rest of the commands, and those commands with the
// options that need more (see docs/cli.md, "A lean skillkit"), it hands to
// the full skillkit: this process becomes that program, run with the same
// command line, environment and streams.

// fullEnv names the full skillkit the lean one hands commands to.
const fullEnv = "SKILLKIT_FULL"

// fullName is the file name of the full skillkit, looked for beside the lean
// one, then on PATH.
const fullName = "skillkit-full"

// handedOver is a command of the full skillkit: the lean one hands it over
// with its arguments unparsed.
func handedOver(name, args, summary string) *command {
	return &command{name: name, args: args, summary: summary, raw: true, run: runFull}
}

func runFull(_ context.Context, c *cli, _ any, _ []string) int {
	return c.runFull()
}

// runFull hands the command line to the full skillkit. It returns only
// when that cannot start.
func (c *cli) runFull() int {
	full, err := fullBinary(c.getenv)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit: %v\n", err)
		return exitFailure
	}
	code, err := execFull(full, c.argv)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit: the full skillkit %s: %v\n", full, err)
		return exitFailure
	}
	return code
}

// errNoFull says where the full skillkit was looked for and how to build it.
var errNoFull = errors.New("this command needs the full skillkit, and there is none: build it beside this one with\n" +
	"  go build -o \"$(dirname \"$(command -v skillkit)\")/" + fullName + "\" ./cmd/skillkit\n" +
	"at the top of a clone of the repository, or name it in $" + fullEnv)

// fullBinary finds the full skillkit: $SKILLKIT_FULL, else skillkit-full
// beside this program, else on PATH. A program that is this one is
// refused: a lean skillkit handing over to itself would never end.
func fullBinary(getenv func(string) string) (string, error) {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		return "", fmt.Errorf("cannot tell where this program is: %w", err)
	}
	path := getenv(fullEnv)
	switch {
	case path != "":
	case isFile(filepath.Join(filepath.Dir(self), fullName)):
		path = filepath.Join(filepath.Dir(self), fullName)
	default:
		if path, err = exec.LookPath(fullName); err != nil {
			return "", errNoFull
		}
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", fmt.Errorf("the full skillkit %s: %w", path, err)
	}
	if abs == self {
		return "", fmt.Errorf("the full skillkit %s is this lean one: build the full one without -tags lean", path)
	}
	return abs, nil
}

// runList lists the skills with the loader and the registry files alone,
// as a Kit would show them. It hands the command over when it needs more:
// --long (what inspect says of each skill), a database (--db or
// $SKILLKIT_DB), or a skills folder where an install or uninstall did not
// finish (the full skillkit settles it before it reads).
func runList(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*listOptions)
	if o.long || c.dbURL() != "" {
		return c.runFull()
	}
	first, sources, lopts, err := loaderSources(c, args, &o.loaderFlags)
	if err != nil {
		return c.fail("list", err)
	}
	dir, err := filepath.Abs(first)
	if err != nil {
		return c.fail("list", err)
	}
	if unsettled(dir) {
		return c.runFull()
	}
	sources = append([]loader.Source{{Name: first, Dir: dir, Writable: true}}, sources...)
	if err := loader.CheckSources(sources); err != nil {
		return c.fail("list", err)
	}
	lopts.Logger = c.logger
	reg := registry.NewFSStore(dir)
	l, err := loader.New(ctx, sources, reg, lopts)
	// As openKit: the scan's garbage goes before the output is built.
	runtime.GC()
	if err != nil {
		return c.fail("list", err)
	}
	recs, err := reg.List(ctx)
	if err != nil {
		return c.fail("list", err)
	}
	return showList(ctx, c, o, listed{loader: l, records: recs})
}

// unsettled reports whether an operation on the skills folder dir left
// something in its staging or trash folder (.skillhub/staging/ID,
// .skillhub/trash/ID, an ID being 16 hexadecimal digits, with or without
// ".lock"): the full skillkit's Kit settles that before it reads. A folder
// that cannot be read counts as unsettled, so the full one says why.
func unsettled(dir string) bool {
	for _, sub := range []string{".skillhub/staging", ".skillhub/trash"} {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(sub)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true
		}
		for _, e := range entries {
			if id := strings.TrimSuffix(e.Name(), ".lock"); len(id) == 16 && strings.Trim(id, "0123456789abcdef") == "" {
				return true
			}
		}
	}
	return false
}

// interruptible is the context commands run in. The lean build's commands
// only read, so an interrupt ends them where they are, as it ends any
// program that does not catch it: catching it would cost every start a
// signal-handling goroutine and its thread (about 40 page faults).
func interruptible() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}

// isFile reports whether path is a regular file.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

func inspectCommand() *command {
	return handedOver("inspect", "[--json] [--dir DIR] PATH|NAME...", "print the parsed model of each skill and its diagnostics")
}

func scanCommand() *command {
	return handedOver("scan", "[--json] PATH...", "check skills for attacks without running them: injection, hidden text, exfiltration, malware")
}

func doctorCommand() *command {
	return handedOver("doctor", "[--json] [--level error|warning|info] [DIR...]", "load the skills as a host would and print every diagnostic, checks included")
}

func promptCommand() *command {
	return handedOver("prompt", "[--format skillkit|agentskills] [--lang en|zh] [--tools a,b] [--skills a,b] [--max-chars N] [--json] [DIR...]", "print the <available_skills> catalog an agent would get")
}

func readCommand() *command {
	return handedOver("read", "NAME [--task T] [--args A] [--file PATH] [--json] [DIR...]", "print what read_skill (or read_skill_file) returns to the model")
}

func toolCommand() *command {
	return handedOver("tool", "NAME JSON [--tools T] [--skills S] [--json] [DIR...]", "call one of the model's skill tools with JSON arguments, as a model would")
}

func searchCommand() *command {
	return handedOver("search", "QUERY [--json] [--limit N] [--tools a,b] [--dir DIR...]", "find skills by what a task needs, as search_skills ranks them")
}

func runCommand() *command {
	return handedOver("run", "NAME [--input JSON | --input -] [--json] [--sandbox] [--dir DIR]", "run a compute-entry skill as execute_skill would and print its output")
}

func usageCommand() *command {
	return handedOver("usage", "[--json] [--dir DIR]", "show how often agents used each skill, and which skills were never used")
}

func installCommand() *command {
	return handedOver("install", "[--ref R] [--path P] [--skill NAME]... [--all] [--force] [--yes] [--allow-dangerous] [--json] SOURCE", "install a skill from GitHub, a git URL, a ZIP file, a folder, a site or an MCP server")
}

func depsCommand() *command {
	return handedOver("deps", "[--setup] [--yes] [--force] [--pip-arg A] [--npm-arg A] [--env K=V] [--json] NAME", "install a skill's dependencies and check the tools it needs")
}

func uninstallCommand() *command {
	return handedOver("uninstall", "[--keep-secrets] [--force] NAME", "remove an installed skill and its record")
}

func approveCommand() *command {
	return handedOver("approve", "[--yes] [--allow-dangerous] [--json] NAME", "approve the current files of an installed skill, so they may run")
}

func updateCommand() *command {
	return handedOver("update", "[--force] [--yes] [--allow-dangerous] [--json] NAME | --all", "fetch skills again from where they were installed")
}

func syncCommand() *command {
	return handedOver("sync", "[--force] [--deps] [--publish] [--watch INTERVAL [--listen]] [--json]", "bring this replica's skills folder to what the shared database records")
}

func outdatedCommand() *command {
	return handedOver("outdated", "[--json] [--allow-host H] [--allow-file-urls]", "list installed git skills whose remote has a newer commit")
}

func pinCommand() *command {
	return handedOver("pin", "NAME", "keep a skill at its installed version: update skips it")
}

func unpinCommand() *command {
	return handedOver("unpin", "NAME", "let update change a pinned skill again")
}

func enableCommand() *command {
	return handedOver("enable", "NAME", "show a disabled skill to agents again")
}

func disableCommand() *command {
	return handedOver("disable", "NAME", "hide an installed skill from every agent, keeping it installed")
}

func secretsCommand() *command {
	return handedOver("secrets", "[--dir DIR] set NAME KEY=VALUE... | list NAME | delete NAME KEY... | adopt NAME | rotate | import-legacy NAME BLOB", "save, list, delete and rotate the encrypted secrets of skills")
}

func mcpCommand() *command {
	return handedOver("mcp", "", "serve skills over MCP, or install from an MCP server: how")
}

func fleetCommand() *command {
	return handedOver("fleet", "keygen FILE", "make the key that signs what a replica installs (replicas on one database)")
}

func historyCommand() *command {
	return handedOver("history", "[--json] NAME", "list the versions of a skill that can be restored")
}

func rollbackCommand() *command {
	return handedOver("rollback", "[--yes] [--allow-dangerous] [--json] NAME [VERSION]", "restore an earlier version of a skill from its history")
}

func proposalsCommand() *command {
	return handedOver("proposals", "[--dir DIR] [--json] [show NAME | approve NAME [--yes] [--force] | reject NAME]", "review the skills agents wrote that wait for a person: list, show, approve, reject")
}

func signCommand() *command {
	return handedOver("sign", "[--key FILE] [--principal EMAIL] [--repo DIR] git | zip ARCHIVE", "show a publisher how to sign a skill so that skillkit verifies it, and check a ZIP archive's bundle")
}
