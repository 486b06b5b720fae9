package installer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
)

// DepsChecker reports what a skill needs that the host lacks, for the
// loader (it satisfies loader.Checker; pass it in loader.Options.Checkers):
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
//   - SYSTEM_DEP_MISSING (warning): a system dependency's check command
//     failed, or, without one, its name is not a program on PATH. Check
//     commands run as InstallDeps runs them (no shell, CheckTimeout, the
//     same controlled environment), and their outcome is kept for
//     DepsConfig.CheckTTL so a Doctor every few seconds does not start
//     LibreOffice every few seconds.
//
// Skills without a folder on disk (embedded) get only the runtime check.
// It is safe for concurrent use.
type DepsChecker struct {
	runner executor.Runner
	cfg    depsConfig
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]checkOutcome // by dependency name and check command
}

type checkOutcome struct {
	diag *diagnostics.Diagnostic // without skill, path and dependency name: the command's verdict
	at   time.Time
}

// NewDepsChecker returns a DepsChecker that runs check commands through
// opts.Runner (default an executor.LocalRunner) with opts.Deps' environment.
// opts may be nil.
func NewDepsChecker(opts *Options) *DepsChecker {
	if opts == nil {
		opts = &Options{}
	}
	var runner executor.Runner = &executor.LocalRunner{}
	if opts.Runner != nil {
		runner = opts.Runner
	}
	return &DepsChecker{runner: runner, cfg: opts.Deps.resolve(), now: time.Now, cache: map[string]checkOutcome{}}
}

// DepsChecker returns a DepsChecker with the Installer's runner and
// dependency configuration.
func (in *Installer) DepsChecker() *DepsChecker {
	return &DepsChecker{runner: in.opt.runner, cfg: in.opt.deps, now: time.Now, cache: map[string]checkOutcome{}}
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
func (c *DepsChecker) Check(ctx context.Context, s *skill.Skill) diagnostics.List {
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
	if s.DiskDir != "" {
		python, node := declaredDeps(s)
		if python && !hasVenv {
			out = append(out, diagnostics.New(diagnostics.VenvMissing, s.Name, dir,
				"Python dependencies are declared but %s has no %s; install the skill's dependencies", s.Name, filepath.Join(venvDir, filepath.FromSlash(venvPython()))))
		}
		if node {
			if st, err := os.Stat(filepath.Join(s.DiskDir, nodeModules)); err != nil || !st.IsDir() {
				out = append(out, diagnostics.New(diagnostics.DepsMissing, s.Name, dir,
					"npm packages are declared but %s has no %s; install the skill's dependencies", s.Name, nodeModules))
			}
		}
	}
	if s.Config != nil {
		for _, dep := range s.Config.Dependencies.System {
			if ctx.Err() != nil {
				break
			}
			if d := c.system(ctx, s, dep); d != nil {
				out = append(out, *d)
			}
		}
	}
	return out
}

// system checks one system dependency, from the cache when it is fresh.
func (c *DepsChecker) system(ctx context.Context, s *skill.Skill, dep skill.SystemDep) *diagnostics.Diagnostic {
	var argv []string
	if dep.Check != "" {
		var err error
		if argv, err = SplitCheckCommand(dep.Check); err != nil {
			d := diagnostics.New(diagnostics.SystemDepMissing, s.Name, s.DiskDir, "system dependency %s cannot be checked: %v", dep.Name, err).With("dependency", dep.Name)
			return &d
		}
	}
	key := dep.Name + "\x00" + dep.Check
	c.mu.Lock()
	hit, ok := c.cache[key]
	c.mu.Unlock()
	if !ok || c.now().Sub(hit.at) >= c.cfg.checkTTL {
		// The verdict is the command's, not the skill's: check it for a
		// neutral skill so the cache can serve every skill that declares it.
		d, _ := checkSystemDep(ctx, c.runner, c.cfg, &skill.Skill{}, skill.SystemDep{Name: dep.Name, Check: dep.Check}, argv)
		if ctx.Err() != nil {
			return nil
		}
		hit = checkOutcome{diag: d, at: c.now()}
		c.mu.Lock()
		c.cache[key] = hit
		c.mu.Unlock()
	}
	if hit.diag == nil {
		return nil
	}
	dir := s.DiskDir
	if dir == "" {
		dir = s.Dir
	}
	msg := strings.TrimPrefix(hit.diag.Message, fmt.Sprintf("system dependency %s: ", dep.Name))
	d := diagnostics.New(diagnostics.SystemDepMissing, s.Name, dir, "system dependency %s: %s", dep.Name, msg).With("dependency", dep.Name)
	if dep.Check != "" {
		d = d.With("check", dep.Check)
	}
	return &d
}
