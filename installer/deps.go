package installer

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
	"regexp"
	"runtime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// DepsOptions tune one InstallDeps.
type DepsOptions struct {
	// Setup confirms that the skill's setup script may run: the host asked
	// its user ("this skill has an install script, scripts/setup.sh; run
	// it?"). Without it a declared script is not run, and the result says
	// so. Even with it, only skills installed from GitHub, git or a ZIP run
	// one; for others InstallDeps refuses with ErrNotAllowed.
	Setup bool
	// AllowAgentWritten installs the dependencies of a skill an agent wrote
	// (skill_manage), which InstallDeps otherwise refuses with
	// ErrNotAllowed: building a Python package from source runs its code,
	// so a person should have read the skill first.
	AllowAgentWritten bool
	// Force rebuilds the venv and node_modules even when they were built for
	// the same requirements.
	Force bool
}

// DepsStatus says how one step of InstallDeps ended.
type DepsStatus string

// The statuses of a [DepsStep].
const (
	DepsInstalled   DepsStatus = "installed"   // built now
	DepsUpToDate    DepsStatus = "up-to-date"  // already built for the same requirements
	DepsUnavailable DepsStatus = "unavailable" // the tool is not installed (a RUNTIME_UNAVAILABLE diagnostic says which)
	DepsFailed      DepsStatus = "failed"      // a command failed; the error says why
	DepsSkipped     DepsStatus = "skipped"     // not run; Detail says why
	DepsPresent     DepsStatus = "present"     // a system dependency's check passed
	DepsMissing     DepsStatus = "missing"     // a system dependency's check failed (SYSTEM_DEP_MISSING)
	DepsRan         DepsStatus = "ran"         // the setup script ran and exited 0
)

// DepsStep is what InstallDeps did for one kind of dependency (or one
// system dependency, or the setup script).
type DepsStep struct {
	Step   Step       `json:"step"`             // StepPython, StepNode, StepDotnet, StepSystem or StepSetup
	Status DepsStatus `json:"status"`           // how it ended
	Detail string     `json:"detail,omitempty"` // what was installed, or why not, for people
}

// DepsResult says what InstallDeps did.
type DepsResult struct {
	// Name is the skill.
	Name string `json:"name"`
	// Steps are what was done, in order: python, node, dotnet, one per
	// system dependency, setup.
	Steps []DepsStep `json:"steps"`
	// Logs are the commands run and the end of their output, in order, as
	// streamed to Options.Progress.
	Logs []string `json:"logs"`
	// Diagnostics are SYSTEM_DEP_MISSING for failed checks and
	// RUNTIME_UNAVAILABLE for tools that are not installed.
	Diagnostics diagnostics.List `json:"diagnostics,omitempty"`
}

// Status returns the status of the first step s reported, "" if none.
func (r *DepsResult) Status(s Step) DepsStatus {
	for _, st := range r.Steps {
		if st.Step == s {
			return st.Status
		}
	}
	return ""
}

// Names of the files InstallDeps keeps inside what it builds.
const (
	depsStamp   = ".skillkit-deps" // in .venv and node_modules: the hash of what they were built for
	venvDir     = ".venv"
	nodeModules = "node_modules"
)

// InstallDeps installs what skill name declares (see the package
// documentation, "Dependencies"): a .venv for its Python requirements,
// node_modules for its npm packages, dotnet restore for its project; it
// checks its system dependencies and, when opts.Setup confirms it and the
// skill was installed from GitHub, git or a ZIP, runs its setup script.
// Every name, path and check command is checked before anything runs
// (ErrInvalidDependency). Each kind is built in the staging area and
// swapped in, so a skill has either its old .venv (or node_modules) or the
// new one, complete. A failing command fails its kind and stops the setup
// script, not the other kinds; the error joins every failure
// ([*DepsError]). A tool that is not installed is a RUNTIME_UNAVAILABLE
// diagnostic in the result, not an error. opts may be nil.
//
// InstallDeps runs code the skill chose — its check commands (a program on
// PATH with the skill's arguments, in the skill folder), the build scripts
// of source packages pip or uv build, the MSBuild files dotnet restore
// evaluates, the packages npm resolves for it — so it is an explicit host
// action, for skills the host's user chose; the loader and Doctor never
// call it. It refuses agent-written skills unless opts.AllowAgentWritten.
func (in *Installer) InstallDeps(ctx context.Context, name string, opts *DepsOptions) (*DepsResult, error) {
	if opts == nil {
		opts = &DepsOptions{}
	}
	rep := in.reporter(OpDeps, name, "")
	res, err := in.installDeps(ctx, name, opts, rep)
	rep.done(err)
	return res, err
}

// depsRun is one InstallDeps in progress.
type depsRun struct {
	in   *Installer
	name string
	rep  *reporter
	res  *DepsResult
}

// logf records a log line and streams it as a progress event.
func (r *depsRun) logf(step Step, percent int, format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	r.res.Logs = append(r.res.Logs, "["+string(step)+"] "+line)
	r.rep.step(step, percent, "%s", line)
}

func (r *depsRun) add(step Step, status DepsStatus, format string, args ...any) {
	r.res.Steps = append(r.res.Steps, DepsStep{Step: step, Status: status, Detail: fmt.Sprintf(format, args...)})
}

func (in *Installer) installDeps(ctx context.Context, name string, opts *DepsOptions, rep *reporter) (*DepsResult, error) {
	unlock, err := in.holdName(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if ok, err := in.hasSkillFile(name); err != nil || !ok {
		return nil, errors.Join(fmt.Errorf("%w: %s", ErrNotInstalled, name), err)
	}
	rec, err := in.getRecord(ctx, name)
	if err != nil {
		return nil, err
	}
	if rec != nil && rec.Source == registry.SourceAgent && !opts.AllowAgentWritten {
		return nil, fmt.Errorf("%w: %s was written by an agent; its dependencies are installed only when a person allows it (DepsOptions.AllowAgentWritten)", ErrNotAllowed, name)
	}
	s, diags := skill.Load(in.root.FS(), name, &skill.LoadOptions{DiskRoot: in.dir})
	if s == nil {
		return nil, fmt.Errorf("%w: %s does not load: %v", ErrInvalidSkill, name, diags.AtLeast(diagnostics.Error))
	}
	if bad := diags.Filter(func(d diagnostics.Diagnostic) bool { return d.Code == diagnostics.ConfigParseError }); len(bad) > 0 {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalidSkill, skill.ConfigFileName, bad[0].Message)
	}
	skillRoot, err := in.root.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	defer skillRoot.Close()
	plan, err := planDeps(s, skillRoot.FS())
	if err != nil {
		return nil, err
	}
	if plan.setup != "" && opts.Setup {
		if err := setupAllowed(name, rec); err != nil {
			return nil, err
		}
		if err := checkScript(skillRoot, plan.setup); err != nil {
			return nil, err
		}
	}

	r := &depsRun{in: in, name: name, rep: rep, res: &DepsResult{Name: name, Steps: []DepsStep{}, Logs: []string{}}}
	for _, note := range plan.notes {
		r.logf(StepSystem, 1, "%s", note)
	}
	var failed []error
	if plan.venv {
		if err := in.depsPython(ctx, r, plan.python, opts.Force); err != nil {
			failed = append(failed, err)
		}
	}
	if len(plan.node) > 0 || plan.packageJSON {
		if err := in.depsNode(ctx, r, plan.node, opts.Force); err != nil {
			failed = append(failed, err)
		}
	}
	if plan.dotnet != "" {
		if err := in.depsDotnet(ctx, r, plan.dotnet); err != nil {
			failed = append(failed, err)
		}
	}
	if len(plan.system) > 0 {
		rep.step(StepSystem, 85, "checking %d system dependencies", len(plan.system))
		for i, dep := range plan.system {
			d, line := checkSystemDep(ctx, in.opt.runner, in.opt.deps, s, in.path(name), dep, plan.checks[i])
			r.logf(StepSystem, 85, "%s", line)
			if d == nil {
				r.add(StepSystem, DepsPresent, "%s", dep.Name)
				continue
			}
			r.add(StepSystem, DepsMissing, "%s", d.Message)
			r.res.Diagnostics = append(r.res.Diagnostics, *d)
		}
	}
	if err := ctx.Err(); err != nil {
		return r.res, err
	}
	switch {
	case plan.setup == "":
	case !opts.Setup:
		r.add(StepSetup, DepsSkipped, "the setup script %s runs only when the user confirms it", plan.setup)
		r.logf(StepSetup, 90, "not running %s: it needs the user's confirmation", plan.setup)
	case len(failed) > 0:
		r.add(StepSetup, DepsSkipped, "the setup script %s was not run: installing the dependencies failed", plan.setup)
	default:
		if err := in.runSetup(ctx, r, s, plan.setup); err != nil {
			failed = append(failed, err)
		}
	}
	return r.res, errors.Join(failed...)
}

// setupAllowed applies seed 000 §10.9: setup scripts run only for skills a
// person installed from GitHub, git or a ZIP, never for local folders,
// hand-placed or agent-written skills.
func setupAllowed(name string, rec *registry.Record) error {
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
			return fmt.Errorf("%w: setup script %s: %w", ErrInvalidDependency, script, err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%w: setup script %s: %s is a symbolic link", ErrInvalidDependency, script, p)
		}
		if p == script && !info.Mode().IsRegular() {
			return fmt.Errorf("%w: setup script %s is not a regular file", ErrInvalidDependency, script)
		}
	}
	return nil
}

// depsCommand runs one dependency command and logs it. A missing program
// returns errMissingTool; a failure a *DepsError.
func (in *Installer) depsCommand(ctx context.Context, r *depsRun, step Step, percent int, cmd executor.Command) error {
	if cmd.Timeout == 0 {
		cmd.Timeout = in.opt.deps.timeout
	}
	if cmd.Env == nil {
		cmd.Env = in.opt.deps.commandEnv()
	}
	line := commandLine(cmd)
	r.logf(step, percent, "$ %s", line)
	start := time.Now()
	res, err := in.opt.runner.Run(ctx, cmd)
	if errors.Is(err, exec.ErrNotFound) {
		r.logf(step, percent, "%s is not installed", cmd.Path)
		return &missingTool{program: cmd.Path}
	}
	if err != nil {
		return fmt.Errorf("installer: %s: %s: %w", step, line, err)
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
	return &DepsError{Step: step, Command: line, ExitCode: res.ExitCode, TimedOut: res.TimedOut, Output: strings.Join(tail, " | ")}
}

// missingTool: the program of a dependency command is not installed.
type missingTool struct{ program string }

func (e *missingTool) Error() string { return e.program + " is not installed" }

// unavailable turns a missing tool into a RUNTIME_UNAVAILABLE diagnostic and
// a step; any other error fails the step.
func (r *depsRun) unavailable(step Step, err error, what string) (handled bool) {
	var mt *missingTool
	if !errors.As(err, &mt) {
		return false
	}
	msg := fmt.Sprintf("%s: %s is not installed on this host, so %s cannot be installed", step, mt.program, what)
	r.add(step, DepsUnavailable, "%s", msg)
	d := diagnostics.New(diagnostics.RuntimeUnavailable, r.name, filepath.Join(r.in.dir, r.name), "%s", msg).With("program", mt.program)
	r.res.Diagnostics = append(r.res.Diagnostics, d)
	return true
}

// commandLine shows a command to people, credentials masked (see
// displayArgs): it goes to DepsResult.Logs, progress events and
// DepsError.Command, while the command runs with the real arguments.
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
var urlUserinfoRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s]*@`)

// maskCredentials replaces the user info of every URL in s with "***".
func maskCredentials(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return urlUserinfoRE.ReplaceAllString(s, "${1}***@")
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

// displayArgs returns args as they may be shown (DepsConfig.PipArgs and
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

// stampOf hashes what a venv or node_modules is built from.
func stampOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d\x00", len(p))
		h.Write(p)
	}
	return "v1 " + hex.EncodeToString(h.Sum(nil))
}

// upToDate reports whether dir (slash path in the skills folder) was built
// for stamp and holds its marker file want.
func (in *Installer) upToDate(dir, stamp, want string) bool {
	data, err := in.root.ReadFile(path.Join(dir, depsStamp))
	if err != nil || string(data) != stamp {
		return false
	}
	ok, err := in.exists(path.Join(dir, want))
	return ok && err == nil
}

// placeDir swaps staged (a slash path in the operation's staging folder)
// in as dst (slash path in the skills folder): the old one to the
// operation's trash, the new one into place, the trash emptied. If placing
// the new one fails, the old one goes back. A crash between the two
// renames leaves no dst (the next recovery empties the trash): missing,
// never half built. So does a failure to put the old one back, which keeps
// the operation's trash (and logs where) instead of emptying it.
func (in *Installer) placeDir(o *op, staged, dst string) error {
	if err := syncTree(in.path(staged)); err != nil {
		return fmt.Errorf("installer: syncing %s: %w", staged, err)
	}
	had, err := in.exists(dst)
	if err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	putBack := func(err error) error {
		if !had || o.crashed {
			return err
		}
		back := o.fault("deps-put-back")
		if back == nil {
			back = in.move(o.trash(), dst)
		}
		if back != nil {
			// The old one is only in the trash now: o.end must not empty it.
			o.keep = true
			in.warn(context.Background(), "installer: the old %s could not be put back; it is kept in %s: %v", dst, in.path(o.trash()), back)
			err = errors.Join(err, fmt.Errorf("installer: putting the old %s back failed (it is kept in %s): %w", dst, in.path(o.trash()), back))
		}
		return err
	}
	if had {
		if err := in.move(dst, o.trash()); err != nil {
			return err
		}
		if err := o.fault("deps-old-moved"); err != nil {
			return putBack(err)
		}
	}
	if err := in.move(staged, dst); err != nil {
		return putBack(err)
	}
	if had {
		if err := in.root.RemoveAll(o.trash()); err != nil {
			in.warn(context.Background(), "installer: leaving the old %s in the trash for the next New: %v", dst, err)
		}
	}
	return nil
}

// depsPython builds the skill's .venv in the staging area — uv venv and uv
// pip install when uv runs, else python -m venv and the venv's pip — fixes
// the paths the tools wrote into it, and swaps it in.
func (in *Installer) depsPython(ctx context.Context, r *depsRun, reqs []string, force bool) error {
	cfg := in.opt.deps
	var reqText []byte
	for _, req := range reqs {
		reqText = append(reqText, req+"\n"...)
	}
	stamp := stampOf([]byte("python"), reqText)
	final := path.Join(r.name, venvDir)
	if !force && in.upToDate(final, stamp, venvPython()) {
		r.add(StepPython, DepsUpToDate, "%s already holds %d requirements", venvDir, len(reqs))
		r.logf(StepPython, 40, "%s is up to date", venvDir)
		return nil
	}
	o, err := in.begin(ctx)
	if err != nil {
		return err
	}
	defer o.end()
	if err := in.root.WriteFile(o.staging("requirements.txt"), reqText, 0o644); err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	work := in.path(o.staging())
	venv := in.path(o.staging("venv"))
	reqFile := in.path(o.staging("requirements.txt"))
	py := filepath.Join(venv, filepath.FromSlash(venvPython()))

	fail := func(err error) error {
		if r.unavailable(StepPython, err, "the Python requirements") {
			return nil
		}
		r.add(StepPython, DepsFailed, "%v", err)
		return err
	}
	useUV := false
	if !cfg.noUV {
		err := in.depsCommand(ctx, r, StepPython, 10, executor.Command{Path: cfg.uv, Args: []string{"--version"}, Dir: work, Timeout: CheckTimeout})
		useUV = err == nil
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	var steps []executor.Command
	if useUV {
		steps = []executor.Command{
			{Path: cfg.uv, Args: []string{"venv", "--quiet", venv}},
			{Path: cfg.uv, Args: append([]string{"pip", "install", "--python", py, "-r", reqFile}, cfg.pipArgs...)},
		}
	} else {
		steps = []executor.Command{
			{Path: cfg.python, Args: []string{"-m", "venv", venv}},
			{Path: py, Args: append([]string{"-m", "pip", "install", "--no-input", "--disable-pip-version-check", "--no-compile", "-r", reqFile}, cfg.pipArgs...)},
		}
	}
	if len(reqs) == 0 {
		steps = steps[:1] // an empty venv: nothing to install into it
	}
	for i, cmd := range steps {
		cmd.Dir = work
		if err := in.depsCommand(ctx, r, StepPython, 15+20*i, cmd); err != nil {
			return fail(err)
		}
	}
	if err := relocateVenv(in.root, o.staging("venv"), venv, in.path(final)); err != nil {
		return fail(fmt.Errorf("installer: moving the venv into the skill: %w", err))
	}
	if err := in.root.WriteFile(o.staging("venv", depsStamp), []byte(stamp), 0o644); err != nil {
		return fail(fmt.Errorf("installer: %w", err))
	}
	if err := in.placeDir(o, o.staging("venv"), final); err != nil {
		return fail(err)
	}
	tool := "pip"
	if useUV {
		tool = "uv"
	}
	r.add(StepPython, DepsInstalled, "%d requirements into %s with %s", len(reqs), venvDir, tool)
	return nil
}

// depsNode runs npm install in a copy of the skill in the staging area —
// so npm's writes to package.json and package-lock.json never touch the
// skill, and file: dependencies resolve as they would in the skill — and
// swaps the node_modules it built in.
func (in *Installer) depsNode(ctx context.Context, r *depsRun, packages []string, force bool) error {
	cfg := in.opt.deps
	pkgJSON, _ := in.root.ReadFile(path.Join(r.name, "package.json"))
	lock, _ := in.root.ReadFile(path.Join(r.name, "package-lock.json"))
	shrink, _ := in.root.ReadFile(path.Join(r.name, "npm-shrinkwrap.json"))
	stamp := stampOf([]byte("node"), []byte(strings.Join(packages, "\n")), pkgJSON, lock, shrink)
	final := path.Join(r.name, nodeModules)
	if !force && in.upToDate(final, stamp, depsStamp) {
		r.add(StepNode, DepsUpToDate, "%s is up to date", nodeModules)
		r.logf(StepNode, 70, "%s is up to date", nodeModules)
		return nil
	}
	fail := func(err error) error {
		if r.unavailable(StepNode, err, "the npm packages") {
			return nil
		}
		r.add(StepNode, DepsFailed, "%v", err)
		return err
	}
	o, err := in.begin(ctx)
	if err != nil {
		return err
	}
	defer o.end()
	work := o.staging("node")
	if err := in.root.Mkdir(work, dirPerm); err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	if rep, err := archive.CopyDir(ctx, in.path(r.name), in.path(work), in.opt.limits); err != nil {
		return fail(fmt.Errorf("installer: copying %s for npm: %w", r.name, checkError(rep, err)))
	}
	// The skill's own npm configuration is not the host's: it could point
	// npm at another registry, git program or script shell. Its lock files
	// hold "resolved" URLs and paths npm would follow unchecked (a tarball
	// anywhere, a link out of the skill): npm resolves from the checked
	// package.json files instead. Both go wherever they are in the copy.
	dropped, err := in.removeNamed(work, func(name string) bool {
		switch name {
		case ".npmrc", ".yarnrc", ".yarnrc.yml", "package-lock.json", "npm-shrinkwrap.json":
			return true
		}
		return false
	})
	if err != nil {
		return fail(fmt.Errorf("installer: %w", err))
	}
	for _, f := range dropped {
		r.logf(StepNode, 55, "not using the skill's %s", strings.TrimPrefix(f, work+"/"))
	}
	// A package.json keeps npm from looking for a project in the folders
	// above, which could be the host's own.
	if len(pkgJSON) == 0 {
		if err := in.root.WriteFile(path.Join(work, "package.json"), []byte(`{"name":"skillkit-deps","private":true}`+"\n"), 0o644); err != nil {
			return fmt.Errorf("installer: %w", err)
		}
	}
	args := []string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev", "--workspaces=false"}
	args = append(args, cfg.npmArgs...)
	args = append(args, packages...)
	// git dependencies are refused in the package.json files we check, but
	// npm meets others deeper in the tree (a registry package's own): a git
	// program that cannot run makes every one of them fail.
	env := cfg.commandEnv()
	for k := range env {
		if strings.EqualFold(k, "npm_config_git") {
			delete(env, k)
		}
	}
	env["npm_config_git"] = in.path(o.staging("no-git", "git"))
	if err := in.depsCommand(ctx, r, StepNode, 60, executor.Command{Path: cfg.npm, Args: args, Dir: in.path(work), Env: env}); err != nil {
		return fail(err)
	}
	built := path.Join(work, nodeModules)
	if ok, err := in.exists(built); err != nil {
		return fail(fmt.Errorf("installer: %w", err))
	} else if !ok {
		if err := in.root.Mkdir(built, dirPerm); err != nil {
			return fail(fmt.Errorf("installer: %w", err))
		}
	}
	if err := in.root.WriteFile(path.Join(built, depsStamp), []byte(stamp), 0o644); err != nil {
		return fail(fmt.Errorf("installer: %w", err))
	}
	if err := in.placeDir(o, built, final); err != nil {
		return fail(err)
	}
	r.add(StepNode, DepsInstalled, "%s built by npm install", nodeModules)
	return nil
}

// depsDotnet runs dotnet restore on the skill's project in a copy of the
// skill in the staging area, without the skill's NuGet configuration files
// (nuget.config in any case, anywhere in the skill): NuGet reads them from
// the project's folder up, and they could point restore at other package
// sources, credentials or a global packages folder of the skill's choosing.
// Restore fills the host user's NuGet packages folder, which is what the
// skill's build needs; what it writes beside the project (obj/) is thrown
// away with the copy, so the skill's files and fingerprint do not change.
// The project's own MSBuild files still run: see InstallDeps.
func (in *Installer) depsDotnet(ctx context.Context, r *depsRun, project string) error {
	fail := func(err error) error {
		if r.unavailable(StepDotnet, err, "the .NET project "+project) {
			return nil
		}
		r.add(StepDotnet, DepsFailed, "%v", err)
		return err
	}
	o, err := in.begin(ctx)
	if err != nil {
		return err
	}
	defer o.end()
	work := o.staging("dotnet")
	if err := in.root.Mkdir(work, dirPerm); err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	if rep, err := archive.CopyDir(ctx, in.path(r.name), in.path(work), in.opt.limits); err != nil {
		return fail(fmt.Errorf("installer: copying %s for dotnet restore: %w", r.name, checkError(rep, err)))
	}
	dropped, err := in.removeNamed(work, isNuGetConfig)
	if err != nil {
		return fail(fmt.Errorf("installer: %w", err))
	}
	for _, f := range dropped {
		r.logf(StepDotnet, 72, "not using the skill's %s", strings.TrimPrefix(f, work+"/"))
	}
	err = in.depsCommand(ctx, r, StepDotnet, 75, executor.Command{
		Path: in.opt.deps.dotnet, Args: []string{"restore", filepath.FromSlash(project)}, Dir: in.path(work),
	})
	if err != nil {
		return fail(err)
	}
	r.add(StepDotnet, DepsInstalled, "restored %s", project)
	return nil
}

// isNuGetConfig reports whether a file name is one NuGet reads its
// configuration from.
func isNuGetConfig(name string) bool { return strings.EqualFold(name, "nuget.config") }

// removeNamed removes every regular file or link under dir (a slash path
// in the skills folder) whose name match accepts, and returns their paths.
func (in *Installer) removeNamed(dir string, match func(string) bool) ([]string, error) {
	var found []string
	err := fs.WalkDir(in.root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && match(d.Name()) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range found {
		if err := in.root.Remove(p); err != nil {
			return nil, err
		}
	}
	return found, nil
}

// runSetup runs the setup script in the skill folder, with the skill's
// .venv/bin and node_modules/.bin first on PATH.
func (in *Installer) runSetup(ctx context.Context, r *depsRun, s *skill.Skill, script string) error {
	dir := in.path(r.name)
	env := in.opt.deps.commandEnv()
	var bins []string
	for _, b := range []string{path.Join(venvDir, path.Dir(venvPython())), path.Join(nodeModules, ".bin")} {
		if ok, _ := in.exists(path.Join(r.name, b)); ok {
			bins = append(bins, filepath.Join(dir, filepath.FromSlash(b)))
		}
	}
	if len(bins) > 0 {
		env["PATH"] = strings.Join(append(bins, env["PATH"]), string(os.PathListSeparator))
	}
	if ok, _ := in.exists(path.Join(r.name, venvDir)); ok {
		env["VIRTUAL_ENV"] = filepath.Join(dir, venvDir)
	}
	prog, args := scriptCommand(script, in.opt.deps)
	err := in.accounted(ctx, r.name, func() error {
		return in.depsCommand(ctx, r, StepSetup, 92, executor.Command{Path: prog, Args: args, Dir: dir, Env: env, Timeout: SetupTimeout})
	})
	if err != nil {
		r.add(StepSetup, DepsFailed, "%s: %v", script, err)
		if mt := (*missingTool)(nil); errors.As(err, &mt) {
			return fmt.Errorf("%w: setup: %s is needed to run %s", ErrDeps, mt.program, script)
		}
		return err
	}
	r.add(StepSetup, DepsRan, "%s", script)
	return nil
}

// scriptCommand picks the interpreter of a setup script by its extension:
// bash for .sh and scripts without one (POSIX), PowerShell for .ps1, cmd
// for .cmd and .bat, Python for .py, node for .js.
func scriptCommand(script string, cfg depsConfig) (string, []string) {
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
// setup script's downloads). When the folder
// matched its recorded fingerprint before, the record takes the new one,
// so the installer's own writes do not look like a person's edits
// (FINGERPRINT_CHANGED, ErrModified on update).
func (in *Installer) accounted(ctx context.Context, name string, run func() error) error {
	rec, err := in.getRecord(ctx, name)
	if err != nil {
		return err
	}
	matched := false
	if rec != nil && strings.HasPrefix(rec.Fingerprint, registry.FingerprintPrefix) {
		fp, err := in.fingerprintInstalled(ctx, name)
		matched = err == nil && fp == rec.Fingerprint
	}
	runErr := run()
	if !matched {
		return runErr
	}
	fp, err := in.fingerprintInstalled(context.WithoutCancel(ctx), name)
	if err == nil && fp != rec.Fingerprint {
		rec.Fingerprint = fp
		err = in.opt.reg.Put(context.WithoutCancel(ctx), *rec)
	}
	if err != nil {
		err = fmt.Errorf("installer: recording the fingerprint after %s changed its files: %w", name, err)
	}
	return errors.Join(runErr, err)
}

// checkSystemDep checks one system dependency for InstallDeps: its program
// (the check command's, or its name without one) must be on the tools'
// PATH, and then its check command (argv), if any, must exit 0 within
// CheckTimeout, run in the skill folder dir. A check command is a program
// the skill chose, run with arguments it chose: only InstallDeps, an
// explicit host action, runs one (never the DepsChecker). It returns a
// SYSTEM_DEP_MISSING warning, or nil, and a log line.
func checkSystemDep(ctx context.Context, runner executor.Runner, cfg depsConfig, s *skill.Skill, dir string, dep skill.SystemDep, argv []string) (*diagnostics.Diagnostic, string) {
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
