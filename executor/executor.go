package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/internal/schema"
	"golang.org/x/sync/semaphore"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// Defaults of [Options]. Zero never means "unlimited".
const (
	DefaultMaxTimeout            = 5 * time.Minute
	DefaultMaxConcurrent         = 8
	DefaultMaxConcurrentPerSkill = 4
	DefaultMaxInputBytes         = 1 << 20 // 1 MiB
	DefaultMaxOutputBytes        = DefaultMaxStdout
	// StderrTailChars is how much of a failed skill's standard error its
	// error message and audit line keep: the last 500 characters.
	StderrTailChars = 500
)

// Skills finds a skill by name; the loader's Loader and Snapshot implement
// it.
type Skills interface {
	Get(name string) (*skill.Skill, bool)
}

// Options tune an [Executor]. A nil *Options, or a zero field, means the
// default.
type Options struct {
	// Runner runs the skill's program; nil means a [LocalRunner] with the
	// default isolation, whose warning (if it cannot isolate) goes to
	// Logger. Use a [SandboxRunner] to confine skill code further.
	Runner Runner
	// EnvWhitelist names the host variables passed on; nil means
	// DefaultEnvWhitelist(). An empty non-nil slice passes none. The
	// skill's own variables win over whitelisted ones of the same name.
	EnvWhitelist []string
	// LookupEnv reads the host's value of a whitelisted variable; nil means
	// os.LookupEnv.
	LookupEnv func(name string) (string, bool)
	// MaxTimeout caps the timeout a skill's config asks for; zero means
	// DefaultMaxTimeout.
	MaxTimeout time.Duration
	// MaxConcurrent bounds the executions running at once, over all
	// skills; MaxConcurrentPerSkill bounds them per skill. Callers beyond
	// the bound wait for a slot (or for ctx). Zero means the default.
	MaxConcurrent         int64
	MaxConcurrentPerSkill int64
	// MaxInputBytes caps the input JSON; MaxOutputBytes the standard output
	// read as the skill's result (more is ErrBadOutput). Zero means the
	// default (1 MiB each).
	MaxInputBytes  int64
	MaxOutputBytes int64
	// Logger receives one audit line per execution (see the package
	// documentation); nil means none.
	Logger *slog.Logger
	// CheckApproved, when set, is asked before anything of a skill runs
	// and before its environment (its secrets) is resolved, in Execute and
	// Check: an error refuses the run and is returned as it is (wrapped).
	// A Kit sets it to compare the skill's files with the fingerprint a
	// person or the trust policy approved (registry.Verifier,
	// SKILL_MODIFIED).
	CheckApproved func(ctx context.Context, s *skill.Skill) error
}

// Executor runs compute-entry skills under the JSON protocol of
// docs/protocol.md. It is safe for concurrent use.
type Executor struct {
	skills     Skills
	runner     Runner
	env        EnvResolver
	whitelist  []string
	lookupEnv  func(string) (string, bool)
	maxTimeout time.Duration
	maxInput   int64
	maxOutput  int64
	logger     *slog.Logger
	limits     *limiter
	schemas    *schemas
	approved   func(context.Context, *skill.Skill) error
}

// New returns an Executor over skills. env resolves each skill's own
// environment (its secrets, for example a *secrets.Vault); nil means skills
// get no variables of their own, only the whitelisted ones.
func New(skills Skills, env EnvResolver, opts *Options) *Executor {
	if opts == nil {
		opts = &Options{}
	}
	e := &Executor{
		skills:     skills,
		runner:     opts.Runner,
		env:        env,
		whitelist:  opts.EnvWhitelist,
		lookupEnv:  opts.LookupEnv,
		maxTimeout: positive(opts.MaxTimeout, DefaultMaxTimeout),
		maxInput:   positive(opts.MaxInputBytes, DefaultMaxInputBytes),
		maxOutput:  positive(opts.MaxOutputBytes, DefaultMaxOutputBytes),
		logger:     opts.Logger,
		schemas:    newSchemas(),
		approved:   opts.CheckApproved,
	}
	if e.runner == nil {
		e.runner = &LocalRunner{Logger: opts.Logger}
	}
	if e.whitelist == nil {
		e.whitelist = DefaultEnvWhitelist()
	}
	if e.lookupEnv == nil {
		e.lookupEnv = os.LookupEnv
	}
	e.limits = newLimiter(positive(opts.MaxConcurrent, DefaultMaxConcurrent), positive(opts.MaxConcurrentPerSkill, DefaultMaxConcurrentPerSkill))
	return e
}

func positive[T int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Outcome is the result of one execution; its JSON form is what the model
// receives (docs/protocol.md).
type Outcome struct {
	Skill string
	// Output is the JSON value the skill wrote, on success.
	Output json.RawMessage
	// Error says why the execution failed, for the model and the user;
	// empty on success. It equals the returned error's message.
	Error    string
	Duration time.Duration // of the skill's process; zero when none ran
	// ExitCode is the process's exit status; -1 when it was killed or never
	// started.
	ExitCode int
}

// Success reports whether the skill ran and returned valid output.
func (o Outcome) Success() bool { return o.Error == "" }

// MarshalJSON writes {"success", "output" or "error", "duration_ms",
// "exit_code"}: what an execute_skill tool returns to the model.
func (o Outcome) MarshalJSON() ([]byte, error) {
	type wire struct {
		Success    bool            `json:"success"`
		Output     json.RawMessage `json:"output,omitempty"`
		Error      string          `json:"error,omitempty"`
		DurationMS int64           `json:"duration_ms"`
		ExitCode   int             `json:"exit_code"`
	}
	return json.Marshal(wire{o.Success(), o.Output, o.Error, o.Duration.Milliseconds(), o.ExitCode})
}

// plan is everything Execute needs to start the skill.
type plan struct {
	skill *skill.Skill
	dir   string
	path  string
	args  []string
}

// Check reports whether the named skill could run now, without running it:
// it exists, is a compute-entry skill with a valid config, lies on disk,
// its entrypoint stays inside its folder, its packages are installed
// (.venv, node_modules), its interface schemas compile, and its
// environment resolves with a value for every required variable. The error
// is the one Execute would return; a tool uses Check to offer only the
// skills that can run.
func (e *Executor) Check(ctx context.Context, name string) error {
	p, err := e.plan(name)
	if err != nil {
		return err
	}
	if err := e.checkApproved(ctx, p.skill); err != nil {
		return err
	}
	for _, output := range []bool{false, true} {
		if _, err := e.schema(p.skill, output); err != nil {
			return err
		}
	}
	_, _, err = e.environment(ctx, p.skill)
	return err
}

// checkApproved asks Options.CheckApproved about s.
func (e *Executor) checkApproved(ctx context.Context, s *skill.Skill) error {
	if e.approved == nil {
		return nil
	}
	if err := e.approved(ctx, s); err != nil {
		return fmt.Errorf("executor: %w", err)
	}
	return nil
}

// schema returns the compiled interface.input or interface.output of s,
// nil when not declared.
func (e *Executor) schema(s *skill.Skill, output bool) (*schema.Schema, error) {
	raw, which := s.Config.Interface.Input, "input"
	if output {
		raw, which = s.Config.Interface.Output, "output"
	}
	sch, err := e.schemas.get(s.Name, output, raw)
	if err != nil {
		return nil, &NotRunnableError{Skill: s.Name, Code: diagnostics.ConfigParseError,
			Reason: fmt.Sprintf("interface.%s is not a valid JSON Schema: %v", which, err)}
	}
	return sch, nil
}

func (e *Executor) plan(name string) (*plan, error) {
	if e.skills == nil {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	s, ok := e.skills.Get(name)
	if !ok || s == nil {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if s.Class != skill.ClassComputeEntry {
		return nil, fmt.Errorf("%w: %s is a %s skill", ErrNotComputeEntry, s.Name, s.Class)
	}
	notRunnable := func(code diagnostics.Code, format string, args ...any) (*plan, error) {
		return nil, &NotRunnableError{Skill: s.Name, Code: code, Reason: fmt.Sprintf(format, args...)}
	}
	cfg := s.Config
	switch {
	case cfg == nil || s.Diagnostics.Has(diagnostics.ConfigParseError):
		return notRunnable(diagnostics.ConfigParseError, "%s is invalid", skill.ConfigFileName)
	case !s.Runnable():
		return notRunnable(diagnostics.EntrypointMissing, "the entrypoint %s does not exist", cfg.Entrypoint)
	case s.DiskDir == "":
		return notRunnable(diagnostics.ReadError, "the skill is not in a folder on disk (an embedded skill), so its code cannot run")
	}
	dir, err := filepath.Abs(s.DiskDir)
	if err != nil {
		return notRunnable(diagnostics.ReadError, "%v", err)
	}
	entry := filepath.FromSlash(cfg.Entrypoint)
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return notRunnable(diagnostics.ReadError, "the skill folder: %v", err)
	}
	realEntry, err := filepath.EvalSymlinks(filepath.Join(dir, entry))
	if err != nil {
		return notRunnable(diagnostics.EntrypointMissing, "the entrypoint %s: %v", cfg.Entrypoint, err)
	}
	if !within(realDir, realEntry) || realEntry == realDir {
		return notRunnable(diagnostics.SymlinkEscape, "the entrypoint %s leads outside the skill folder", cfg.Entrypoint)
	}
	p := &plan{skill: s, dir: dir}
	declaresPython, declaresNode := s.DeclaredDeps()
	switch cfg.Runtime {
	case skill.RuntimePython:
		venv := filepath.Join(dir, ".venv", "bin", "python")
		if runtime.GOOS == "windows" {
			venv = filepath.Join(dir, ".venv", "Scripts", "python.exe")
		}
		switch _, err := os.Stat(venv); {
		case err == nil:
			p.path = venv
		case declaresPython:
			return notRunnable(diagnostics.VenvMissing, "the skill declares Python dependencies but has no %s; install them first", filepath.Join(".venv", filepath.Base(filepath.Dir(venv)), filepath.Base(venv)))
		case runtime.GOOS == "windows":
			p.path = "python"
		default:
			p.path = "python3"
		}
		p.args = []string{entry}
	case skill.RuntimeNode:
		if st, err := os.Stat(filepath.Join(dir, "node_modules")); declaresNode && (err != nil || !st.IsDir()) {
			return notRunnable(diagnostics.DepsMissing, "the skill declares npm packages but has no node_modules; install them first")
		}
		p.path, p.args = "node", []string{entry}
	case skill.RuntimeBash:
		p.path, p.args = "bash", []string{entry}
	case skill.RuntimeDotnet:
		p.path, p.args = "dotnet", []string{"run", "--project", entry}
	default:
		return notRunnable(diagnostics.ConfigParseError, "unknown runtime %q", cfg.Runtime)
	}
	return p, nil
}

// Execute runs the compute-entry skill name with input, a JSON object
// (nil, empty or null mean {}):
//
//  1. The input is checked against the skill's interface.input, with the
//     defaults of missing properties filled in; every problem is reported
//     with its JSON pointer ([*SchemaError], ErrInvalidInput).
//  2. The skill's env is resolved and the environment built: the
//     whitelisted host variables plus the skill's own.
//  3. The program starts in the skill folder with the input on standard
//     input, under the skill's timeout (default 30 s, capped by
//     MaxTimeout), once a concurrency slot is free.
//  4. Standard output must hold exactly one JSON value (checked against
//     interface.output when declared); it becomes Outcome.Output.
//
// On failure the error is one of the typed errors of this package (or wraps
// ctx.Err()), and Outcome.Error holds its message. One audit line goes to
// the logger either way.
func (e *Executor) Execute(ctx context.Context, name string, input json.RawMessage) (Outcome, error) {
	out := Outcome{Skill: name, ExitCode: -1}
	var stderrTail string
	finish := func(err error) (Outcome, error) {
		if err != nil {
			out.Output = nil
			out.Error = err.Error()
		}
		e.audit(ctx, out, err, stderrTail)
		return out, err
	}

	p, err := e.plan(name)
	if err != nil {
		return finish(err)
	}
	s := p.skill
	out.Skill = s.Name
	if err := e.checkApproved(ctx, s); err != nil {
		return finish(err)
	}
	stdin, err := e.input(s, input)
	if err != nil {
		return finish(err)
	}
	env, secrets, err := e.environment(ctx, s)
	if err != nil {
		return finish(err)
	}
	release, err := e.limits.acquire(ctx, s.Name)
	if err != nil {
		return finish(fmt.Errorf("executor: skill %s: waiting for a free slot: %w", s.Name, err))
	}
	timeout := positive(s.Config.Timeout, skill.DefaultTimeout)
	timeout = min(timeout, e.maxTimeout)
	res, err := e.runner.Run(ctx, Command{
		Path: p.path, Args: p.args, Dir: p.dir, Env: env, Stdin: stdin,
		Timeout: timeout, MaxStdout: e.maxOutput, MaxStderr: DefaultMaxStderr,
		Confine: ConfinementOf(s, homeDir()),
	})
	release()
	out.Duration, out.ExitCode = res.Duration, res.ExitCode
	stderrTail = tail(res.Stderr, secrets)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return finish(&NotRunnableError{Skill: s.Name, Code: diagnostics.RuntimeUnavailable,
			Reason: fmt.Sprintf("%s is not installed (not found in PATH)", p.path)})
	case err != nil:
		return finish(fmt.Errorf("executor: skill %s: %w", s.Name, err))
	case res.TimedOut:
		msg := fmt.Sprintf("skill %s ran longer than its timeout of %v and was stopped", s.Name, timeout)
		if stderrTail != "" {
			msg += "; stderr: " + stderrTail
		}
		return finish(fmt.Errorf("%w: %s", ErrTimeout, msg))
	case res.ExitCode != 0:
		return finish(&ExitError{Skill: s.Name, ExitCode: res.ExitCode, Stderr: stderrTail})
	}
	output, err := e.output(s, res, secrets)
	if err != nil {
		return finish(err)
	}
	stderrTail = ""
	out.Output = output
	return finish(nil)
}

// input validates the input and returns it as the bytes for stdin.
func (e *Executor) input(s *skill.Skill, input json.RawMessage) ([]byte, error) {
	if int64(len(input)) > e.maxInput {
		return nil, fmt.Errorf("%w for skill %s: %d bytes, over the limit of %d", ErrInvalidInput, s.Name, len(input), e.maxInput)
	}
	var v any = map[string]any{}
	if trimmed := bytes.TrimSpace(input); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		var err error
		if v, err = schema.Decode(trimmed); err != nil {
			return nil, fmt.Errorf("%w for skill %s: not JSON: %v", ErrInvalidInput, s.Name, err)
		}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, &SchemaError{Skill: s.Name, Problems: []Problem{{Message: "want a JSON object, got " + jsonKind(v)}}}
	}
	sch, err := e.schema(s, false)
	if err != nil {
		return nil, err
	}
	if sch != nil {
		sch.ApplyDefaults(v)
		if problems := sch.Validate(v); problems != nil {
			return nil, &SchemaError{Skill: s.Name, Problems: problems}
		}
	}
	return encodeJSON(v)
}

// output reads the skill's result from its standard output. What an error
// quotes of it (its start, the output schema's problems) has the skill's
// own secret values redacted, as the stderr tail has: the error reaches the
// model.
func (e *Executor) output(s *skill.Skill, res Result, secrets map[string]string) (json.RawMessage, error) {
	redact := func(s string) string { return s }
	if r := redactor(secrets); r != nil {
		redact = r.Replace
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: skill %s %s", ErrBadOutput, s.Name, redact(fmt.Sprintf(format, args...)))
	}
	if res.StdoutTruncated {
		return nil, bad("wrote more than %d bytes to stdout", e.maxOutput)
	}
	data := bytes.TrimSpace(res.Stdout)
	if len(data) == 0 {
		return nil, bad("wrote nothing to stdout; it must write one JSON value")
	}
	if !utf8.Valid(data) {
		return nil, bad("wrote stdout that is not UTF-8")
	}
	v, err := schema.Decode(data)
	if err != nil {
		// Redacted before it is cut, so no part of a secret survives the cut.
		return nil, bad("did not write one JSON value to stdout (%v); stdout begins: %s", err, headChars(redact(string(data)), 200))
	}
	sch, err := e.schema(s, true)
	if err != nil {
		return nil, err
	}
	if sch != nil {
		if problems := sch.Validate(v); problems != nil {
			// Problems quote output values and property names.
			for i := range problems {
				problems[i].Pointer, problems[i].Message = redact(problems[i].Pointer), redact(problems[i].Message)
			}
			return nil, &SchemaError{Skill: s.Name, Output: true, Problems: problems}
		}
	}
	return json.RawMessage(bytes.Clone(data)), nil
}

// environment is the whitelisted host variables plus the skill's own; it
// also returns the skill's own values, to redact them from error text.
func (e *Executor) environment(ctx context.Context, s *skill.Skill) (env, own map[string]string, err error) {
	env = make(map[string]string, len(e.whitelist)+len(s.Env))
	for _, name := range e.whitelist {
		if v, ok := e.lookupEnv(name); ok {
			env[name] = v
		}
	}
	own, err = skillEnv(ctx, e.env, s)
	if err != nil {
		return nil, nil, err
	}
	var missing []string
	for _, ev := range s.Env {
		if _, ok := own[ev.Name]; ev.Required && !ok && !slices.Contains(missing, ev.Name) {
			missing = append(missing, ev.Name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, nil, &NotRunnableError{Skill: s.Name, Code: diagnostics.EnvNotConfigured, Env: missing,
			Reason: fmt.Sprintf("no value for the required environment variable %s: a person must save one among the skill's secrets", strings.Join(missing, ", "))}
	}
	for k, v := range own {
		env[k] = v
	}
	return env, own, nil
}

// audit writes the execution's audit line: never the input, the output or
// an environment value.
func (e *Executor) audit(ctx context.Context, out Outcome, err error, stderrTail string) {
	if e.logger == nil {
		return
	}
	attrs := []slog.Attr{
		slog.String("skill", out.Skill),
	}
	if agent := AgentFrom(ctx); agent != "" {
		attrs = append(attrs, slog.String("agent", agent))
	}
	attrs = append(attrs,
		slog.Bool("success", err == nil),
		slog.Duration("duration", out.Duration),
		slog.Int("exit_code", out.ExitCode),
	)
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
		attrs = append(attrs, slog.String("error", errorKind(err)))
		var se *SchemaError
		if errors.As(err, &se) && len(se.Problems) > 0 {
			ptrs := make([]string, len(se.Problems))
			for i, p := range se.Problems {
				ptrs[i] = p.Pointer
			}
			attrs = append(attrs, slog.Any("pointers", ptrs))
		}
		if stderrTail != "" {
			attrs = append(attrs, slog.String("stderr", stderrTail))
		}
	}
	e.logger.LogAttrs(ctx, level, "skill executed", attrs...)
}

// errorKind names the failure for the audit line, without its message
// (which may quote input values).
func errorKind(err error) string {
	var nr *NotRunnableError
	switch {
	case errors.As(err, &nr):
		return "not_runnable:" + string(nr.Code)
	case errors.Is(err, ErrNotFound):
		return "not_found"
	case errors.Is(err, ErrNotComputeEntry):
		return "not_compute_entry"
	case errors.Is(err, ErrInvalidInput):
		return "invalid_input"
	case errors.Is(err, ErrTimeout):
		return "timeout"
	case errors.Is(err, ErrBadOutput):
		return "bad_output"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "canceled"
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return "exit"
	}
	return "error"
}

// tail returns the last StderrTailChars characters of stderr, secrets
// redacted, white space trimmed.
func tail(stderr []byte, secrets map[string]string) string {
	s := strings.ToValidUTF8(string(stderr), "\uFFFD")
	if r := redactor(secrets); r != nil {
		s = r.Replace(s)
	}
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > StderrTailChars {
		for range n - StderrTailChars {
			_, size := utf8.DecodeRuneInString(s)
			s = s[size:]
		}
		s = "…" + s
	}
	return s
}

// headChars returns the first n characters of s, with an ellipsis when cut.
func headChars(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// limiter bounds executions overall and per skill. Per-skill semaphores
// exist only while in use, so the map stays as small as the executions in
// flight.
type limiter struct {
	all      *semaphore.Weighted
	perSkill int64
	mu       sync.Mutex
	skills   map[string]*skillSlot
}

type skillSlot struct {
	sem   *semaphore.Weighted
	users int
}

func newLimiter(all, perSkill int64) *limiter {
	return &limiter{all: semaphore.NewWeighted(all), perSkill: perSkill, skills: map[string]*skillSlot{}}
}

// acquire waits for a slot of the skill, then one overall: a caller
// waiting for a busy skill never holds an overall slot.
func (l *limiter) acquire(ctx context.Context, name string) (release func(), err error) {
	l.mu.Lock()
	slot := l.skills[name]
	if slot == nil {
		slot = &skillSlot{sem: semaphore.NewWeighted(l.perSkill)}
		l.skills[name] = slot
	}
	slot.users++
	l.mu.Unlock()
	done := func() {
		l.mu.Lock()
		if slot.users--; slot.users == 0 {
			delete(l.skills, name)
		}
		l.mu.Unlock()
	}
	if err := slot.sem.Acquire(ctx, 1); err != nil {
		done()
		return nil, err
	}
	if err := l.all.Acquire(ctx, 1); err != nil {
		slot.sem.Release(1)
		done()
		return nil, err
	}
	return func() {
		l.all.Release(1)
		slot.sem.Release(1)
		done()
	}, nil
}
