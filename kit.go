package skillkit

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/provenance"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
	"github.com/skillkit-go/skillkit/usage"
	"github.com/skillkit-go/skillkit/wellknown"
)

// Options configure [Open]. Only Dir is required; every other field has a
// safe default, and each part can be replaced by the host's own. The
// *Options of the parts carry tuning only: what one part needs from another
// (the registry, the vault, the loader) the Kit passes itself.
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
	// Loader.OneShot suits a Kit that reads its skills once and exits (the
	// command line's list, prompt, doctor and read): it holds less memory,
	// and every later Rescan, installs' and agents' writes included, costs
	// a full scan. Watch refuses it.
	Loader *loader.Options
	// Registry records what is installed; nil means the .skillhub/ files in
	// Dir (registry.NewFSStore).
	Registry registry.Store
	// Secrets holds the sealed secret values; nil means .skillhub/secrets/
	// in Dir (secrets.NewFSStore).
	Secrets secrets.Store
	// Usage records which skills agents use (read_skill, read_skill_file,
	// execute_skill): the catalog keeps the used ones when it must leave
	// skills out, and "skillkit usage" reports them. A fleet passes its
	// database's (sqlstore.DB.Usage). Nil: see RecordUsage.
	Usage usage.Store
	// RecordUsage, when Usage is nil, records uses in .skillhub/usage.json
	// in Dir (usage.NewFile). Off by default, so that a Kit opened on a
	// folder under version control writes nothing there when agents only
	// read skills; then nothing is recorded and the catalog keeps skills
	// by precedence alone.
	RecordUsage bool
	// Packages makes the Kit one replica of several that share Registry
	// and Secrets (sqlstore on one database): every install, update and
	// agent's write also stores the skill's files there, by fingerprint,
	// and [Kit.Sync] places on this replica what the others installed
	// (docs/fleet.md). When it also keeps replicas
	// (registry.ReplicaStore), each sync records what this replica holds,
	// and Doctor reports the replicas that lag. It needs Registry. Nil: a
	// single host.
	Packages registry.PackageStore
	// History bounds how many versions of each skill the skills folder
	// keeps for [Kit.Rollback] (see [installer.Retention]); nil: the last
	// 10 and those younger than 30 days, within 64 MiB per skill.
	History *installer.Retention
	// FleetKey signs, on a replica (Packages), every install's and
	// uninstall's statement in the package store, so that other replicas
	// that trust its public key place and remove what it did
	// (docs/fleet.md). Nil: this replica signs nothing, and replicas that
	// trust keys refuse what it installs.
	FleetKey ed25519.PrivateKey
	// FleetTrust are the public keys of the installers whose statements
	// Sync accepts (FleetKey's own is always trusted). A row of the shared
	// registry that no trusted key signed — a package and fingerprint
	// replaced in the database, a record deleted without a signed removal
	// — is refused with registry.ErrUnsigned, and the replica keeps what
	// it holds.
	FleetTrust []ed25519.PublicKey
	// FleetUnsigned opts in to syncing on the shared database's word
	// alone when no key is trusted. Without it, and without FleetTrust or
	// FleetKey, Sync refuses every row (registry.ErrNoTrustedKeys).
	FleetUnsigned bool
	// Replica names this replica in the package store's record of
	// replicas: 1 to 128 ASCII letters, digits, '-', '_' and '.'. Empty
	// means an identity made at the first sync and kept in Dir
	// (ReplicaFile), so it survives restarts.
	Replica string
	// Keyring seals and opens secrets; nil means SKILL_SECRET_KEY or
	// APP_SECRET, read on first use, so a Kit opens without a key and
	// fails only when a secret is used.
	Keyring *secrets.Keyring
	// Limits bound what one skill may hold, for installs, agents' writes
	// and the copies dependency installs make; nil means the defaults.
	Limits *installer.Limits
	// Policy decides, from the trust of a skill's source and the security
	// scan's verdict, whether an install, update or agent's write is
	// allowed, needs a person's confirmation or is blocked. Nil:
	// scan.DefaultPolicy (community skills rated caution need a
	// confirmation, dangerous ones are blocked; agents' skills rated
	// caution wait in the proposal queue, dangerous ones are blocked).
	Policy scan.Policy
	// TrustedOrigins are the origins whose skills are trusted rather than
	// community: a git host, owner or repository, or a local folder (see
	// scan.TrustOf).
	TrustedOrigins []string
	// AllowDangerous lets a person confirm a skill the policy blocks. Off
	// by default: nothing, Force included, lets a blocked skill in.
	AllowDangerous bool
	// MCPServers are the commands (a program and its arguments) of the MCP
	// servers that update checks and updates may start for skills installed
	// from an MCP server. Records name their server's command, but records,
	// lock files and shared databases can be written by others, so a
	// record's command starts only when it equals one listed here or in
	// MCPServersFile; any other check or update fails with
	// mcpskills.ErrNotAllowed and starts nothing. Install takes its command
	// from the caller, not from this list.
	MCPServers [][]string
	// MCPServersFile names a file of further allowed server commands, one
	// mcp+stdio: URL a line (mcpskills.ParseAllowList), read at every check;
	// a missing file lists none. It must lie outside Dir and every source
	// folder, where skills and their writers could add to it. Empty: none.
	MCPServersFile string
	// PublishersFile names the host's publishers file
	// (provenance.ParsePublishers): an allowed-signers file (git's format),
	// the keys whose signed commits and tags make a git skill trusted, or
	// a JSON file naming such a file and the Sigstore identities, with
	// their trusted root, whose bundles make a ZIP archive trusted
	// (installer.Options.Publishers, which it sets; give one of the two).
	// It is read when the Kit opens; it, and the files it names (relative
	// to its folder), must lie outside Dir and every source folder. Empty:
	// no publishers (signatures are still checked, and a broken one
	// refused).
	PublishersFile string
	// Installer tunes installs and updates (allowed git hosts, file://
	// URLs, a Scanner, Progress events for a host's UI, the GitHub API
	// client).
	Installer *installer.Options
	// Deps tunes dependency installs (the tools' environment, a package
	// index, the Runner that runs them, Progress events).
	Deps *deps.Options
	// Authoring tunes what agents may write (AgentMayChangeInstalled,
	// ReviewAgentWrites — every agent write waits for a person's review —
	// and Progress events).
	Authoring *authoring.Options
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
	// agents may write skills of their own into Dir; they can never run code
	// through it or change installed skills unless
	// Authoring.AgentMayChangeInstalled says so.
	DisableSkillManage bool
	// HostDumpable keeps the host process dumpable. By default Open makes
	// it non-dumpable ([executor.ProtectHost], Linux), so that processes of
	// the host's user without CAP_SYS_PTRACE, such as the scripts the
	// host's own shell tool runs in a skill folder, cannot read its
	// environment (where SKILL_SECRET_KEY lies) or its memory. The cost:
	// no core dumps, and no debugger attaches without privileges
	// (docs/security.md).
	HostDumpable bool
	// Watch, when positive, keeps the skills current in the background
	// until Close ([loader.Loader.Watch]), so skills added or edited by
	// hand appear without a restart; it implies ScanOnOpen. On Linux the
	// folders on local disks are rescanned when the kernel notifies a change
	// (within about 50 ms); what notifications cannot cover is polled at
	// this interval. Zero means no watching: call Rescan.
	Watch time.Duration
	// OnChange is called (from the watching goroutine) after a background
	// rescan that changed something.
	OnChange func(loader.Changes)
	// ScanOnOpen scans the sources (after settling what crashed operations
	// left in Dir) before Open returns, so the first Toolset pays nothing
	// and bad sources fail Open. By default Open does no work: the first
	// call that needs the skills scans them.
	ScanOnOpen bool
}

// Kit is skillkit wired for one skills folder: the installer, the
// dependency installer and the agents' writer on one shared skills folder,
// the registry, the secrets vault, and — from the first call that needs
// skills — the loader, the executor and the agent tools. It is safe for
// concurrent use. The parts are reachable through accessors for whatever
// the Kit's methods do not cover.
type Kit struct {
	opts      Options
	dir       *skillsdir.Dir
	registry  registry.Store
	vault     *secrets.Vault
	installer *installer.Installer
	deps      *deps.Installer
	authoring *authoring.Writer
	approvals *registry.Verifier
	usage     usage.Store
	// publishers are the installer's (Options.PublishersFile or
	// Options.Installer.Publishers), for Doctor.
	publishers *provenance.Signers

	mu       sync.Mutex // guards the parts below, built by load
	loader   *loader.Loader
	executor *executor.Executor
	env      *executor.EnvProvider
	resolver *tools.Resolver

	stopWatch context.CancelFunc
	watching  chan struct{}
}

// Open wires a Kit for opts.Dir. It creates the folder when missing and
// does no other work unless opts.ScanOnOpen or opts.Watch: skills are
// scanned, and what
// crashed operations left in the folder settled, by the first call that
// needs them, so opening a Kit for one small command (pin, a secret) is
// cheap.
func Open(ctx context.Context, opts Options) (*Kit, error) {
	if opts.Dir == "" {
		return nil, errors.New("skillkit: Options.Dir is required")
	}
	abs, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	if opts.Packages != nil && opts.Registry == nil {
		return nil, errors.New("skillkit: Options.Packages needs Options.Registry, the registry the replicas share")
	}
	if opts.Watch > 0 && opts.Loader != nil && opts.Loader.OneShot {
		return nil, errors.New("skillkit: Options.Watch needs a loader that keeps what rescans reuse, not Loader.OneShot")
	}
	if opts.Replica != "" {
		if err := registry.ValidateReplicaID(opts.Replica); err != nil {
			return nil, fmt.Errorf("skillkit: Options.Replica: %w", err)
		}
	}
	if err := loader.CheckSources(opts.sources(abs)); err != nil {
		return nil, err
	}
	if err := opts.checkServersFile(abs); err != nil {
		return nil, err
	}
	publishers, err := opts.publishers(abs)
	if err != nil {
		return nil, err
	}
	if !opts.HostDumpable {
		if err := executor.ProtectHost(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
			return nil, err
		}
	}
	k := &Kit{opts: opts, registry: opts.Registry, usage: opts.Usage}
	if k.usage == nil && opts.RecordUsage {
		k.usage = usage.NewFile(filepath.Join(abs, registry.HubDir, UsageFile))
	}
	if k.registry == nil {
		k.registry = registry.NewFSStore(abs)
	}
	store := opts.Secrets
	if store == nil {
		store = secrets.NewFSStore(abs)
	}
	// Values are sealed for the install their skill's record names, so a
	// skill that takes the name of an uninstalled one never receives them.
	k.vault = secrets.NewVault(store, &secrets.Options{Keyring: opts.Keyring, Getenv: opts.Getenv, Logger: opts.Logger,
		InstallID: registry.InstallIDFunc(k.registry)})
	k.dir, err = skillsdir.Open(abs, k.registry, &skillsdir.Options{
		Purge: k.vault.DeleteSkill, Logger: opts.Logger, Limits: opts.Limits, Keep: deps.Keep,
		Policy: opts.Policy, Trusted: opts.TrustedOrigins, AllowDangerous: opts.AllowDangerous, Packages: opts.Packages,
		FleetKey: opts.FleetKey, FleetTrust: opts.FleetTrust, FleetUnsigned: opts.FleetUnsigned, History: opts.History,
	})
	if err != nil {
		return nil, err
	}
	var approved registry.Store = k.registry
	if opts.Packages != nil {
		approved = placedRecords{Store: k.registry, dir: k.dir}
	}
	k.approvals = &registry.Verifier{Store: approved, ManifestDir: filepath.Join(abs, registry.HubDir, ApprovedDir)}
	iopts := installerOptions(&opts)
	if publishers != nil {
		iopts.Publishers = publishers
	}
	k.publishers = iopts.Publishers
	k.installer = installer.New(k.dir, iopts)
	k.deps = deps.New(k.dir, opts.Deps)
	k.authoring = authoring.New(k.dir, opts.Authoring)
	if opts.ScanOnOpen || opts.Watch > 0 {
		if _, err := k.load(ctx); err != nil {
			k.dir.Close()
			return nil, err
		}
	}
	return k, nil
}

// installerOptions are the host's installer options, with Remote finding
// the discovery index or MCP server a skill was installed from unless the
// host set its own. An index's hosts must be among the allowed ones, as a
// git host must; an MCP server's command must be on the host's list
// (Options.MCPServers and MCPServersFile), never taken from the record
// alone.
func installerOptions(o *Options) *installer.Options {
	out := installer.Options{}
	if o.Installer != nil {
		out = *o.Installer
	}
	if out.Remote == nil {
		hosts := out.AllowedHosts
		if len(hosts) == 0 {
			hosts = []string{installer.DefaultHost}
		}
		servers, file := slices.Clone(o.MCPServers), o.MCPServersFile
		out.Remote = func(rec registry.Record) (installer.Remote, error) {
			switch rec.Source {
			case registry.SourceWellKnown:
				return asRemote(wellknown.FromRecord(rec, &wellknown.Options{AllowedHosts: hosts}))
			case registry.SourceMCP:
				allowed := servers
				if file != "" {
					more, err := mcpskills.ReadAllowList(file)
					if err != nil {
						return nil, err
					}
					allowed = append(slices.Clip(allowed), more...)
				}
				return asRemote(mcpskills.FromRecord(rec, allowed, nil))
			}
			return nil, fmt.Errorf("skillkit: %s has no remote source (%q)", rec.Name, rec.Source)
		}
	}
	return &out
}

// checkServersFile refuses an MCPServersFile inside the skills folder or
// a source folder, where a skill, an agent or an archive could write it.
func (o *Options) checkServersFile(dir string) error {
	return o.checkOutside(dir, "MCPServersFile", o.MCPServersFile, "the list of allowed servers")
}

// checkOutside refuses a file (Options.field) inside the skills folder or
// a source folder. Links are followed as far as they exist.
func (o *Options) checkOutside(dir, field, name, what string) error {
	if name == "" {
		return nil
	}
	file, err := filepath.Abs(name)
	if err != nil {
		return fmt.Errorf("skillkit: Options.%s: %w", field, err)
	}
	file = resolveExisting(file)
	for _, src := range o.sources(dir) {
		if src.Dir == "" {
			continue
		}
		root, err := filepath.Abs(src.Dir)
		if err != nil {
			continue
		}
		for _, r := range []string{root, resolveExisting(root)} {
			if rel, err := filepath.Rel(r, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return fmt.Errorf("skillkit: Options.%s %s lies inside the skills folder %s: keep %s where skills cannot write", field, name, src.Dir, what)
			}
		}
	}
	return nil
}

// publishers reads PublishersFile, after checking it lies outside every
// skills folder; nil when there is none.
func (o *Options) publishers(dir string) (*provenance.Signers, error) {
	if o.PublishersFile == "" {
		return nil, nil
	}
	if err := o.checkOutside(dir, "PublishersFile", o.PublishersFile, "the publishers' keys"); err != nil {
		return nil, err
	}
	if o.Installer != nil && o.Installer.Publishers != nil {
		return nil, errors.New("skillkit: both Options.PublishersFile and Options.Installer.Publishers are set; give one")
	}
	// The files a JSON publishers file names must lie outside the skills
	// folders too.
	s, err := provenance.LoadPublishers(o.PublishersFile, func(p string) error {
		return o.checkOutside(dir, "PublishersFile", p, "the publishers' keys and trusted root")
	})
	if err != nil {
		return nil, fmt.Errorf("skillkit: Options.PublishersFile %s: %w", o.PublishersFile, err)
	}
	return s, nil
}

// resolveExisting resolves the links of the longest part of path that
// exists, and keeps the rest as it is.
func resolveExisting(path string) string {
	rest := ""
	for p := path; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(p) == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// asRemote returns r as an installer.Remote, and no typed nil with an
// error.
func asRemote[R installer.Remote](r R, err error) (installer.Remote, error) {
	if err != nil {
		return nil, err
	}
	return r, nil
}

// sources are the loader's sources: the skills folder first.
func (o *Options) sources(dir string) []loader.Source {
	name := o.DirName
	if name == "" {
		name = "skills"
	}
	return append([]loader.Source{{Name: name, Dir: dir, Writable: true}}, o.Sources...)
}

// load returns the loader, building it and the parts that read skills on
// the first call: what crashed operations left is settled, the sources are
// scanned, watching starts.
func (k *Kit) load(ctx context.Context) (*loader.Loader, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.loader != nil {
		return k.loader, nil
	}
	// Settle first, so the scan never sees a half-finished install.
	if err := k.dir.Settle(ctx); err != nil {
		return nil, err
	}
	lopts := loader.Options{}
	if k.opts.Loader != nil {
		lopts = *k.opts.Loader
	}
	placed := k.registry
	if k.opts.Packages != nil {
		placed = placedRecords{Store: k.registry, dir: k.dir}
	}
	lopts.Checkers = append([]loader.Checker{
		registry.FingerprintChecker{Store: placed}, k.vault.EnvChecker(), k.deps.Checker(), scan.Checker{},
	}, lopts.Checkers...)
	if lopts.Logger == nil {
		lopts.Logger = k.opts.Logger
	}
	l, err := loader.New(ctx, k.opts.sources(k.dir.Path()), k.registry, &lopts)
	if err != nil {
		return nil, err
	}
	eopts := executor.Options{}
	if k.opts.Executor != nil {
		eopts = *k.opts.Executor
	}
	if eopts.Logger == nil {
		eopts.Logger = k.opts.Logger
	}
	if host := eopts.CheckApproved; host != nil {
		eopts.CheckApproved = func(ctx context.Context, s *skill.Skill) error {
			return errors.Join(k.checkApproved(ctx, s), host(ctx, s))
		}
	} else {
		eopts.CheckApproved = k.checkApproved
	}
	k.loader = l
	k.executor = executor.New(l, k.vault, &eopts)
	k.env = executor.NewEnvProvider(l, k.vault)
	k.resolver = &tools.Resolver{Loader: l, Executor: k.executor, Usage: k.usage, OnUsageError: k.usageError}
	if !k.opts.DisableSkillManage {
		k.resolver.Manager = k.authoring
	}
	if k.opts.Watch > 0 {
		wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		k.stopWatch, k.watching = cancel, make(chan struct{})
		onChange := k.opts.OnChange
		if onChange == nil {
			onChange = func(loader.Changes) {}
		}
		go func() {
			defer close(k.watching)
			_ = l.Watch(wctx, &loader.WatchOptions{Interval: k.opts.Watch}, onChange)
		}()
	}
	return l, nil
}

// loaded returns the loader when a call has built it, else nil.
func (k *Kit) loaded() *loader.Loader {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.loader
}

// Toolset returns what one agent gets: the <available_skills> prompt
// section and the skill tools (read_skill, read_skill_file, execute_skill,
// search_skills when the catalog leaves skills out, and skill_manage unless
// Options.DisableSkillManage or the agent's DisableManage), from the
// current snapshot; see [tools.Resolver.Resolve].
func (k *Kit) Toolset(ctx context.Context, agent tools.Agent) (tools.Toolset, error) {
	l, err := k.load(ctx)
	if err != nil {
		return tools.Toolset{}, err
	}
	if agent.Env.SkillEnv == nil {
		agent.Env.SkillEnv = k.skillEnv(ctx, l)
	}
	return k.resolver.Resolve(ctx, agent)
}

// skillEnv answers the visibility rule requires.env from the vault: a
// variable the skill will get when it runs (a saved secret, or a default of
// its env schema) counts as set. Each skill's status is read once per call
// of Toolset, however many variables it requires.
func (k *Kit) skillEnv(ctx context.Context, l *loader.Loader) func(skillName, variable string) bool {
	var mu sync.Mutex
	known := map[string]map[string]bool{}
	return func(skillName, variable string) bool {
		mu.Lock()
		defer mu.Unlock()
		set, ok := known[skillName]
		if !ok {
			var schema []skill.EnvVar
			if s, found := l.Get(skillName); found {
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
// skills, limits), those of the checks run now (fingerprints changed
// since install, required secrets not configured, runtimes, virtual
// environments, node_modules and system programs missing), and, for a
// replica of several (Options.Packages), REPLICA_BEHIND for each replica
// whose last sync left it lagging what the registry records, and, when the
// Kit has publishers, PUBLISHER_UNTRUSTED for each skill a listed publisher
// signed whose key or identity is no longer listed, or whose archive's
// bundle no longer verifies. The error is
// ctx's, or a failure to settle the skills folder or to read the
// replicas.
func (k *Kit) Doctor(ctx context.Context) (diagnostics.List, error) {
	l, err := k.load(ctx)
	if err != nil {
		return nil, err
	}
	replicas, err := k.replicaDiagnostics(ctx)
	if err != nil {
		return nil, err
	}
	publishers, err := k.publisherDiagnostics(ctx)
	if err != nil {
		return nil, err
	}
	return append(append(l.Doctor(ctx), replicas...), publishers...).Sorted(), nil
}

// ConfinementFor returns what the scripts of the skill whose folder holds
// dir may reach, for a host's shell tool that runs them through an
// executor.LocalRunner ([executor.Command.Confine]); false when dir lies in
// no skill folder (docs/shell-tool.md).
func (k *Kit) ConfinementFor(dir string) (*executor.Confinement, bool) {
	home, _ := os.UserHomeDir()
	return k.env.ConfinementFor(dir, home)
}

// EnvFor returns the environment a host's shell tool should add for a
// command run in dir: the skill's own variables when dir lies inside a skill
// folder on disk, else nothing; see [executor.EnvProvider].
//
// A skill whose files differ from the approved ones gets nothing: the
// error is a [*registry.ModifiedError] (SKILL_MODIFIED), as is a disabled
// skill's an [ErrDisabled].
func (k *Kit) EnvFor(ctx context.Context, dir string) (map[string]string, error) {
	l, err := k.load(ctx)
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(dir); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			if s, ok := l.ResolveByPath(real); ok {
				if err := k.checkApproved(ctx, s); err != nil {
					return nil, err
				}
			}
		}
	}
	return k.env.EnvFor(ctx, dir)
}

// remember keeps the list of files of skill name, just installed,
// updated or written, as approved, so that a later refusal can name the
// files that changed. A failure is only logged: the check before a run
// compares fingerprints either way.
func (k *Kit) remember(ctx context.Context, name string) {
	k.approvals.Forget(name)
	if err := k.approvals.Verify(ctx, name, k.dir.OSPath(name)); err != nil && k.opts.Logger != nil {
		k.opts.Logger.WarnContext(ctx, "keeping the approved files of a skill", "skill", name, "error", err)
	}
}

// otherSource reports whether s is a skill the installer does not manage:
// another source's (a builtin, a user folder), or one deeper in the skills
// folder than its top level. A top-level folder of the skills folder is the
// installer's even when a snapshot still shows it after an uninstall.
func (k *Kit) otherSource(s *skill.Skill) bool {
	return s.Source != k.opts.sources(k.dir.Path())[0].Name || s.Dir != s.Name
}

// ErrNoSuchSkill: SaveSecrets found no skill of that name to seal values
// for.
var ErrNoSuchSkill = errors.New("skillkit: no such skill")

// SaveSecrets saves values among the secrets of skill name
// ([secrets.Vault.Save]) under the skill's lock, the one installs and
// uninstalls take: the skill must be installed (a record, or a folder in
// the skills folder) or defined by another source, and an uninstall
// cannot slip between reading the install the values are sealed for and
// storing them, which would leave values sealed for no install for a
// skill placed later under the name. Use it rather than the Vault's Save.
func (k *Kit) SaveSecrets(ctx context.Context, name string, values map[string]string) error {
	if err := skill.ValidateKey(name); err != nil {
		return fmt.Errorf("%w: %w", ErrNoSuchSkill, err)
	}
	// Another source's skill is found before the lock: finding may scan,
	// and a scan settles the folder, which takes skill locks.
	inDir, err := k.dir.HasSkill(name)
	if err != nil {
		return err
	}
	// Another source's skill (a builtin, a user folder) has no install to
	// check; the skills folder's own, seen in a snapshot taken before it was
	// uninstalled, is not another source's.
	other := false
	if !inDir {
		s, found, err := k.Skill(ctx, name)
		if err != nil {
			return err
		}
		other = found && k.otherSource(s)
	}
	unlock, err := k.dir.Hold(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = k.registry.Get(ctx, name)
	switch {
	case err == nil:
	case !errors.Is(err, registry.ErrNotFound):
		return err
	default:
		ok, err := k.dir.HasSkill(name)
		if err != nil {
			return err
		}
		if !ok && !other {
			return fmt.Errorf("%w: %s is not installed: values are sealed for one install of a skill, so install it first", ErrNoSuchSkill, name)
		}
	}
	return k.vault.Save(ctx, name, values)
}

// ApprovedDir is the folder, under the skills folder's .skillhub/, that
// keeps the list of files of each approved skill, so that a refusal can
// name the files that changed (registry.Verifier.ManifestDir).
const ApprovedDir = "approved"

// ErrDisabled: the skill is disabled; nothing of it runs.
var ErrDisabled = errors.New("skillkit: the skill is disabled")

// checkApproved is what must hold before anything of s runs or its
// secrets are handed out: it is not disabled, and when it lies in the
// skills folder with a record, its files have the approved fingerprint
// (registry.Verifier). Skills of other sources have no install record and
// run as local skills.
func (k *Kit) checkApproved(ctx context.Context, s *skill.Skill) error {
	rec, err := k.registry.Get(ctx, s.Name)
	switch {
	case err == nil && !rec.Enabled:
		return fmt.Errorf("%w: %s (enable it to run it)", ErrDisabled, s.Name)
	case err != nil && !errors.Is(err, registry.ErrNotFound):
		return err
	}
	if s.DiskDir == "" {
		return nil
	}
	dir, err := filepath.Abs(s.DiskDir)
	if err != nil || filepath.Dir(dir) != k.dir.Path() {
		return err
	}
	return k.approvals.Verify(ctx, filepath.Base(dir), dir)
}

// checkInstalledApproved checks the installed skill name before its
// dependencies are installed or its setup script runs.
func (k *Kit) checkInstalledApproved(ctx context.Context, name string) error {
	if skill.ValidateKey(name) != nil {
		return nil // the dependency installer refuses the name itself
	}
	if ok, err := k.dir.HasSkill(name); err != nil || !ok {
		return err
	}
	return k.approvals.Verify(ctx, name, k.dir.OSPath(name))
}

// Approve records the current files of the installed skill name as
// approved, after scanning them and applying the trust policy (see
// [installer.Installer.Approve]), so that a person's own edits can run.
// The result lists the files that differ from what was approved before,
// when that list is known.
func (k *Kit) Approve(ctx context.Context, name string, opts *installer.ApproveOptions) (*installer.Approval, error) {
	var changes []registry.FileChange
	if skill.ValidateKey(name) == nil {
		changes, _, _, _ = k.approvals.Changes(ctx, name, k.dir.OSPath(name))
	}
	a, err := k.installer.Approve(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	a.Changes = changes
	k.approvals.Forget(name)
	if err := k.approvals.Verify(ctx, name, k.dir.OSPath(name)); err != nil {
		return a, err
	}
	return a, k.rescanAfter(ctx, nil)
}

// Skill returns the named skill as the Kit sees it. Before the first scan
// it reads the skills folder's own copy alone when there is one, without
// scanning every source (what a small command such as listing one skill's
// secrets needs); otherwise it scans. ok is false when no source has the
// skill.
func (k *Kit) Skill(ctx context.Context, name string) (s *skill.Skill, ok bool, err error) {
	if l := k.loaded(); l != nil {
		s, ok = l.Get(name)
		return s, ok, nil
	}
	if skill.ValidateKey(name) != nil {
		return nil, false, nil
	}
	if found, err := k.dir.HasSkill(name); err != nil || found {
		if err := k.dir.Settle(ctx); err != nil {
			return nil, false, err
		}
		var lopts skill.LoadOptions
		if k.opts.Loader != nil {
			lopts.Strict, lopts.MaxFileBytes = k.opts.Loader.Strict, k.opts.Loader.MaxFileBytes
		}
		lopts.DiskRoot = k.dir.Path()
		s, _ = skill.Load(osfs.Dir(k.dir.Path()), name, &lopts)
		if s != nil && s.Name == name {
			s.Source = k.opts.sources(k.dir.Path())[0].Name
			return s, true, nil
		}
	}
	l, err := k.load(ctx)
	if err != nil {
		return nil, false, err
	}
	s, ok = l.Get(name)
	return s, ok, nil
}

// Rescan reads the sources again and swaps in the new snapshot; see
// [loader.Loader.Rescan]. The first call scans them for the first time
// (and reports no changes).
func (k *Kit) Rescan(ctx context.Context) (loader.Changes, error) {
	if l := k.loaded(); l != nil {
		return l.Rescan(ctx)
	}
	_, err := k.load(ctx)
	return loader.Changes{}, err
}

// Install installs a skill into the skills folder from GitHub, a git URL,
// a ZIP file or a local folder (see [installer.Installer.Install]) and
// rescans, so the next Toolset sees it. Result.Notes say what its
// dependencies need (an install, a setup script to confirm).
func (k *Kit) Install(ctx context.Context, src installer.Source, opts *installer.InstallOptions) (*installer.Result, error) {
	res, err := k.installer.Install(ctx, src, opts)
	if err == nil {
		res.Notes = k.depsNotes(ctx, res.Name, deps.State{}, false)
	}
	return res, k.rescanAfter(ctx, err)
}

// Update fetches an installed skill's recorded origin again and installs it
// when its files changed; see [installer.Installer.Update]. An update that
// changes nothing swaps nothing. A real update keeps the .venv and
// node_modules built for requirements the new version still declares; what
// was built before for requirements that changed is rebuilt (as
// InstallDeps would, without a setup script). Result.Notes say what was
// rebuilt and what still needs a person.
func (k *Kit) Update(ctx context.Context, name string, opts *installer.UpdateOptions) (*installer.Result, error) {
	before, _ := k.deps.State(ctx, name)
	res, err := k.installer.Update(ctx, name, opts)
	if err == nil && !res.UpToDate {
		res.Notes = k.depsNotes(ctx, name, before, false)
	}
	return res, k.rescanAfter(ctx, err)
}

// UpdateAll updates every installed skill that is not pinned, each as
// Update does; see [installer.Installer.UpdateAll].
func (k *Kit) UpdateAll(ctx context.Context, opts *installer.UpdateOptions) ([]installer.UpdateResult, error) {
	recs, err := k.registry.List(ctx)
	if err != nil {
		return nil, err
	}
	before := map[string]deps.State{}
	for _, r := range recs {
		before[r.Name], _ = k.deps.State(ctx, r.Name)
	}
	res, err := k.installer.UpdateAll(ctx, opts)
	for i, r := range res {
		if r.Err == nil && r.Result != nil && !r.Result.UpToDate {
			res[i].Result.Notes = k.depsNotes(ctx, r.Name, before[r.Name], false)
		}
	}
	return res, k.rescanAfter(ctx, err)
}

// depsNotes rebuilds, after skill name changed, the dependencies that
// were built before (before) and are stale now — with all, every missing
// one — and says in words what its dependencies need.
func (k *Kit) depsNotes(ctx context.Context, name string, before deps.State, all bool) []string {
	k.remember(ctx, name)
	now, err := k.deps.State(ctx, name)
	if err != nil {
		return nil
	}
	var notes []string
	stale := 0
	for _, s := range now.Missing() {
		if all || slices.Contains(before.Built, s) {
			stale++
		}
	}
	if stale > 0 {
		res, err := k.InstallDeps(ctx, name, nil)
		for _, s := range resultSteps(res) {
			switch {
			case s.Status != deps.Installed:
			case slices.Contains(before.Built, s.Step):
				notes = append(notes, fmt.Sprintf("rebuilt %s dependencies for the new version: %s", s.Step, s.Detail))
			default:
				notes = append(notes, fmt.Sprintf("installed %s dependencies: %s", s.Step, s.Detail))
			}
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("rebuilding its dependencies failed: %v", err))
		}
		now, _ = k.deps.State(ctx, name)
	}
	for _, s := range now.Missing() {
		notes = append(notes, fmt.Sprintf("its %s dependencies are not installed: install the skill's dependencies before it runs", s))
	}
	if now.Setup != "" {
		if k.SetupAllowed(ctx, name) != nil {
			notes = append(notes, fmt.Sprintf("it has a setup script, %s, which skillkit does not run for it: only skills installed from GitHub, git or a ZIP run setup scripts", now.Setup))
		} else {
			notes = append(notes, fmt.Sprintf("it has a setup script, %s, which runs only when a person confirms it (install its dependencies with setup)", now.Setup))
		}
	}
	return notes
}

// SetupAllowed says whether [Kit.InstallDeps] with Setup may run the setup
// script of the installed skill name, by where its record says it came
// from; see [deps.SetupAllowed].
func (k *Kit) SetupAllowed(ctx context.Context, name string) error {
	rec, err := k.registry.Get(ctx, name)
	switch {
	case errors.Is(err, registry.ErrNotFound):
		return deps.SetupAllowed(name, nil)
	case err != nil:
		return err
	}
	return deps.SetupAllowed(name, &rec)
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

// Pin keeps an installed skill at its version: updates skip it.
func (k *Kit) Pin(ctx context.Context, name string) error { return k.installer.Pin(ctx, name) }

// Unpin lets updates change a pinned skill again.
func (k *Kit) Unpin(ctx context.Context, name string) error { return k.installer.Unpin(ctx, name) }

// SetEnabled enables or disables a skill. A disabled skill stays installed
// and is hidden from every agent from the next Toolset on. A skill of the
// skills folder — installed, written by an agent or placed by hand, under
// any name the loader accepts — is changed without a scan. A skill of
// another source (an embed.FS, a user folder) can be disabled too: when the
// skills folder does not hold the name, the Kit scans, and if a source
// defines the skill, records its flag alone.
func (k *Kit) SetEnabled(ctx context.Context, name string, enabled bool) error {
	err := k.installer.SetEnabled(ctx, name, enabled)
	if !errors.Is(err, installer.ErrNotInstalled) || skill.ValidateKey(name) != nil {
		return err
	}
	l, lerr := k.load(ctx)
	if lerr != nil {
		return lerr
	}
	// Only a skill the installer does not manage gets a record of its own:
	// the installer's, seen in a snapshot taken before it was uninstalled,
	// stays uninstalled.
	if s, known := l.Get(name); !known || !k.otherSource(s) {
		return err
	}
	if oerr := k.installer.SetEnabledOther(ctx, name, enabled); !errors.Is(oerr, installer.ErrExists) {
		return oerr
	}
	return err // the folder holds it, but the registry no longer does: uninstalled elsewhere
}

// InstallDeps installs a skill's dependencies into its own folder (.venv,
// node_modules, dotnet restore), checks its system programs and, with
// opts.Setup, runs its setup script; see [deps.Installer.Install]. Setup
// scripts run only when the host's user confirmed, and only for skills
// installed from GitHub, git or a ZIP.
//
// A skill whose files differ from the approved ones is refused with a
// [*registry.ModifiedError] (SKILL_MODIFIED) before anything runs.
func (k *Kit) InstallDeps(ctx context.Context, name string, opts *deps.InstallOptions) (*deps.Result, error) {
	if err := k.checkInstalledApproved(ctx, name); err != nil {
		return nil, err
	}
	res, err := k.deps.Install(ctx, name, opts)
	if opts != nil && opts.Setup {
		// A setup script's writes move the approved fingerprint along
		// (deps); keep the list of files that goes with it.
		k.remember(ctx, name)
	}
	return res, err
}

// CreateSkill writes a new agent-authored skill (what skill_manage create
// does, for a host's own UI or API) and rescans; see
// [authoring.Writer.Create] for the rules.
func (k *Kit) CreateSkill(ctx context.Context, name, content string, files map[string]string) (*authoring.Result, error) {
	res, err := k.authoring.Create(ctx, name, content, files)
	if err == nil && res.Proposal == nil {
		k.remember(ctx, name)
	}
	return res, k.rescanAfter(ctx, err)
}

// EditSkill changes an agent-authored skill and rescans; see
// [authoring.Writer.Edit].
func (k *Kit) EditSkill(ctx context.Context, name, content string, files map[string]string, remove []string) (*authoring.Result, error) {
	res, err := k.authoring.Edit(ctx, name, content, files, remove)
	if err == nil && res.Proposal == nil {
		k.remember(ctx, name)
	}
	return res, k.rescanAfter(ctx, err)
}

// DeleteSkill removes an agent-authored skill and rescans; see
// [authoring.Writer.Delete].
func (k *Kit) DeleteSkill(ctx context.Context, name string) error {
	return k.rescanAfter(ctx, k.authoring.Delete(ctx, name))
}

// Proposals lists the agents' writes waiting for a person's review; see
// [authoring.Writer.Proposals].
func (k *Kit) Proposals(ctx context.Context) ([]authoring.Proposal, error) {
	return k.authoring.Proposals(ctx)
}

// ReviewProposal returns the proposal for the skill name with its diff
// against the live skill; see [authoring.Writer.Review].
func (k *Kit) ReviewProposal(ctx context.Context, name string) (*authoring.Review, error) {
	return k.authoring.Review(ctx, name)
}

// ApproveProposal applies the agent's proposal for the skill name, as a
// person's decision, scanning it again, and rescans; see
// [authoring.Writer.ApproveProposal].
func (k *Kit) ApproveProposal(ctx context.Context, name string, opts *authoring.ApproveOptions) (*authoring.Result, error) {
	res, err := k.authoring.ApproveProposal(ctx, name, opts)
	if err == nil {
		k.remember(ctx, name)
	}
	return res, k.rescanAfter(ctx, err)
}

// RejectProposal drops the agent's proposal for the skill name, unapplied;
// see [authoring.Writer.RejectProposal].
func (k *Kit) RejectProposal(ctx context.Context, name string) error {
	return k.authoring.RejectProposal(ctx, name)
}

// rescanAfter rescans after an operation on the skills folder, whether it
// succeeded or not (a failed update leaves the old version, which a rescan
// finds unchanged), and returns the operation's error first. Before the
// first scan there is nothing to refresh: the first call that needs the
// skills reads them as they are.
func (k *Kit) rescanAfter(ctx context.Context, opErr error) error {
	l := k.loaded()
	if l == nil {
		return opErr
	}
	_, err := l.Rescan(context.WithoutCancel(ctx))
	if opErr != nil {
		return opErr
	}
	return err
}

// Dir is the skills folder, absolute.
func (k *Kit) Dir() string { return k.dir.Path() }

// Loader is the Kit's loader (snapshots, visibility, rescans, watching),
// scanning the sources first if no call has yet.
func (k *Kit) Loader(ctx context.Context) (*loader.Loader, error) { return k.load(ctx) }

// Executor runs compute-entry skills, scanning the sources first if no
// call has yet.
func (k *Kit) Executor(ctx context.Context) (*executor.Executor, error) {
	if _, err := k.load(ctx); err != nil {
		return nil, err
	}
	return k.executor, nil
}

// UsageFile is the file, in Dir's .skillhub folder, where a Kit records
// skill uses with Options.RecordUsage.
const UsageFile = "usage.json"

// Usage is the store of skill uses (Options.Usage, or the file of
// Options.RecordUsage); nil when uses are not recorded.
func (k *Kit) Usage() usage.Store { return k.usage }

// usageError logs a use that could not be recorded or read.
func (k *Kit) usageError(err error) {
	if k.opts.Logger != nil {
		k.opts.Logger.Warn("skill usage", "error", err)
	}
}

// Registry is the record of what is installed.
func (k *Kit) Registry() registry.Store { return k.registry }

// Vault holds each skill's secrets.
func (k *Kit) Vault() *secrets.Vault { return k.vault }

// Installer installs, updates and removes skills; prefer the Kit's methods,
// which rescan afterwards.
func (k *Kit) Installer() *installer.Installer { return k.installer }

// Deps installs skills' dependencies.
func (k *Kit) Deps() *deps.Installer { return k.deps }

// Authoring writes the skills agents author (the tools.Manager of
// skill_manage); prefer the Kit's methods, which rescan afterwards.
func (k *Kit) Authoring() *authoring.Writer { return k.authoring }

// Close stops the background watching (Options.Watch), waits for it to end
// and releases the skills folder. The Kit must not be used afterwards.
func (k *Kit) Close() error {
	k.mu.Lock()
	stop, watching := k.stopWatch, k.watching
	k.mu.Unlock()
	if stop != nil {
		stop()
		<-watching
	}
	return k.dir.Close()
}

func resultSteps(r *deps.Result) []deps.StepResult {
	if r == nil {
		return nil
	}
	return r.Steps
}
