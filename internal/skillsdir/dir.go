package skillsdir

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

// Paths inside the skills folder.
const (
	StagingDir  = ".skillhub/staging" // staging/<id>/: one transaction's work
	TrashDir    = ".skillhub/trash"   // trash/<id>: the version a transaction moved out
	LocksDir    = ".skillhub/locks"   // locks/<name>.lock: one skill's operations
	createLock  = ".skillhub/staging/.lock"
	journalName = "journal.json"
	// TreeName is the folder of a transaction's staging area that holds the
	// skill about to be swapped in: staging/<id>/skill.
	TreeName = "skill"
	// DirPerm is the mode of the folders skillkit creates.
	DirPerm = 0o755
)

// Options configure a [Dir]. A nil *Options means none of them.
type Options struct {
	// Purge removes what else a skill left behind (its secrets) when a
	// removal asks for it. Recovery calls it too, for a removal that died
	// after its commit point. Nil: removals cannot purge.
	Purge func(ctx context.Context, name string) error
	// Logger receives the audit lines of installs, updates, removals and
	// agents' writes, and what recovery could not settle. Nil: none.
	Logger *slog.Logger
	// Limits bound what one skill may hold (archive and folder checks).
	// Nil: the defaults of archive.Limits.
	Limits *archive.Limits
	// Keep, when set, names what the installed version of a skill (its
	// folder oldDir) has built that the version replacing it (newDir,
	// staged) takes over — a .venv built for the same requirements; slash
	// paths relative to the skill. Swap moves them over after its commit
	// point. The Kit passes deps.Keep.
	Keep func(oldDir, newDir string) []string
	// Policy decides, from the trust of a skill's source and the scan's
	// verdict, whether an install, update or agent's write is allowed,
	// needs a person's confirmation or is blocked. Nil: scan.DefaultPolicy.
	Policy scan.Policy
	// Trusted are the origins whose skills count as trusted
	// (scan.TrustOf).
	Trusted []string
	// AllowDangerous turns a block into an ask: a person may confirm a skill
	// the policy blocks. Without it nothing lets a blocked skill in.
	AllowDangerous bool
	// Packages, when set, makes the folder one replica of several sharing
	// the registry: every swap stores the skill's files there, by
	// fingerprint, before it writes the record, and notes in PlacedDir the
	// version this replica placed. Nil: a single host.
	Packages registry.PackageStore
	// FleetKey, with Packages, signs each install's statement (name,
	// fingerprint, install id) and each removal's
	// (registry.PutStatement). Nil: this replica signs nothing.
	FleetKey ed25519.PrivateKey
	// FleetTrust are the public keys whose statements this replica accepts
	// when it syncs (FleetKey's own included). With none, Sync refuses
	// every row unless FleetUnsigned.
	FleetTrust []ed25519.PublicKey
	// FleetUnsigned, with no FleetTrust, lets Sync place and remove
	// skills on the shared database's word alone.
	FleetUnsigned bool
	// History bounds how many versions of each skill the folder keeps
	// (see [Retention]); nil: the defaults.
	History *Retention
}

// Dir is one skills folder and the transactions on it. Every package that
// changes the folder (installing, dependencies, agents' writes) works
// through the same Dir, so its name locks serialize them all within the
// process; file locks serialize them across processes. It is safe for
// concurrent use.
type Dir struct {
	path   string   // the skills folder, absolute
	root   *os.Root // on path: every path below goes through it
	reg    registry.Store
	purge  func(ctx context.Context, name string) error
	log    *slog.Logger
	limits *archive.Limits
	keep   func(oldDir, newDir string) []string
	policy scan.Policy
	// trusted are the trusted origins; allowDangerous turns blocks into asks.
	trusted        []string
	allowDangerous bool
	packages       registry.PackageStore // nil: the folder shares no packages
	fleetKey       ed25519.PrivateKey
	fleetTrust     []ed25519.PublicKey
	fleetUnsigned  bool
	retention      Retention // what each skill's history keeps
	names          nameLocks
	// Fault, set by tests, is called at each named point of a transaction;
	// an error fails the transaction there, and ErrSimulatedCrash stops it
	// as a crash would, leaving the disk as it is.
	Fault func(point string) error
}

// ErrSimulatedCrash, returned by a test's Fault hook, stops a transaction
// without any cleanup, leaving the disk as a crash at that point would.
var ErrSimulatedCrash = errors.New("skillkit: simulated crash")

// Open returns the Dir of the skills folder dir, creating the folder when
// missing. It does no other work: what crashed transactions left behind is
// settled by [Dir.Recover], which every operation runs first. reg records
// what is installed; nil means registry.NewFSStore(dir).
func Open(dir string, reg registry.Store, opts *Options) (*Dir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	if err := os.MkdirAll(abs, DirPerm); err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	if reg == nil {
		reg = registry.NewFSStore(abs)
	}
	d := &Dir{path: abs, root: root, reg: reg, policy: scan.DefaultPolicy(), retention: (*Retention)(nil).resolve()}
	if opts != nil {
		d.purge, d.log, d.limits, d.keep = opts.Purge, opts.Logger, opts.Limits, opts.Keep
		d.trusted, d.allowDangerous = slices.Clone(opts.Trusted), opts.AllowDangerous
		d.packages, d.retention = opts.Packages, opts.History.resolve()
		d.fleetKey, d.fleetTrust, d.fleetUnsigned = opts.FleetKey, slices.Clone(opts.FleetTrust), opts.FleetUnsigned
		if opts.FleetKey != nil {
			d.fleetTrust = append(d.fleetTrust, opts.FleetKey.Public().(ed25519.PublicKey))
		}
		if opts.Policy != nil {
			d.policy = opts.Policy
		}
	}
	return d, nil
}

// Close releases the folder. Transactions must not be running or started
// after it.
func (d *Dir) Close() error { return d.root.Close() }

// Logger returns the logger of the folder's audit lines; nil when none.
func (d *Dir) Logger() *slog.Logger { return d.log }

// Path returns the skills folder, absolute.
func (d *Dir) Path() string { return d.path }

// Root returns the os.Root every path inside the folder goes through.
func (d *Dir) Root() *os.Root { return d.root }

// Registry returns the store the folder's skills are recorded in.
func (d *Dir) Registry() registry.Store { return d.reg }

// Limits returns the limits of the archive and folder checks.
func (d *Dir) Limits() *archive.Limits { return d.limits }

// CanPurge reports whether removals can purge (Options.Purge is set).
func (d *Dir) CanPurge() bool { return d.purge != nil }

// OSPath returns the OS path of a slash path inside the skills folder.
func (d *Dir) OSPath(elem ...string) string {
	return filepath.Join(d.path, filepath.FromSlash(path.Join(elem...)))
}

// Exists reports whether p (a slash path in the skills folder) exists,
// without following a final symbolic link.
func (d *Dir) Exists(p string) (bool, error) {
	_, err := d.root.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// HasSkill reports whether the skills folder holds a skill folder name: one
// with a skill file in any spelling (SKILL.md, skill.md, Skill.md, ...).
func (d *Dir) HasSkill(name string) (bool, error) {
	entries, err := fs.ReadDir(d.root.FS(), name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return len(skill.SkillFileNames(entries)) > 0, nil
}

// Record returns the record of name, or nil when there is none.
func (d *Dir) Record(ctx context.Context, name string) (*registry.Record, error) {
	rec, err := d.reg.Get(ctx, name)
	if errors.Is(err, registry.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skillkit: reading the record of %s: %w", name, err)
	}
	return &rec, nil
}

// Fingerprint returns the fingerprint of the installed skill name.
func (d *Dir) Fingerprint(ctx context.Context, name string) (string, error) {
	sub, err := fs.Sub(d.root.FS(), name)
	if err != nil {
		return "", fmt.Errorf("skillkit: %w", err)
	}
	return registry.Fingerprint(ctx, sub, ".")
}

// Modified reports whether the installed files of rec's skill differ from
// the fingerprint of the version placed: the one this replica noted
// (PlacedDir) when the folder shares its registry, else the recorded one.
// A record without a fingerprint of ours (the older installers' bare hex,
// or none) is never taken as modified.
func (d *Dir) Modified(ctx context.Context, rec registry.Record) (bool, error) {
	want := rec.Fingerprint
	placed, err := d.Placed(rec.Name)
	if err != nil {
		return false, err
	}
	if placed != "" {
		want = placed
	}
	if !strings.HasPrefix(want, registry.FingerprintPrefix) {
		return false, nil
	}
	fp, err := d.Fingerprint(ctx, rec.Name)
	if err != nil {
		return false, err
	}
	return fp != want, nil
}

// Move renames from to to (slash paths in the skills folder) and makes the
// rename durable in both folders.
func (d *Dir) Move(from, to string) error {
	if err := d.root.Rename(from, to); err != nil {
		return fmt.Errorf("skillkit: %w", err)
	}
	return errors.Join(atomicfile.SyncDir(d.root, path.Dir(from)), atomicfile.SyncDir(d.root, path.Dir(to)))
}

// MakeDirs creates the bookkeeping folders every transaction works in.
func (d *Dir) MakeDirs() error {
	for _, p := range []string{StagingDir, TrashDir, LocksDir} {
		if err := d.root.MkdirAll(p, DirPerm); err != nil {
			return fmt.Errorf("skillkit: %w", err)
		}
	}
	return nil
}

// Audit writes one audit line about a skill that changed.
func (d *Dir) Audit(ctx context.Context, msg string, rec registry.Record) {
	if d.log == nil {
		return
	}
	d.log.InfoContext(ctx, msg, "skill", rec.Name, "source", rec.Source, "url", rec.URL,
		"ref", rec.Ref, "commit", rec.Commit, "subdir", rec.Subdir, "fingerprint", rec.Fingerprint)
}

// Warn logs what could not be done and is left for later.
func (d *Dir) Warn(ctx context.Context, format string, args ...any) {
	if d.log != nil {
		d.log.WarnContext(ctx, fmt.Sprintf(format, args...))
	}
}

// SameOrigin reports whether a new install comes from where rec came from:
// the same source, URL and subfolder. The rule is the same for every kind
// of source: a ZIP file at another path is another origin, like another
// folder or repository; ZIP archives uploaded from memory (no URL) share
// one.
func SameOrigin(rec, next registry.Record) bool {
	return rec.Source == next.Source && rec.URL == next.URL && rec.Subdir == next.Subdir
}
