package installer

import (
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/gitcmd"
	"github.com/skillkit-go/skillkit/provenance"
	"github.com/skillkit-go/skillkit/registry"
)

// Defaults for [Options] fields left at zero.
const (
	// defaultGitTimeout bounds one git command (a clone, an ls-remote).
	defaultGitTimeout = 5 * time.Minute
	// DefaultHost is the only git host allowed when Options.AllowedHosts is
	// empty.
	DefaultHost = "github.com"
	// defaultCheckConcurrency is how many remotes CheckUpdates asks at once.
	defaultCheckConcurrency = 4
)

// Options configure an [Installer]. A nil *Options, and every zero field,
// means the safe default named on the field; nothing is ever unlimited.
type Options struct {
	// Runner runs git. Default: an executor.LocalRunner.
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
	// GitTimeout bounds each git command. Default 5 minutes.
	GitTimeout time.Duration
	// AllowedHosts are the hosts git may clone from over https, compared
	// without regard to case ("github.com", "gitea.example.com:3000").
	// Default: DefaultHost only.
	AllowedHosts []string
	// AllowFileURLs lets git sources be file:// URLs (local repositories).
	// Default false: a skill source should not read the host's disk.
	AllowFileURLs bool
	// Progress, when set, receives the steps of every install, update and
	// uninstall, then one final event (see [Event]). It is called on the
	// goroutine doing the work, so it must return quickly, and must not
	// start another operation on the same skill.
	Progress func(Event)
	// GitHub, when set, makes CheckUpdates ask the GitHub API for skills
	// installed from github.com instead of running git ls-remote.
	GitHub *GitHubClient
	// CheckConcurrency bounds how many remotes CheckUpdates asks at once.
	// Default 4.
	CheckConcurrency int
	// Remote finds again the [Remote] a skill was installed from (a record
	// whose Source is registry.SourceWellKnown or registry.SourceMCP), for
	// Update, UpdateAll and CheckUpdates. Nil: such skills cannot be
	// updated ([ErrNotUpdatable]) nor checked. skillkit.Kit sets it.
	Remote func(rec registry.Record) (Remote, error)
	// Publishers are the publishers the host trusts: SSH keys (git's
	// allowed-signers format, provenance.ParseAllowedSigners) and Sigstore
	// identities with their trusted root (provenance.Signers.WithSigstore,
	// provenance.ParsePublishers). A git install or update checks the
	// signature of the commit it fetched, and of the annotated tag when
	// the ref is one; a ZIP install or update checks the Sigstore bundle
	// published with the archive (Source.Bundle, or the file beside it
	// named with provenance.BundleSuffix), offline. Signed by a listed
	// publisher, the skill is trusted (scan.TrustTrusted) whatever its
	// origin; signed by another key or identity, unsigned, or signed in a
	// form not checked, it keeps its origin's trust. A signature that does
	// not verify (a bundle for other bytes, from another Sigstore instance)
	// is always refused ([ErrBadSignature]), Publishers nil included. The
	// answer is recorded (registry.Record.Signer).
	Publishers *provenance.Signers
	// RequireSigned are origins, matched as scan.TrustOf matches trusted
	// ones, whose skills install and update only when signed by a
	// publisher in Publishers; anything else from them is refused
	// ([ErrUnsigned]).
	RequireSigned []string
}

// Limits bound what one skill may hold, in an archive or a folder: an
// archive of at most MaxArchiveBytes (default 50 MiB), files of at most
// MaxFileBytes (1 MiB), MaxTotalBytes in all (200 MiB), MaxEntries files and
// folders (10,000), and a compression ratio of at most MaxRatio (100) for a
// file and for the archive (files up to 64 KiB exempt). A nil *Limits, or a
// zero or negative field, means the default; nothing is unlimited. They are
// the skills folder's: the Kit applies them to installs, agents' writes and
// the copies dependency installs make.
type Limits = archive.Limits

// resolved are the options in force.
type resolved struct {
	runner    executor.Runner
	git       gitcmd.Options
	hosts     []string
	progress  func(Event)
	github    *GitHubClient
	checkConc int
	remote    func(registry.Record) (Remote, error)
	signers   *provenance.Signers
	required  []string
}

func (o *Options) resolve() resolved {
	if o == nil {
		o = &Options{}
	}
	r := resolved{
		runner:    o.Runner,
		git:       gitcmd.Options{Path: o.Git, Env: o.GitEnv, AllowFile: o.AllowFileURLs, Timeout: o.GitTimeout},
		progress:  o.Progress,
		github:    o.GitHub,
		checkConc: o.CheckConcurrency,
		remote:    o.Remote,
		signers:   o.Publishers,
		required:  o.RequireSigned,
	}
	if r.git.Path == "" {
		r.git.Path = "git"
	}
	if r.git.Timeout <= 0 {
		r.git.Timeout = defaultGitTimeout
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
		r.checkConc = defaultCheckConcurrency
	}
	return r
}
