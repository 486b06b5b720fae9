package skillkit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// Options configure [Open]. Only Dir is required; every other field has a
// safe default, and each part can be replaced by the host's own.
type Options struct {
	// Dir is the skills folder: the first source and the only writable one.
	// Installs land here, and its .skillhub/ holds the registry and the
	// sealed secrets. It is created when missing.
	Dir string
	// DirName names Dir's source in diagnostics and Skill.Source; default
	// "skills".
	DirName string
	// Sources are further read-only sources after Dir, in precedence order:
	// a user folder, skills bundled into the binary with embed.FS, ...
	Sources []loader.Source
	// Loader tunes discovery (limits, strictness, extra checkers).
	Loader *loader.Options
	// Registry records what is installed; nil means the .skillhub/ files in
	// Dir (registry.NewFSStore).
	Registry registry.Store
	// Secrets holds the sealed secret values; nil means .skillhub/secrets/
	// in Dir (secrets.NewFSStore).
	Secrets secrets.Store
	// Keyring seals and opens secrets; nil means SKILL_SECRET_KEY or
	// APP_SECRET, read on first use, so a Kit opens without a key and
	// fails only when a secret is used.
	Keyring *secrets.Keyring
	// Installer tunes installs (allowed git hosts, file:// URLs, limits, a
	// Scanner, Progress events for a host's UI, the GitHub API client). Its
	// Registry and Purge are ignored: the Kit passes its registry and its
	// vault's DeleteSkill.
	Installer *installer.Options
	// Executor tunes the execution of compute-entry skills (runner, timeouts,
	// concurrency, environment whitelist). Each skill gets its own secrets
	// from the Kit's vault.
	Executor *executor.Options
	// Getenv reads the host's environment (the secret key); nil means
	// os.Getenv.
	Getenv func(string) string
	// Logger receives audit lines (executions, secret changes, installs)
	// and scan summaries; nil discards them.
	Logger *slog.Logger
	// DisableSkillManage withholds skill_manage from every agent. By default
	// agents may write skills of their own into Dir (seed 002 §4.2); they can
	// never run code through it or change installed skills unless
	// Installer.AgentMayChangeInstalled says so.
	DisableSkillManage bool
	// Watch, when positive, rescans the sources at this interval in the
	// background until Close, so skills added or edited by hand appear
	// without a restart. Zero means no watching: call Rescan.
	Watch time.Duration
	// OnChange is called (from the watching goroutine) after a background
	// rescan that changed something.
	OnChange func(loader.Changes)
}

// Kit is skillkit wired for one skills folder: loader, registry, secrets
// vault, executor and the agent tools. It is safe for concurrent use. The
// parts are reachable through accessors for whatever the Kit's methods do
// not cover.
type Kit struct {
	dir       string
	loader    *loader.Loader
	registry  registry.Store
	vault     *secrets.Vault
	executor  *executor.Executor
	installer *installer.Installer
	env       *executor.EnvProvider
	resolver  *tools.Resolver

	stopWatch context.CancelFunc
	watching  chan struct{}
}

// Open wires a Kit for opts.Dir and scans its skills once.
func Open(ctx context.Context, opts Options) (*Kit, error) {
	if opts.Dir == "" {
		return nil, errors.New("skillkit: Options.Dir is required")
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	k := &Kit{dir: dir, registry: opts.Registry}
	if k.registry == nil {
		k.registry = registry.NewFSStore(dir)
	}
	store := opts.Secrets
	if store == nil {
		store = secrets.NewFSStore(dir)
	}
	k.vault = secrets.NewVault(store, &secrets.Options{Keyring: opts.Keyring, Getenv: opts.Getenv, Logger: opts.Logger})

	iopts := installer.Options{}
	if opts.Installer != nil {
		iopts = *opts.Installer
	}
	iopts.Registry = k.registry
	iopts.Purge = k.vault.DeleteSkill
	if iopts.Logger == nil {
		iopts.Logger = opts.Logger
	}
	// The installer first: it settles what a crashed install left in the
	// skills folder before the loader reads it.
	k.installer, err = installer.New(ctx, dir, &iopts)
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}

	lopts := loader.Options{}
	if opts.Loader != nil {
		lopts = *opts.Loader
	}
	lopts.Checkers = append([]loader.Checker{registry.FingerprintChecker{Store: k.registry}, k.vault.EnvChecker(), k.installer.DepsChecker()}, lopts.Checkers...)
	if lopts.Logger == nil {
		lopts.Logger = opts.Logger
	}
	dirName := opts.DirName
	if dirName == "" {
		dirName = "skills"
	}
	sources := append([]loader.Source{{Name: dirName, Dir: dir, Writable: true}}, opts.Sources...)
	k.loader, err = loader.New(ctx, sources, k.registry, &lopts)
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}

	eopts := executor.Options{}
	if opts.Executor != nil {
		eopts = *opts.Executor
	}
	if eopts.Logger == nil {
		eopts.Logger = opts.Logger
	}
	k.executor = executor.New(k.loader, k.vault, &eopts)
	k.env = executor.NewEnvProvider(k.loader, k.vault)
	k.resolver = &tools.Resolver{Loader: k.loader, Executor: k.executor}
	if !opts.DisableSkillManage {
		k.resolver.Manager = k.installer
	}
	if opts.Watch > 0 {
		wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		k.stopWatch, k.watching = cancel, make(chan struct{})
		onChange := opts.OnChange
		if onChange == nil {
			onChange = func(loader.Changes) {}
		}
		go func() {
			defer close(k.watching)
			_ = k.loader.Watch(wctx, &loader.WatchOptions{Interval: opts.Watch}, onChange)
		}()
	}
	return k, nil
}

// Toolset returns what one agent gets: the <available_skills> prompt
// section and the skill tools (read_skill, read_skill_file, execute_skill,
// and skill_manage unless Options.DisableSkillManage or the agent's
// DisableManage), from the current snapshot; see [tools.Resolver.Resolve].
func (k *Kit) Toolset(ctx context.Context, agent tools.Agent) (tools.Toolset, error) {
	if agent.Env.SkillEnv == nil {
		agent.Env.SkillEnv = k.skillEnv(ctx)
	}
	return k.resolver.Resolve(ctx, agent)
}

// skillEnv answers the visibility rule requires.env from the vault: a
// variable the skill will get when it runs (a saved secret, or a default of
// its env schema) counts as set. Each skill's status is read once per call
// of Toolset, however many variables it requires.
func (k *Kit) skillEnv(ctx context.Context) func(skillName, variable string) bool {
	var mu sync.Mutex
	known := map[string]map[string]bool{}
	return func(skillName, variable string) bool {
		mu.Lock()
		defer mu.Unlock()
		set, ok := known[skillName]
		if !ok {
			var schema []skill.EnvVar
			if s, found := k.loader.Get(skillName); found {
				schema = s.Env
			}
			st, _ := k.vault.Configured(ctx, skillName, schema) // unreadable: nothing counts as set
			set = map[string]bool{}
			for _, e := range st {
				set[e.Name] = e.HasValue || e.HasDefault
			}
			known[skillName] = set
		}
		return set[variable]
	}
}

// Doctor returns every diagnostic, sorted: the scan's (collisions, invalid
// skills, limits) and those of the checks run now (fingerprints changed
// since install, required secrets not configured, runtimes, virtual
// environments, node_modules and system programs missing).
func (k *Kit) Doctor(ctx context.Context) diagnostics.List {
	return k.loader.Doctor(ctx)
}

// EnvFor returns the environment a host's shell tool should add for a
// command run in dir: the skill's own variables when dir lies inside a skill
// folder on disk, else nothing (seed 000 §10.2).
func (k *Kit) EnvFor(ctx context.Context, dir string) (map[string]string, error) {
	return k.env.EnvFor(ctx, dir)
}

// Rescan reads the sources again and swaps in the new snapshot; see
// [loader.Loader.Rescan].
func (k *Kit) Rescan(ctx context.Context) (loader.Changes, error) {
	return k.loader.Rescan(ctx)
}

// Install installs a skill into the skills folder from GitHub, a git URL,
// a ZIP file or a local folder (see [installer.Installer.Install]) and
// rescans, so the next Toolset sees it.
func (k *Kit) Install(ctx context.Context, src installer.Source, opts *installer.InstallOptions) (*installer.Result, error) {
	res, err := k.installer.Install(ctx, src, opts)
	return res, k.rescanAfter(ctx, err)
}

// Update fetches an installed skill's recorded origin again and installs it;
// see [installer.Installer.Update].
func (k *Kit) Update(ctx context.Context, name string, opts *installer.UpdateOptions) (*installer.Result, error) {
	res, err := k.installer.Update(ctx, name, opts)
	return res, k.rescanAfter(ctx, err)
}

// UpdateAll updates every installed skill that is not pinned; see
// [installer.Installer.UpdateAll].
func (k *Kit) UpdateAll(ctx context.Context, opts *installer.UpdateOptions) ([]installer.UpdateResult, error) {
	res, err := k.installer.UpdateAll(ctx, opts)
	return res, k.rescanAfter(ctx, err)
}

// Uninstall removes an installed skill and its record; with Purge, its
// secrets too. See [installer.Installer.Uninstall].
func (k *Kit) Uninstall(ctx context.Context, name string, opts *installer.UninstallOptions) error {
	return k.rescanAfter(ctx, k.installer.Uninstall(ctx, name, opts))
}

// CheckUpdates says which installed skills have a newer version at their
// origin; see [installer.Installer.CheckUpdates].
func (k *Kit) CheckUpdates(ctx context.Context) ([]installer.UpdateStatus, error) {
	return k.installer.CheckUpdates(ctx)
}

// SetEnabled enables or disables a skill. A disabled skill stays installed
// and is hidden from every agent from the next Toolset on. Skills of the
// other sources (an embed.FS, a user folder) and skills in sub-folders of
// Dir, which the installer does not manage, can be disabled too: the Kit
// records the flag alone for them (a record without a source).
func (k *Kit) SetEnabled(ctx context.Context, name string, enabled bool) error {
	err := k.installer.SetEnabled(ctx, name, enabled)
	if !errors.Is(err, installer.ErrNotInstalled) {
		return err
	}
	if _, known := k.loader.Get(name); !known {
		return err
	}
	rec, getErr := k.registry.Get(ctx, name)
	if errors.Is(getErr, registry.ErrNotFound) {
		rec, getErr = registry.Record{Name: name}, nil
	}
	if getErr != nil {
		return getErr
	}
	rec.Enabled = enabled
	return k.registry.Put(ctx, rec)
}

// InstallDeps installs a skill's dependencies into its own folder (.venv,
// node_modules, dotnet restore), checks its system programs and, with
// opts.Setup, runs its setup script; see [installer.Installer.InstallDeps].
// Setup scripts run only when the host's user confirmed, and only for skills
// installed from GitHub, git or a ZIP.
func (k *Kit) InstallDeps(ctx context.Context, name string, opts *installer.DepsOptions) (*installer.DepsResult, error) {
	return k.installer.InstallDeps(ctx, name, opts)
}

// CreateSkill writes a new agent-authored skill (what skill_manage create
// does, for a host's own UI or API) and rescans; see
// [installer.Installer.Create] for the rules.
func (k *Kit) CreateSkill(ctx context.Context, name, content string, files map[string]string) (*installer.Result, error) {
	res, err := k.installer.Create(ctx, name, content, files)
	return res, k.rescanAfter(ctx, err)
}

// EditSkill changes an agent-authored skill and rescans; see
// [installer.Installer.Edit].
func (k *Kit) EditSkill(ctx context.Context, name, content string, files map[string]string, remove []string) (*installer.Result, error) {
	res, err := k.installer.Edit(ctx, name, content, files, remove)
	return res, k.rescanAfter(ctx, err)
}

// DeleteSkill removes an agent-authored skill and rescans; see
// [installer.Installer.Delete].
func (k *Kit) DeleteSkill(ctx context.Context, name string) error {
	return k.rescanAfter(ctx, k.installer.Delete(ctx, name))
}

// rescanAfter rescans the loader after an operation on the skills folder,
// whether it succeeded or not (a failed update leaves the old version, which
// a rescan finds unchanged), and returns the operation's error first.
func (k *Kit) rescanAfter(ctx context.Context, opErr error) error {
	_, err := k.loader.Rescan(context.WithoutCancel(ctx))
	if opErr != nil {
		return opErr
	}
	return err
}

// Dir is the skills folder, absolute.
func (k *Kit) Dir() string { return k.dir }

// Loader is the Kit's loader: snapshots, visibility, rescans, watching.
func (k *Kit) Loader() *loader.Loader { return k.loader }

// Registry is the record of what is installed.
func (k *Kit) Registry() registry.Store { return k.registry }

// Vault holds each skill's secrets.
func (k *Kit) Vault() *secrets.Vault { return k.vault }

// Executor runs compute-entry skills.
func (k *Kit) Executor() *executor.Executor { return k.executor }

// Installer installs, updates and removes skills; prefer the Kit's methods,
// which rescan afterwards.
func (k *Kit) Installer() *installer.Installer { return k.installer }

// Close stops the background watching (Options.Watch), waits for it to end
// and closes the installer. The Kit must not be used afterwards.
func (k *Kit) Close() error {
	if k.stopWatch != nil {
		k.stopWatch()
		<-k.watching
	}
	return k.installer.Close()
}
