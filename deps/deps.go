package deps

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/lazyregexp"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Installer installs the dependencies of the skills of one skills folder.
// It is safe for concurrent use; operations on one skill are serialized
// with every other operation on it (installs, updates, agents' writes).
type Installer struct {
	dir      *skillsdir.Dir
	runner   executor.Runner
	cfg      config
	progress func(Event)
}

// New returns an Installer of the dependencies of the skills in dir. It
// does no I/O. Hosts get one from skillkit.Kit, which shares the folder with
// the install and authoring packages. opts may be nil.
func New(dir *skillsdir.Dir, opts *Options) *Installer {
	d := &Installer{dir: dir, cfg: opts.resolve()}
	if opts != nil {
		d.runner, d.progress = opts.Runner, opts.Progress
	}
	if d.runner == nil {
		// The runner warns, once, when tools run without isolation.
		d.runner = &executor.LocalRunner{Logger: dir.Logger()}
	}
	return d
}

// Checker returns a [Checker] that looks programs up as this Installer's
// commands would find them.
func (d *Installer) Checker() *Checker { return &Checker{cfg: d.cfg} }

// InstallOptions tune one Install.
type InstallOptions struct {
	// Setup confirms that the skill's setup script may run: the host asked
	// its user ("this skill has an install script, scripts/setup.sh; run
	// it?"). Without it a declared script is not run, and the result says
	// so. Even with it, only skills installed from GitHub, git or a ZIP run
	// one; for others Install refuses with ErrNotAllowed.
	Setup bool
	// AllowAgentWritten installs the dependencies of a skill an agent wrote
	// (skill_manage), which Install otherwise refuses with ErrNotAllowed:
	// building a Python package from source runs its code, so a person
	// should have read the skill first.
	AllowAgentWritten bool
	// Force rebuilds the venv and node_modules even when they were built for
	// the same requirements.
	Force bool
}

// Status says how one step of Install ended.
type Status string

// The statuses of a [StepResult].
const (
	Installed   Status = "installed"   // built now
	UpToDate    Status = "up-to-date"  // already built for the same requirements
	Unavailable Status = "unavailable" // the tool is not installed (a RUNTIME_UNAVAILABLE diagnostic says which)
	Failed      Status = "failed"      // a command failed; the error says why
	Skipped     Status = "skipped"     // not run; Detail says why
	Present     Status = "present"     // a system dependency's check passed
	Missing     Status = "missing"     // a system dependency's check failed (SYSTEM_DEP_MISSING)
	Ran         Status = "ran"         // the setup script ran and exited 0
)

// StepResult is what Install did for one kind of dependency (or one
// system dependency, or the setup script).
type StepResult struct {
	Step   Step   `json:"step"`             // StepPython, StepNode, StepDotnet, StepSystem or StepSetup
	Status Status `json:"status"`           // how it ended
	Detail string `json:"detail,omitempty"` // what was installed, or why not, for people
}

// Result says what Install did.
type Result struct {
	// Name is the skill.
	Name string `json:"name"`
	// Steps are what was done, in order: python, node, dotnet, one per
	// system dependency, setup.
	Steps []StepResult `json:"steps"`
	// Logs are the commands run and the end of their output, in order, as
	// streamed to Options.Progress.
	Logs []string `json:"logs"`
	// Diagnostics are SYSTEM_DEP_MISSING for failed checks and
	// RUNTIME_UNAVAILABLE for tools that are not installed.
	Diagnostics diagnostics.List `json:"diagnostics,omitempty"`
}

// Status returns the status of the first step s reported, "" if none.
func (r *Result) Status(s Step) Status {
	for _, st := range r.Steps {
		if st.Step == s {
			return st.Status
		}
	}
	return ""
}

// Names of what Install builds inside a skill.
const (
	stampFile   = ".skillkit-deps" // in .venv and node_modules: the hash of what they were built from
	venvDir     = ".venv"
	nodeModules = "node_modules"
)

// Install installs what skill name declares (see the package
// documentation): a .venv for its Python requirements, node_modules for its
// npm packages, dotnet restore for its project; it checks its system
// dependencies and, when opts.Setup confirms it and the skill was installed
// from GitHub, git or a ZIP, runs its setup script. Every name, path and
// check command is checked before anything runs (ErrInvalid). Each kind is
// built in the staging area and swapped in, so a skill has either its old
// .venv (or node_modules) or the new one, complete. A failing command
// fails its kind and stops the setup script, not the other kinds; the
// error joins every failure ([*CommandError]). A tool that is not installed
// is a RUNTIME_UNAVAILABLE diagnostic in the result, not an error. opts
// may be nil.
//
// Install runs code the skill chose — its check commands (a program on
// PATH with the skill's arguments, in the skill folder), the build scripts
// of source packages pip or uv build, the MSBuild files dotnet restore
// evaluates, the packages npm resolves for it — so it is an explicit host
// action, for skills the host's user chose; the loader and Doctor never
// call it. It refuses agent-written skills unless opts.AllowAgentWritten.
func (d *Installer) Install(ctx context.Context, name string, opts *InstallOptions) (*Result, error) {
	if opts == nil {
		opts = &InstallOptions{}
	}
	rep := skillsdir.NewReporter(d.progress, OpDeps, name, "")
	res, err := d.install(ctx, name, opts, rep)
	rep.Done(err)
	return res, err
}

// run is one Install in progress.
type run struct {
	d     *Installer
	name  string
	skill *skill.Skill
	rep   *skillsdir.Reporter
	res   *Result
}

// logf records a log line and streams it as a progress event.
func (r *run) logf(step Step, percent int, format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	r.res.Logs = append(r.res.Logs, "["+string(step)+"] "+line)
	r.rep.Step(step, percent, "%s", line)
}

func (r *run) add(step Step, status Status, format string, args ...any) {
	r.res.Steps = append(r.res.Steps, StepResult{Step: step, Status: status, Detail: fmt.Sprintf(format, args...)})
}

func (d *Installer) install(ctx context.Context, name string, opts *InstallOptions, rep *skillsdir.Reporter) (*Result, error) {
	if err := skill.ValidateKey(name); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	unlock, err := d.dir.Hold(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if ok, err := d.dir.HasSkill(name); err != nil || !ok {
		return nil, errors.Join(fmt.Errorf("%w: %s", ErrNotInstalled, name), err)
	}
	rec, err := d.dir.Record(ctx, name)
	if err != nil {
		return nil, err
	}
	if rec != nil && rec.Source == registry.SourceAgent && !opts.AllowAgentWritten {
		return nil, fmt.Errorf("%w: %s was written by an agent; its dependencies are installed only when a person allows it", ErrNotAllowed, name)
	}
	s, diags := skill.Load(d.dir.Root().FS(), name, &skill.LoadOptions{DiskRoot: d.dir.Path()})
	if s == nil {
		return nil, fmt.Errorf("%w: %s does not load: %v", ErrInvalidSkill, name, diags.AtLeast(diagnostics.Error))
	}
	if bad := diags.Filter(func(d diagnostics.Diagnostic) bool { return d.Code == diagnostics.ConfigParseError }); len(bad) > 0 {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalidSkill, skill.ConfigFileName, bad[0].Message)
	}
	skillRoot, err := d.dir.Root().OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("deps: %w", err)
	}
	defer skillRoot.Close()
	plan, err := planDeps(s, skillRoot.FS())
	if err != nil {
		return nil, err
	}
	if plan.setup != "" && opts.Setup {
		if err := SetupAllowed(name, rec); err != nil {
			return nil, err
		}
		if err := checkScript(skillRoot, plan.setup); err != nil {
			return nil, err
		}
	}

	r := &run{d: d, name: name, skill: s, rep: rep, res: &Result{Name: name, Steps: []StepResult{}, Logs: []string{}}}
	for _, note := range plan.notes {
		r.logf(StepSystem, 1, "%s", note)
	}
	var failed []error
	for _, b := range builders(plan) {
		if err := r.build(ctx, b, opts.Force); err != nil {
			failed = append(failed, err)
		}
	}
	if len(plan.system) > 0 {
		rep.Step(StepSystem, stepPercent(StepSystem), "checking %d system dependencies", len(plan.system))
		for i, dep := range plan.system {
			diag, line := checkSystemDep(ctx, d.runner, d.cfg, s, d.dir.OSPath(name), dep, plan.checks[i])
			r.logf(StepSystem, stepPercent(StepSystem), "%s", line)
			if diag == nil {
				r.add(StepSystem, Present, "%s", dep.Name)
				continue
			}
			r.add(StepSystem, Missing, "%s", diag.Message)
			r.res.Diagnostics = append(r.res.Diagnostics, *diag)
		}
	}
	if err := ctx.Err(); err != nil {
		return r.res, err
	}
	switch {
	case plan.setup == "":
	case !opts.Setup:
		r.add(StepSetup, Skipped, "the setup script %s runs only when the user confirms it", plan.setup)
		r.logf(StepSetup, 90, "not running %s: it needs the user's confirmation", plan.setup)
	case len(failed) > 0:
		r.add(StepSetup, Skipped, "the setup script %s was not run: installing the dependencies failed", plan.setup)
	default:
		if err := r.runSetup(ctx, plan.setup); err != nil {
			failed = append(failed, err)
		}
	}
	return r.res, errors.Join(failed...)
}

// SetupAllowed says whether Install may run the setup script of skill name,
// whose record is rec (nil: none): setup scripts run only for skills a
// person installed from GitHub, git or a ZIP, never for local folders,
// sites, MCP servers, hand-placed or agent-written skills. The error wraps
// [ErrNotAllowed] and says why.
func SetupAllowed(name string, rec *registry.Record) error {
	if rec == nil {
		return fmt.Errorf("%w: %s has no install record (placed by hand); only skills installed from GitHub, git or a ZIP run setup scripts", ErrNotAllowed, name)
	}
	switch rec.Source {
	case registry.SourceGitHub, registry.SourceGit, registry.SourceZip:
		return nil
	}
	return fmt.Errorf("%w: %s was installed from %s; only skills installed from GitHub, git or a ZIP run setup scripts", ErrNotAllowed, name, rec.Source)
}

// checkScript checks that the setup script is a regular file inside the
// skill folder, reached without a symbolic link.
func checkScript(skillRoot *os.Root, script string) error {
	p := ""
	for _, elem := range strings.Split(script, "/") {
		p = path.Join(p, elem)
		info, err := skillRoot.Lstat(p)
		if err != nil {
			return fmt.Errorf("%w: setup script %s: %w", ErrInvalid, script, err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%w: setup script %s: %s is a symbolic link", ErrInvalid, script, p)
		}
		if p == script && !info.Mode().IsRegular() {
			return fmt.Errorf("%w: setup script %s is not a regular file", ErrInvalid, script)
		}
	}
	return nil
}

// builder is how one kind of dependency is built: Python's venv, Node's
// node_modules, .NET's restore. Install runs each through the same steps
// (build): skip when what is in place was built from the same stamp, begin
// a transaction, prepare the work folder, run the commands, and swap what
// was built into the skill.
type builder struct {
	step Step
	// what names the dependencies in messages ("the npm packages").
	what string
	// target is what is swapped into the skill (".venv"), "" when nothing
	// is (dotnet restore fills the host's package folder).
	target string
	// marker must exist inside target for it to count as built.
	marker string
	// stamp hashes what target is built from, read from the skill folder
	// skill; nil means never up to date.
	stamp func(skill fs.FS) string
	// prepare makes the work folder in t and returns the commands to run
	// and what they build (a slash path in the skills folder, "" for
	// nothing to place).
	prepare func(ctx context.Context, r *run, t *skillsdir.Txn) (cmds []executor.Command, built string, err error)
	// finish fixes what was built before it is swapped in; may be nil.
	finish func(r *run, t *skillsdir.Txn, built string) error
	// done describes a successful build.
	done func(r *run) string
}

// builders returns the builders plan needs, in order.
func builders(plan *depsPlan) []builder {
	var out []builder
	if plan.venv {
		out = append(out, pythonBuilder(plan.python))
	}
	if len(plan.node) > 0 || plan.packageJSON {
		out = append(out, nodeBuilder(plan.node))
	}
	if plan.dotnet != "" {
		out = append(out, dotnetBuilder(plan.dotnet))
	}
	return out
}

// build runs b; a missing tool is an unavailable step, not an error.
func (r *run) build(ctx context.Context, b builder, force bool) error {
	d := r.d
	fail := func(err error) error {
		if r.unavailable(b.step, err, b.what) {
			return nil
		}
		r.add(b.step, Failed, "%v", err)
		return err
	}
	stamp := ""
	if b.stamp != nil {
		skillFS, err := fs.Sub(d.dir.Root().FS(), r.name)
		if err != nil {
			return fail(fmt.Errorf("deps: %w", err))
		}
		stamp = b.stamp(skillFS)
	}
	final := path.Join(r.name, b.target)
	if stamp != "" && !force && upToDate(d.dir.Root().FS(), final, stamp, b.marker) {
		r.add(b.step, UpToDate, "%s is up to date", b.target)
		r.logf(b.step, stepPercent(b.step), "%s is up to date", b.target)
		return nil
	}
	t, err := d.dir.Begin(ctx)
	if err != nil {
		return err
	}
	defer t.End()
	cmds, built, err := b.prepare(ctx, r, t)
	if err != nil {
		return fail(err)
	}
	for _, cmd := range cmds {
		if err := r.command(ctx, b.step, cmd); err != nil {
			return fail(err)
		}
	}
	if built != "" {
		if b.finish != nil {
			if err := b.finish(r, t, built); err != nil {
				return fail(err)
			}
		}
		if err := d.dir.Root().WriteFile(path.Join(built, stampFile), []byte(stamp), 0o644); err != nil {
			return fail(fmt.Errorf("deps: %w", err))
		}
		if err := d.dir.PlaceDir(t, built, final); err != nil {
			return fail(err)
		}
	}
	r.add(b.step, Installed, "%s", b.done(r))
	return nil
}

// upToDate reports whether dir (a slash path in fsys) was built for stamp
// and holds its marker file.
func upToDate(fsys fs.FS, dir, stamp, marker string) bool {
	data, err := fs.ReadFile(fsys, path.Join(dir, stampFile))
	if err != nil || string(data) != stamp {
		return false
	}
	// Lstat: a venv's bin/python is a link to the interpreter outside.
	_, err = fs.Lstat(fsys, path.Join(dir, marker))
	return err == nil
}

// stampOf hashes what a venv or node_modules is built from.
func stampOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d\x00", len(p))
		h.Write(p)
	}
	return "v1 " + hex.EncodeToString(h.Sum(nil))
}

// pythonBuilder builds the skill's .venv: uv venv and uv pip install when
// uv runs, else python -m venv and the venv's pip; then fixes the paths the
// tools wrote into it for where it lands.
func pythonBuilder(reqs []string) builder {
	var reqText []byte
	for _, req := range reqs {
		reqText = append(reqText, req+"\n"...)
	}
	tool := "pip"
	return builder{
		step: StepPython, what: "the Python requirements", target: venvDir, marker: venvPython(),
		stamp: func(fs.FS) string { return stampOf([]byte("python"), reqText) },
		prepare: func(ctx context.Context, r *run, t *skillsdir.Txn) ([]executor.Command, string, error) {
			cfg := r.d.cfg
			if err := r.d.dir.Root().WriteFile(t.Staging("requirements.txt"), reqText, 0o644); err != nil {
				return nil, "", fmt.Errorf("deps: %w", err)
			}
			work, venv, reqFile := t.StagingOS(), t.StagingOS("venv"), t.StagingOS("requirements.txt")
			py := filepath.Join(venv, filepath.FromSlash(venvPython()))
			useUV := false
			if !cfg.noUV {
				err := r.command(ctx, StepPython, executor.Command{Path: cfg.uv, Args: []string{"--version"}, Dir: work, Timeout: CheckTimeout})
				useUV = err == nil
				if ctx.Err() != nil {
					return nil, "", ctx.Err()
				}
			}
			var cmds []executor.Command
			if useUV {
				tool = "uv"
				cmds = []executor.Command{
					{Path: cfg.uv, Args: []string{"venv", "--quiet", venv}},
					{Path: cfg.uv, Args: append([]string{"pip", "install", "--python", py, "-r", reqFile}, cfg.pipArgs...)},
				}
			} else {
				cmds = []executor.Command{
					{Path: cfg.python, Args: []string{"-m", "venv", venv}},
					{Path: py, Args: append([]string{"-m", "pip", "install", "--no-input", "--disable-pip-version-check", "--no-compile", "-r", reqFile}, cfg.pipArgs...)},
				}
			}
			if len(reqs) == 0 {
				cmds = cmds[:1] // an empty venv: nothing to install into it
			}
			for i := range cmds {
				cmds[i].Dir = work
			}
			return cmds, t.Staging("venv"), nil
		},
		finish: func(r *run, t *skillsdir.Txn, built string) error {
			if err := relocateVenv(r.d.dir.Root(), built, r.d.dir.OSPath(built), r.d.dir.OSPath(r.name, venvDir)); err != nil {
				return fmt.Errorf("deps: moving the venv into the skill: %w", err)
			}
			return nil
		},
		done: func(*run) string { return fmt.Sprintf("%d requirements into %s with %s", len(reqs), venvDir, tool) },
	}
}

// nodeBuilder runs npm install in a copy of the skill in the staging area —
// so npm's writes to package.json and package-lock.json never touch the
// skill, and file: dependencies resolve as they would in the skill — and
// builds the node_modules that is swapped in.
func nodeBuilder(packages []string) builder {
	return builder{
		step: StepNode, what: "the npm packages", target: nodeModules, marker: stampFile,
		stamp: func(skill fs.FS) string {
			pkgJSON, _ := fs.ReadFile(skill, "package.json")
			lock, _ := fs.ReadFile(skill, "package-lock.json")
			shrink, _ := fs.ReadFile(skill, "npm-shrinkwrap.json")
			return stampOf([]byte("node"), []byte(strings.Join(packages, "\n")), pkgJSON, lock, shrink)
		},
		prepare: func(ctx context.Context, r *run, t *skillsdir.Txn) ([]executor.Command, string, error) {
			cfg, root := r.d.cfg, r.d.dir.Root()
			// The skill's own npm configuration is not the host's: it could
			// point npm at another registry, git program or script shell.
			// Its lock files hold "resolved" URLs and paths npm would follow
			// unchecked (a tarball anywhere, a link out of the skill): npm
			// resolves from the checked package.json files instead.
			work, err := r.copySkill(ctx, t, StepNode, "node", func(name string) bool {
				switch name {
				case ".npmrc", ".yarnrc", ".yarnrc.yml", "package-lock.json", "npm-shrinkwrap.json":
					return true
				}
				return false
			})
			if err != nil {
				return nil, "", err
			}
			// A package.json keeps npm from looking for a project in the
			// folders above, which could be the host's own.
			if ok, _ := r.d.dir.Exists(path.Join(work, "package.json")); !ok {
				if err := root.WriteFile(path.Join(work, "package.json"), []byte(`{"name":"skillkit-deps","private":true}`+"\n"), 0o644); err != nil {
					return nil, "", fmt.Errorf("deps: %w", err)
				}
			}
			args := []string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev", "--workspaces=false"}
			args = append(args, cfg.npmArgs...)
			args = append(args, packages...)
			// git dependencies are refused in the package.json files we
			// check, but npm meets others deeper in the tree (a registry
			// package's own): a git program that cannot run makes every one
			// of them fail.
			env := cfg.commandEnv()
			for k := range env {
				if strings.EqualFold(k, "npm_config_git") {
					delete(env, k)
				}
			}
			env["npm_config_git"] = t.StagingOS("no-git", "git")
			built := path.Join(work, nodeModules)
			cmd := executor.Command{Path: cfg.npm, Args: args, Dir: r.d.dir.OSPath(work), Env: env}
			return []executor.Command{cmd}, built, nil
		},
		finish: func(r *run, _ *skillsdir.Txn, built string) error {
			// npm makes no node_modules when there is nothing to install.
			if ok, err := r.d.dir.Exists(built); err != nil || ok {
				return err
			}
			return r.d.dir.Root().Mkdir(built, skillsdir.DirPerm)
		},
		done: func(*run) string { return nodeModules + " built by npm install" },
	}
}

// dotnetBuilder runs dotnet restore on the skill's project in a copy of the
// skill in the staging area, without the skill's NuGet configuration files
// (nuget.config in any case, anywhere in the skill): NuGet reads them from
// the project's folder up, and they could point restore at other package
// sources, credentials or a global packages folder of the skill's choosing.
// Restore fills the host user's NuGet packages folder, which is what the
// skill's build needs; what it writes beside the project (obj/) is thrown
// away with the copy, so the skill's files and fingerprint do not change.
// The project's own MSBuild files still run: see Install.
func dotnetBuilder(project string) builder {
	return builder{
		step: StepDotnet, what: "the .NET project " + project,
		prepare: func(ctx context.Context, r *run, t *skillsdir.Txn) ([]executor.Command, string, error) {
			work, err := r.copySkill(ctx, t, StepDotnet, "dotnet", isNuGetConfig)
			if err != nil {
				return nil, "", err
			}
			cmd := executor.Command{Path: r.d.cfg.dotnet, Args: []string{"restore", filepath.FromSlash(project)}, Dir: r.d.dir.OSPath(work)}
			return []executor.Command{cmd}, "", nil
		},
		done: func(*run) string { return "restored " + project },
	}
}

// isNuGetConfig reports whether a file name is one NuGet reads its
// configuration from.
func isNuGetConfig(name string) bool { return strings.EqualFold(name, "nuget.config") }

// copySkill copies the skill into t's staging folder as folder, through the
// archive checks, without the files whose name drop matches (anywhere in
// the copy), and returns the copy's slash path in the skills folder.
func (r *run) copySkill(ctx context.Context, t *skillsdir.Txn, step Step, folder string, drop func(name string) bool) (string, error) {
	root := r.d.dir.Root()
	work := t.Staging(folder)
	if err := root.Mkdir(work, skillsdir.DirPerm); err != nil {
		return "", fmt.Errorf("deps: %w", err)
	}
	if rep, err := archive.CopyDir(ctx, r.d.dir.OSPath(r.name), r.d.dir.OSPath(work), r.d.dir.Limits()); err != nil {
		if skillsdir.IsRefusal(rep, err) {
			err = fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		return "", fmt.Errorf("deps: copying %s: %w", r.name, err)
	}
	var found []string
	err := fs.WalkDir(root.FS(), work, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && drop(e.Name()) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("deps: %w", err)
	}
	for _, p := range found {
		if err := root.Remove(p); err != nil {
			return "", fmt.Errorf("deps: %w", err)
		}
		r.logf(step, stepPercent(step), "not using the skill's %s", strings.TrimPrefix(p, work+"/"))
	}
	return work, nil
}

// command runs one dependency command and logs it. A missing program
// returns a *missingTool; a failure a *CommandError.
func (r *run) command(ctx context.Context, step Step, cmd executor.Command) error {
	cfg := r.d.cfg
	if cmd.Timeout == 0 {
		cmd.Timeout = cfg.timeout
	}
	if cmd.Env == nil {
		cmd.Env = cfg.commandEnv()
	}
	if cmd.Confine == nil {
		cmd.Confine = installConfinement(cmd, cmd.Dir, append(DefaultRegistryHosts(), cfg.registryHosts...))
	}
	line := commandLine(cmd)
	percent := stepPercent(step)
	r.logf(step, percent, "$ %s", line)
	start := time.Now()
	res, err := r.d.runner.Run(ctx, cmd)
	if errors.Is(err, exec.ErrNotFound) {
		r.logf(step, percent, "%s is not installed", cmd.Path)
		return &missingTool{program: cmd.Path}
	}
	if err != nil {
		return fmt.Errorf("deps: %s: %s: %w", step, line, err)
	}
	for _, l := range outputLines(res.Stdout, 40) {
		r.logf(step, percent, "%s", l)
	}
	errLines := outputLines(res.Stderr, 40)
	for _, l := range errLines {
		r.logf(step, percent, "%s", l)
	}
	if res.ExitCode == 0 && !res.TimedOut {
		r.logf(step, percent, "done in %s", time.Since(start).Round(time.Millisecond))
		return nil
	}
	tail := errLines
	if len(tail) == 0 {
		tail = outputLines(res.Stdout, 40)
	}
	if len(tail) > 5 {
		tail = tail[len(tail)-5:]
	}
	return &CommandError{Step: step, Command: line, ExitCode: res.ExitCode, TimedOut: res.TimedOut, Output: strings.Join(tail, " | ")}
}

// stepPercent is how far Install is when it reports a step.
func stepPercent(s Step) int {
	switch s {
	case StepPython:
		return 20
	case StepNode:
		return 60
	case StepDotnet:
		return 75
	case StepSystem:
		return 85
	case StepSetup:
		return 92
	}
	return 50
}

// missingTool: the program of a dependency command is not installed.
type missingTool struct{ program string }

func (e *missingTool) Error() string { return e.program + " is not installed" }

// unavailable turns a missing tool into a RUNTIME_UNAVAILABLE diagnostic and
// a step; any other error fails the step.
func (r *run) unavailable(step Step, err error, what string) (handled bool) {
	var mt *missingTool
	if !errors.As(err, &mt) {
		return false
	}
	msg := fmt.Sprintf("%s: %s is not installed on this host, so %s cannot be installed", step, mt.program, what)
	r.add(step, Unavailable, "%s", msg)
	d := diagnostics.New(diagnostics.RuntimeUnavailable, r.name, r.d.dir.OSPath(r.name), "%s", msg).With("program", mt.program)
	r.res.Diagnostics = append(r.res.Diagnostics, d)
	return true
}

// commandLine shows a command to people, credentials masked (see
// displayArgs): it goes to Result.Logs, progress events and
// CommandError.Command, while the command runs with the real arguments.
func commandLine(cmd executor.Command) string {
	parts := append([]string{cmd.Path}, displayArgs(cmd.Args)...)
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t\"'") {
			parts[i] = fmt.Sprintf("%q", p)
		}
	}
	return strings.Join(parts, " ")
}

// urlUserinfoRE matches a URL's scheme and user info ("https://user:pw@"),
// up to the last "@" before the host ends.
var urlUserinfoRE = lazyregexp.New(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s]*@`)

// maskCredentials replaces the user info of every URL in s with "***".
func maskCredentials(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return urlUserinfoRE().ReplaceAllString(s, "${1}***@")
}

// isSecretOption reports whether a command-line option carries a secret
// value: --password, npm's --_auth, --_authToken and
// --//registry.example/:_authToken, --token, --secret, --api-key.
func isSecretOption(opt string) bool {
	n := strings.ToLower(strings.TrimLeft(opt, "-"))
	for _, suffix := range []string{"password", "token", "_auth", "secret", "apikey", "api-key", "api_key"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return n == "auth"
}

// displayArgs returns args as they may be shown (Options.PipArgs and
// NpmArgs are the host's and may hold an index URL with a token): the user
// info of URLs masked, and the value of secret options ("--password X",
// "--//host/:_authToken=X") replaced by "***".
func displayArgs(args []string) []string {
	out := make([]string, len(args))
	hideNext := false
	for i, a := range args {
		switch {
		case hideNext:
			out[i], hideNext = "***", false
			continue
		case strings.HasPrefix(a, "-"):
			if opt, _, ok := strings.Cut(a, "="); ok && isSecretOption(opt) {
				out[i] = opt + "=***"
				continue
			} else if !ok && isSecretOption(a) {
				hideNext = true
			}
		}
		out[i] = maskCredentials(a)
	}
	return out
}

// outputLines returns the last max non-empty lines of output, each at most
// 500 bytes, control characters escaped, the user info of URLs masked.
func outputLines(out []byte, max int) []string {
	var lines []string
	for l := range strings.SplitSeq(string(bytes.ToValidUTF8(out, []byte("?"))), "\n") {
		l = strings.TrimRight(l, "\r \t")
		if l == "" {
			continue
		}
		l = maskCredentials(strings.Map(func(r rune) rune {
			if unicode.IsControl(r) && r != '\t' {
				return '?'
			}
			return r
		}, l))
		if len(l) > 500 {
			cut := 500
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			l = l[:cut] + "…"
		}
		lines = append(lines, l)
	}
	if len(lines) > max {
		lines = lines[len(lines)-max:]
	}
	return lines
}

// runSetup runs the setup script in the skill folder, with the skill's
// .venv/bin and node_modules/.bin first on PATH.
func (r *run) runSetup(ctx context.Context, script string) error {
	d := r.d
	dir := d.dir.OSPath(r.name)
	env := d.cfg.commandEnv()
	var bins []string
	for _, b := range []string{path.Join(venvDir, path.Dir(venvPython())), path.Join(nodeModules, ".bin")} {
		if ok, _ := d.dir.Exists(path.Join(r.name, b)); ok {
			bins = append(bins, filepath.Join(dir, filepath.FromSlash(b)))
		}
	}
	if len(bins) > 0 {
		env["PATH"] = strings.Join(append(bins, env["PATH"]), string(os.PathListSeparator))
	}
	if ok, _ := d.dir.Exists(path.Join(r.name, venvDir)); ok {
		env["VIRTUAL_ENV"] = filepath.Join(dir, venvDir)
	}
	prog, args := scriptCommand(script, d.cfg)
	err := d.accounted(ctx, r.name, func() error {
		home, _ := os.UserHomeDir()
		return r.command(ctx, StepSetup, executor.Command{Path: prog, Args: args, Dir: dir, Env: env, Timeout: SetupTimeout,
			Confine: executor.ConfinementOf(r.skill, home)})
	})
	if err != nil {
		r.add(StepSetup, Failed, "%s: %v", script, err)
		if mt := (*missingTool)(nil); errors.As(err, &mt) {
			return fmt.Errorf("%w: setup: %s is needed to run %s", ErrFailed, mt.program, script)
		}
		return err
	}
	r.add(StepSetup, Ran, "%s", script)
	return nil
}

// scriptCommand picks the interpreter of a setup script by its extension:
// bash for .sh and scripts without one (POSIX), PowerShell for .ps1, cmd
// for .cmd and .bat, Python for .py, node for .js.
func scriptCommand(script string, cfg config) (string, []string) {
	p := filepath.FromSlash(script)
	switch strings.ToLower(path.Ext(script)) {
	case ".ps1":
		return "powershell", []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", p}
	case ".cmd", ".bat":
		return "cmd", []string{"/d", "/c", p}
	case ".py":
		return cfg.python, []string{p}
	case ".js", ".mjs", ".cjs":
		return "node", []string{p}
	}
	if runtime.GOOS == "windows" {
		return "powershell", []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", p}
	}
	return "bash", []string{p}
}

// accounted runs a step that writes into the skill folder on purpose (a
// setup script's downloads). When the folder matched the fingerprint of
// the version placed before, that fingerprint follows the writes, so they
// do not look like a person's edits (FINGERPRINT_CHANGED, ErrModified on
// update): on a single host the record takes the new one; on a replica
// sharing its registry, whose record is every replica's, only this
// replica's note of what it placed does.
func (d *Installer) accounted(ctx context.Context, name string, run func() error) error {
	rec, err := d.dir.Record(ctx, name)
	if err != nil {
		return err
	}
	matched := false
	if rec != nil && strings.HasPrefix(rec.Fingerprint, registry.FingerprintPrefix) {
		modified, err := d.dir.Modified(ctx, *rec)
		matched = err == nil && !modified
	}
	runErr := run()
	if !matched {
		return runErr
	}
	ctx = context.WithoutCancel(ctx)
	fp, err := d.dir.Fingerprint(ctx, name)
	if err == nil {
		if d.dir.Packages() != nil {
			err = d.dir.MarkPlaced(name, fp)
		} else if fp != rec.Fingerprint {
			rec.Fingerprint = fp
			err = d.dir.Registry().Put(ctx, *rec)
		}
	}
	if err != nil {
		err = fmt.Errorf("deps: recording the fingerprint after %s changed its files: %w", name, err)
	}
	return errors.Join(runErr, err)
}

// checkSystemDep checks one system dependency: its program (the check
// command's, or its name without one) must be on the tools' PATH, and then
// its check command (argv), if any, must exit 0 within CheckTimeout, run in
// the skill folder dir. A check command is a program the skill chose, run
// with arguments it chose: only Install, an explicit host action, runs one
// (never the Checker). It returns a SYSTEM_DEP_MISSING warning, or nil, and
// a log line.
func checkSystemDep(ctx context.Context, runner executor.Runner, cfg config, s *skill.Skill, dir string, dep skill.SystemDep, argv []string) (*diagnostics.Diagnostic, string) {
	missing := func(format string, args ...any) (*diagnostics.Diagnostic, string) {
		d := diagnostics.New(diagnostics.SystemDepMissing, s.Name, dir, "system dependency %s: %s", dep.Name, fmt.Sprintf(format, args...)).With("dependency", dep.Name)
		if dep.Check != "" {
			d = d.With("check", dep.Check)
		}
		return &d, d.Message
	}
	prog, err := systemDepProgram(dep)
	if err != nil {
		return missing("%v", err)
	}
	found, err := executor.LookPath(prog, cfg.env)
	if err != nil {
		if dep.Check != "" {
			return missing("%s is not installed: not on PATH (check: %s)", prog, dep.Check)
		}
		return missing("%s is not on PATH", prog)
	}
	if argv == nil {
		return nil, fmt.Sprintf("%s: found %s", dep.Name, found)
	}
	cmd := executor.Command{Path: argv[0], Args: argv[1:], Dir: dir, Env: cfg.commandEnv(), Timeout: CheckTimeout, MaxStdout: 4 << 10, MaxStderr: 4 << 10}
	res, err := runner.Run(ctx, cmd)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return missing("%s is not installed (check: %s)", argv[0], dep.Check)
	case err != nil:
		return missing("the check %q could not run: %v", dep.Check, err)
	case res.TimedOut:
		return missing("the check %q did not finish within %s", dep.Check, CheckTimeout)
	case res.ExitCode != 0:
		return missing("the check %q exited with status %d", dep.Check, res.ExitCode)
	}
	return nil, fmt.Sprintf("%s: %s passed", dep.Name, dep.Check)
}
