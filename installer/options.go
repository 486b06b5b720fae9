package installer

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Defaults for [Options] fields left at zero.
const (
	// DefaultGitTimeout bounds one git command (a clone, an ls-remote).
	DefaultGitTimeout = 5 * time.Minute
	// DefaultHost is the only git host allowed when Options.AllowedHosts is
	// empty.
	DefaultHost = "github.com"
	// DefaultCheckConcurrency is how many remotes CheckUpdates asks at once.
	DefaultCheckConcurrency = 4
)

// Options configure an [Installer]. A nil *Options, and every zero field,
// means the safe default named on the field; nothing is ever unlimited.
type Options struct {
	// Registry records what is installed. Default: registry.NewFSStore on the
	// skills folder (.skillhub/lock.json and .skillhub/origins/).
	Registry registry.Store
	// Runner runs git and the dependency tools (uv, python, npm, dotnet,
	// check commands, setup scripts). Default: an executor.LocalRunner. A
	// host that sandboxes them passes its own.
	Runner executor.Runner
	// Git is the git program, a path or a name looked up in the PATH given
	// to git. Default "git".
	Git string
	// GitEnv adds variables to git's otherwise empty environment, for
	// example HTTPS_PROXY or GIT_SSL_CAINFO; PATH here replaces the host's.
	// The variables the Installer sets to keep git from reading user
	// configuration, prompting or running hooks always win (see the package
	// documentation).
	GitEnv map[string]string
	// GitTimeout bounds each git command. Default DefaultGitTimeout.
	GitTimeout time.Duration
	// AllowedHosts are the hosts git may clone from over https, compared
	// without regard to case ("github.com", "gitea.example.com:3000").
	// Default: DefaultHost only.
	AllowedHosts []string
	// AllowFileURLs lets git sources be file:// URLs (local repositories).
	// Default false: a skill source should not read the host's disk.
	AllowFileURLs bool
	// Limits bound what a source may hold. Nil means the defaults of
	// [Limits].
	Limits *Limits
	// Scanner, when set, inspects every skill after it was checked and
	// fingerprinted and before it is swapped in; an error refuses it.
	Scanner Scanner
	// Progress, when set, receives the steps of every install, update and
	// uninstall, then one final event (see [Event]). It is called on the
	// goroutine doing the work, so it must return quickly, and must not call
	// the Installer for the same skill.
	Progress func(Event)
	// Purge removes what else a skill left behind (its secrets) when
	// Uninstall is asked to purge. The Kit passes the secrets vault's
	// DeleteSkill. Nil: purging is refused with ErrNoPurge.
	Purge func(ctx context.Context, name string) error
	// GitHub, when set, makes CheckUpdates ask the GitHub API for skills
	// installed from github.com instead of running git ls-remote.
	GitHub *GitHubClient
	// Logger receives one audit line per install, update and uninstall.
	// Nil: no audit lines.
	Logger *slog.Logger
	// CheckConcurrency bounds how many remotes CheckUpdates asks at once.
	// Default DefaultCheckConcurrency.
	CheckConcurrency int
	// Deps configures InstallDeps and DepsChecker: the tools' environment
	// (a package index, a registry), extra pip and npm arguments, timeouts.
	// Nil means the defaults of [DepsConfig].
	Deps *DepsConfig
	// AgentMayChangeInstalled lets Edit and Delete change skills that were
	// not written by an agent (installed from GitHub, git, a ZIP or a
	// folder, or placed by hand). Default false: an agent changes only the
	// skills it wrote.
	//
	// Even with it, an agent never writes or removes the code skillkit runs
	// for such a skill: its entrypoint, setup scripts, requirements file and
	// .NET project, the folders holding them, everything under scripts/ of
	// a skill with a runtime or an entrypoint, and package.json's file:
	// dependencies; nor may it change the install specs in its frontmatter
	// ([ErrNotAllowed]). What remains is the risk of the option: the model
	// rewrites the instructions (SKILL.md) of a skill a person chose, and
	// its references, templates and assets — text that steers the model,
	// including the commands it runs with its own shell tool, under the
	// trust the person gave the original. The record keeps its origin, so
	// the change shows as FINGERPRINT_CHANGED and Update refuses it without
	// Force; deleting such a skill deletes code a person installed.
	AgentMayChangeInstalled bool
}

// Limits bound what one source may hold; they are the limits of the
// archive and folder checks (see the package documentation). A nil *Limits,
// or a zero or negative field, means the default; nothing is unlimited.
type Limits struct {
	MaxArchiveBytes int64 // a ZIP archive; default 50 MiB
	MaxFileBytes    int64 // one file; default 1 MiB
	MaxTotalBytes   int64 // all files together; default 200 MiB
	MaxEntries      int   // files and folders; default 10,000
	MaxRatio        int   // compression ratio of a file and of the archive; default 100
}

func (l *Limits) archive() *archive.Limits {
	if l == nil {
		return nil
	}
	return &archive.Limits{
		MaxArchiveBytes: l.MaxArchiveBytes,
		MaxFileBytes:    l.MaxFileBytes,
		MaxTotalBytes:   l.MaxTotalBytes,
		MaxEntries:      l.MaxEntries,
		MaxRatio:        l.MaxRatio,
	}
}

// Scanner inspects a staged skill before it is installed: a malware or
// policy check. It must not change the files (the fingerprint is already
// taken). Scan is called without any lock held on the skill, may run
// concurrently for different skills, and refuses the skill by returning an
// error, which the install wraps with ErrScanRejected.
type Scanner interface {
	Scan(ctx context.Context, c Candidate) error
}

// ScannerFunc adapts a function to a [Scanner].
type ScannerFunc func(ctx context.Context, c Candidate) error

// Scan calls f.
func (f ScannerFunc) Scan(ctx context.Context, c Candidate) error { return f(ctx, c) }

// Candidate is a skill checked, validated and fingerprinted in the staging
// area, about to be swapped in.
type Candidate struct {
	// Dir is the staged skill folder on disk; it is removed after the
	// install, whatever the outcome.
	Dir string
	// Skill is the skill as loaded (lenient) from Dir.
	Skill *skill.Skill
	// Record is what the registry will hold: source, URL, ref, commit,
	// subfolder, fingerprint.
	Record registry.Record
	// Omitted lists the entries of the source left out on purpose
	// (.venv, node_modules, __pycache__, Finder's metadata), with why.
	Omitted []string
}

// resolved are the options in force.
type resolved struct {
	reg        registry.Store
	runner     executor.Runner
	git        string
	gitEnv     map[string]string
	gitTimeout time.Duration
	hosts      []string
	allowFile  bool
	limits     *archive.Limits
	scanner    Scanner
	progress   func(Event)
	purge      func(ctx context.Context, name string) error
	github     *GitHubClient
	log        *slog.Logger
	checkConc  int
	deps       depsConfig
	agentMay   bool
}

func (o *Options) resolve(dir string) resolved {
	if o == nil {
		o = &Options{}
	}
	r := resolved{
		reg:        o.Registry,
		runner:     o.Runner,
		git:        o.Git,
		gitEnv:     o.GitEnv,
		gitTimeout: o.GitTimeout,
		allowFile:  o.AllowFileURLs,
		limits:     o.Limits.archive(),
		scanner:    o.Scanner,
		progress:   o.Progress,
		purge:      o.Purge,
		github:     o.GitHub,
		log:        o.Logger,
		checkConc:  o.CheckConcurrency,
		deps:       o.Deps.resolve(),
		agentMay:   o.AgentMayChangeInstalled,
	}
	if r.reg == nil {
		r.reg = registry.NewFSStore(dir)
	}
	if r.runner == nil {
		r.runner = &executor.LocalRunner{}
	}
	if r.git == "" {
		r.git = "git"
	}
	if r.gitTimeout <= 0 {
		r.gitTimeout = DefaultGitTimeout
	}
	for _, h := range o.AllowedHosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			r.hosts = append(r.hosts, h)
		}
	}
	if len(r.hosts) == 0 {
		r.hosts = []string{DefaultHost}
	}
	if r.checkConc <= 0 {
		r.checkConc = DefaultCheckConcurrency
	}
	return r
}
