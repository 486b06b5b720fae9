package deps

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
)

// Checker reports what a skill needs that the host lacks, for the loader
// (it satisfies loader.Checker; the Kit adds it to Doctor):
//
//   - RUNTIME_UNAVAILABLE (error): the skill's runtime is not installed:
//     python3 ("python" on Windows; the skill's own .venv interpreter when
//     it has one), node, bash or dotnet, looked up as the executor runs
//     them.
//   - VENV_MISSING (warning): Python dependencies are declared
//     (dependencies.python, or a frontmatter install spec of kind uv) but
//     the skill has no .venv interpreter.
//   - DEPS_MISSING (warning): npm packages are declared
//     (dependencies.node.packages, an install spec of kind node, or a
//     package.json with dependencies) but the skill has no node_modules.
//   - SYSTEM_DEP_MISSING (warning): a system dependency's program is not on
//     PATH: the program of its check command, or, without one, its name.
//
// It never runs anything: loading a skill and calling Doctor must not start
// programs the skill chose, so check commands are not run here (only
// [Installer.Install], an explicit host action, runs them). Everything
// is PATH lookups (with the PATH of the tools' environment, see Options) and file
// system checks, cheap enough for every Doctor. So a program that is
// installed but whose check would fail is not reported here. Skills without
// a folder on disk (embedded) get only the runtime and PATH checks. It is
// safe for concurrent use.
type Checker struct {
	cfg config
}

// NewChecker returns a Checker that looks programs up in the PATH of the
// tools' environment opts gives. opts may be nil.
func NewChecker(opts *Options) *Checker {
	return &Checker{cfg: opts.resolve()}
}

// runtimeProgram is the program the executor runs for a runtime.
func runtimeProgram(rt skill.Runtime) string {
	switch rt {
	case skill.RuntimePython:
		return defaultPython()
	case skill.RuntimeNode:
		return "node"
	case skill.RuntimeBash:
		return "bash"
	case skill.RuntimeDotnet:
		return "dotnet"
	}
	return ""
}

// Check returns the diagnostics of s, nil when it lacks nothing.
func (c *Checker) Check(ctx context.Context, s *skill.Skill) diagnostics.List {
	if s == nil {
		return nil
	}
	dir := s.DiskDir
	if dir == "" {
		dir = s.Dir
	}
	var out diagnostics.List
	hasVenv := false
	if s.DiskDir != "" {
		_, err := os.Stat(filepath.Join(s.DiskDir, venvDir, filepath.FromSlash(venvPython())))
		hasVenv = err == nil
	}
	if s.Config != nil && s.Config.Runtime != "" {
		prog := runtimeProgram(s.Config.Runtime)
		switch {
		case s.Config.Runtime == skill.RuntimePython && hasVenv:
		case prog == "":
		default:
			if _, err := executor.LookPath(prog, c.cfg.env); err != nil {
				out = append(out, diagnostics.New(diagnostics.RuntimeUnavailable, s.Name, dir,
					"the runtime %s is not installed: %s is not on PATH", s.Config.Runtime, prog).With("runtime", string(s.Config.Runtime)).With("program", prog))
			}
		}
	}
	// A tool an install needs, looked up only while it has something to
	// install, and only once per program.
	needs := map[string]bool{}
	need := func(what string, progs ...string) {
		for _, p := range progs {
			if _, err := executor.LookPath(p, c.cfg.env); err == nil {
				return
			}
		}
		if needs[progs[0]] || s.Config != nil && runtimeProgram(s.Config.Runtime) == progs[0] && !hasVenv {
			return // said once, or as the runtime above
		}
		needs[progs[0]] = true
		out = append(out, diagnostics.New(diagnostics.RuntimeUnavailable, s.Name, dir,
			"%s is needed to install %s but is not on PATH", strings.Join(progs, " or "), what).With("program", progs[0]))
	}
	if s.DiskDir != "" {
		python, node := s.DeclaredDeps()
		if python && !hasVenv {
			out = append(out, diagnostics.New(diagnostics.VenvMissing, s.Name, dir,
				"Python dependencies are declared but %s has no %s; install the skill's dependencies", s.Name, filepath.Join(venvDir, filepath.FromSlash(venvPython()))))
			need("the Python requirements", c.cfg.python, c.cfg.uv)
		}
		if node {
			if st, err := os.Stat(filepath.Join(s.DiskDir, nodeModules)); err != nil || !st.IsDir() {
				out = append(out, diagnostics.New(diagnostics.DepsMissing, s.Name, dir,
					"npm packages are declared but %s has no %s; install the skill's dependencies", s.Name, nodeModules))
				need("the npm packages", c.cfg.npm)
			}
		}
	}
	if cfg := s.Config; cfg != nil {
		if py := cfg.Dependencies.Python; py != nil {
			out = append(out, c.declared(s, dir, "dependencies.python.source", py.Source)...)
		}
		if d := cfg.Dependencies.Dotnet; d != nil {
			out = append(out, c.declared(s, dir, "dependencies.dotnet.project", d.Project)...)
			need("the .NET project's packages", c.cfg.dotnet)
		}
		field, script := "setup.posix", cfg.Setup.Posix
		if runtime.GOOS == "windows" {
			field, script = "setup.win32", cfg.Setup.Win32
		}
		if script != "" {
			out = append(out, c.declared(s, dir, field, script)...)
			prog, _ := scriptCommand(script, c.cfg)
			need("and run the setup script "+script, prog)
		}
		for _, dep := range cfg.Dependencies.System {
			if d := c.system(s, dir, dep); d != nil {
				out = append(out, *d)
			}
		}
	}
	return out
}

// declared reports a file skill.config.yaml names in field that the skill
// does not have.
func (c *Checker) declared(s *skill.Skill, dir, field, p string) diagnostics.List {
	if p == "" {
		return nil
	}
	f, err := s.Open(p)
	if err == nil {
		f.Close()
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil // a refused path is the config's own finding
	}
	return diagnostics.List{diagnostics.New(diagnostics.DeclaredFileMissing, s.Name, dir,
		"%s names %s, which does not exist; installing the skill's dependencies would fail", field, p).With("field", field).With("file", p)}
}

// system looks up the program of one system dependency on PATH, without
// running anything.
func (c *Checker) system(s *skill.Skill, dir string, dep skill.SystemDep) *diagnostics.Diagnostic {
	prog, err := systemDepProgram(dep)
	if err == nil {
		if _, err = executor.LookPath(prog, c.cfg.env); err == nil {
			return nil
		}
		err = fmt.Errorf("%s is not on PATH", prog)
	}
	d := diagnostics.New(diagnostics.SystemDepMissing, s.Name, dir, "system dependency %s: %v", dep.Name, err).With("dependency", dep.Name)
	if dep.Check != "" {
		d = d.With("check", dep.Check)
	}
	return &d
}

// systemDepProgram is the program a system dependency stands for: its check
// command's, or its name when it has no check. Either must be a bare
// program name (no path), as SplitCheckCommand requires.
func systemDepProgram(dep skill.SystemDep) (string, error) {
	if dep.Check != "" {
		argv, err := SplitCheckCommand(dep.Check)
		if err != nil {
			return "", fmt.Errorf("it cannot be checked: %w", err)
		}
		return argv[0], nil
	}
	if words, err := SplitCheckCommand(dep.Name); err != nil || len(words) != 1 {
		return "", fmt.Errorf("no check command, and %q is not a program name to look for", dep.Name)
	}
	return dep.Name, nil
}
