package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Installer installs, updates and removes the skills of one skills folder.
// It is safe for concurrent use; see the package documentation for how
// operations on the same skill are serialized.
type Installer struct {
	dir   string   // the skills folder, absolute
	root  *os.Root // on dir: every path below goes through it
	opt   resolved
	names nameLocks
	// fault, set by tests, is called at each step; an error fails the
	// operation there, errSimulatedCrash stops it as a crash would.
	fault func(point string) error
}

// errSimulatedCrash, returned by a test's fault hook, stops an operation
// without any cleanup, leaving the disk as a crash at that point would.
var errSimulatedCrash = errors.New("installer: simulated crash")

// New returns an Installer for the skills folder dir, creating the folder
// when missing, and finishes or undoes what operations that crashed left
// behind (see the package documentation). Its bookkeeping folders in
// .skillhub/ are made by the first operation, so opening a folder that is
// only read leaves it as it was. Close releases it.
func New(ctx context.Context, dir string, opts *Options) (*Installer, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	if err := os.MkdirAll(abs, dirPerm); err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	in := &Installer{dir: abs, root: root, opt: opts.resolve(abs)}
	// Without a staging folder no operation ever ran here: nothing to settle.
	if ok, err := in.exists(stagingDir); err != nil || ok {
		if err == nil {
			err = in.recoverAll(ctx)
		}
		if err != nil {
			root.Close()
			return nil, err
		}
	}
	return in, nil
}

// makeDirs creates the bookkeeping folders every operation works in.
func (in *Installer) makeDirs() error {
	for _, d := range []string{stagingDir, trashDir, locksDir} {
		if err := in.root.MkdirAll(d, dirPerm); err != nil {
			return fmt.Errorf("installer: %w", err)
		}
	}
	return nil
}

// Close releases the Installer's hold on the skills folder. Operations
// must not be running or started after it.
func (in *Installer) Close() error { return in.root.Close() }

// Dir returns the skills folder, as an absolute path.
func (in *Installer) Dir() string { return in.dir }

// Registry returns the store the Installer records skills in.
func (in *Installer) Registry() registry.Store { return in.opt.reg }

// InstallOptions tune one Install.
type InstallOptions struct {
	// Force replaces a skill of the same name even when it was installed
	// from another origin or placed by hand, is pinned, or was edited since
	// it was installed.
	Force bool
}

// Result says what an install or update did.
type Result struct {
	// Name is the skill's name, which is also its folder in the skills
	// folder.
	Name string `json:"name"`
	// Record is what the registry holds now.
	Record registry.Record `json:"record"`
	// Previous is the record that was replaced; nil for a first install.
	Previous *registry.Record `json:"previous,omitempty"`
	// Replaced is true when a skill folder of that name was replaced.
	Replaced bool `json:"replaced"`
	// UpToDate is true for an update that found nothing newer; nothing was
	// changed.
	UpToDate bool `json:"upToDate,omitempty"`
	// Omitted lists the source's entries left out on purpose, with why.
	Omitted []string `json:"omitted,omitempty"`
	// Diagnostics are the findings of the lenient load (warnings a loader
	// would show too), with paths in the installed folder.
	Diagnostics diagnostics.List `json:"diagnostics,omitempty"`
}

// Install fetches src into the staging area, checks, validates,
// fingerprints and scans it, and swaps it in as the skill its SKILL.md
// names. opts may be nil. See the package documentation for the flow, the
// refusals and what a failure leaves.
func (in *Installer) Install(ctx context.Context, src Source, opts *InstallOptions) (*Result, error) {
	force := opts != nil && opts.Force
	rep := in.reporter(OpInstall, "", src.String())
	err := in.recoverAll(ctx)
	var res *Result
	if err == nil {
		res, err = in.install(ctx, src, rep, "", replaceRules{otherOrigin: force, pinned: force, modified: force})
	}
	rep.done(err)
	return res, err
}

// replaceRules say which existing skills an install may replace.
type replaceRules struct {
	otherOrigin bool // installed from elsewhere, or by hand
	pinned      bool
	modified    bool // edited since installed
}

// install runs the whole flow. held names a skill whose lock the caller
// holds (Update), so the swap does not take it again. The caller has run
// recovery, before taking any lock.
func (in *Installer) install(ctx context.Context, src Source, rep *reporter, held string, rules replaceRules) (*Result, error) {
	o, err := in.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer o.end()
	c, err := in.stage(ctx, o, src, rep)
	if err != nil {
		return nil, err
	}
	if held != "" && c.name != held {
		return nil, fmt.Errorf("%w: the source now holds the skill %q, not %q", ErrInvalidSkill, c.name, held)
	}
	if held == "" {
		unlock, err := in.lockName(ctx, c.name)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	return in.swap(ctx, o, c, rep, rules)
}

// candidate is a staged skill ready to swap in.
type candidate struct {
	name    string
	rec     registry.Record // source fields and fingerprint filled in
	omitted []string
	diags   diagnostics.List
}

// stage fetches, checks, validates, fingerprints and scans src in the
// operation's staging folder.
func (in *Installer) stage(ctx context.Context, o *op, src Source, rep *reporter) (*candidate, error) {
	kind, err := src.kind()
	if err != nil {
		return nil, err
	}
	tree := o.staging(treeName)
	if err := in.root.Mkdir(tree, dirPerm); err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	treeOS := in.path(tree)
	var (
		c     = &candidate{}
		check archive.Report
	)
	switch kind {
	case registry.SourceGit:
		g, err := parseGit(src.Git, src.Ref, src.Subdir, in.opt.hosts, in.opt.allowFile)
		if err != nil {
			return nil, err
		}
		rep.step(StepFetch, 5, "cloning %s", g.url)
		srcDir, commit, err := in.fetchGit(ctx, o, g)
		if err != nil {
			return nil, err
		}
		rep.step(StepFetch, 35, "cloned commit %.12s", commit)
		if err := o.fault("fetch"); err != nil {
			return nil, err
		}
		c.rec = registry.Record{Source: g.source, URL: g.url, Ref: g.ref, Commit: commit, Subdir: g.subdir}
		check, err = archive.CopyDir(ctx, srcDir, treeOS, in.opt.limits)
		if err != nil {
			return nil, checkError(check, err)
		}
	case registry.SourceZip:
		rep.step(StepFetch, 5, "extracting %s", src)
		if src.ZipFile != "" {
			var abs string
			if abs, err = filepath.Abs(src.ZipFile); err != nil {
				return nil, err
			}
			c.rec = registry.Record{Source: registry.SourceZip, URL: abs}
			check, err = archive.ExtractZipFile(ctx, abs, treeOS, in.opt.limits)
		} else {
			c.rec = registry.Record{Source: registry.SourceZip}
			check, err = archive.ExtractZip(ctx, src.Zip, src.ZipSize, treeOS, in.opt.limits)
		}
		if err != nil {
			return nil, checkError(check, err)
		}
		if err := o.fault("fetch"); err != nil {
			return nil, err
		}
	case registry.SourceLocal:
		abs, err := filepath.Abs(src.Dir)
		if err != nil {
			return nil, err
		}
		rep.step(StepFetch, 5, "copying %s", abs)
		c.rec = registry.Record{Source: registry.SourceLocal, URL: abs}
		check, err = archive.CopyDir(ctx, abs, treeOS, in.opt.limits)
		if err != nil {
			return nil, checkError(check, err)
		}
		if err := o.fault("fetch"); err != nil {
			return nil, err
		}
	}
	for _, om := range check.Omitted {
		c.omitted = append(c.omitted, om.Error())
	}
	if err := o.fault("check"); err != nil {
		return nil, err
	}
	rep.step(StepCheck, 40, "%d files checked, %d left out", len(check.Valid), len(check.Omitted))

	s, diags := skill.Load(os.DirFS(in.path(o.staging())), treeName, nil)
	if err := validate(s, diags); err != nil {
		return nil, err
	}
	c.name = s.Name
	c.rec.Name = s.Name
	c.rec.Version = s.Frontmatter.Version
	c.diags = installedDiagnostics(diags, filepath.Join(in.dir, s.Name))
	rep.skill = s.Name
	if err := o.fault("validate"); err != nil {
		return nil, err
	}
	rep.step(StepValidate, 55, "%s is a valid %s skill", s.Name, s.Class)

	fp, err := registry.Fingerprint(ctx, os.DirFS(treeOS), ".")
	if err != nil {
		return nil, err
	}
	c.rec.Fingerprint = fp
	if err := o.fault("fingerprint"); err != nil {
		return nil, err
	}
	rep.step(StepFingerprint, 65, "%s", fp)

	if in.opt.scanner != nil {
		err := in.opt.scanner.Scan(ctx, Candidate{Dir: treeOS, Skill: s, Record: c.rec, Omitted: c.omitted})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrScanRejected, err)
		}
		if err := o.fault("scan"); err != nil {
			return nil, err
		}
		rep.step(StepScan, 75, "the scanner accepted %s", s.Name)
	}
	if err := syncTree(treeOS); err != nil {
		return nil, fmt.Errorf("installer: syncing the staged skill: %w", err)
	}
	return c, nil
}

// fetchGit clones g into the operation's staging folder, drops .git and
// returns the folder holding the skill and the commit.
func (in *Installer) fetchGit(ctx context.Context, o *op, g gitSource) (string, string, error) {
	if err := in.root.Mkdir(o.staging(homeName), dirPerm); err != nil {
		return "", "", fmt.Errorf("installer: %w", err)
	}
	commit, err := in.clone(ctx, g, in.path(o.staging(cloneName)), in.path(o.staging(homeName)))
	if err != nil {
		return "", "", err
	}
	if err := in.root.RemoveAll(o.staging(cloneName, ".git")); err != nil {
		return "", "", fmt.Errorf("installer: removing .git: %w", err)
	}
	// Every element of the subfolder must be a real folder: a symbolic
	// link would make the copy read outside the clone.
	p := o.staging(cloneName)
	if g.subdir != "" {
		for _, part := range strings.Split(g.subdir, "/") {
			p = path.Join(p, part)
			info, err := in.root.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) {
				return "", "", fmt.Errorf("%w: the repository has no folder %s", ErrInvalidSource, g.subdir)
			}
			if err != nil {
				return "", "", fmt.Errorf("installer: %w", err)
			}
			if !info.IsDir() {
				return "", "", rejected(fmt.Errorf("%w: %s in the repository is not a folder (%v)", archive.ErrLink, g.subdir, info.Mode().Type()))
			}
		}
	}
	return in.path(p), commit, nil
}

// checkError wraps a refusal of the checks with ErrRejected; other errors
// (a missing file, ctx done) pass as they are.
func checkError(rep archive.Report, err error) error {
	if rep.Err() != nil || errors.Is(err, archive.ErrNotZip) || errors.Is(err, archive.ErrSizeMismatch) ||
		errors.Is(err, archive.ErrCorrupt) || errors.Is(err, archive.ErrLimit) {
		return rejected(err)
	}
	return err
}

// validate applies the install rules to a lenient load: it must load, its
// frontmatter must name it, and the name must follow the rules.
func validate(s *skill.Skill, diags diagnostics.List) error {
	if s == nil {
		var msgs []string
		for _, d := range diags.AtLeast(diagnostics.Error) {
			msgs = append(msgs, d.Message)
		}
		return fmt.Errorf("%w: SKILL.md does not load: %s", ErrInvalidSkill, strings.Join(msgs, "; "))
	}
	if strings.TrimSpace(s.Frontmatter.Name) == "" {
		return fmt.Errorf("%w: SKILL.md has no name; the name is required, it names the skill's folder", ErrInvalidSkill)
	}
	if err := skill.ValidateName(s.Name); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSkill, err)
	}
	return nil
}

// installedDiagnostics drops the name-versus-folder findings (the staging
// folder is not the skill's) and points paths into the installed folder.
func installedDiagnostics(diags diagnostics.List, dir string) diagnostics.List {
	var out diagnostics.List
	for _, d := range diags {
		if d.Code == diagnostics.NameMismatch {
			continue
		}
		if rest, ok := strings.CutPrefix(d.Path, treeName); ok {
			d.Path = dir + filepath.FromSlash(rest)
		}
		out = append(out, d)
	}
	return out
}

// swap replaces the skill c.name with the staged one, under the skill's
// lock. Until the registry record is written every failure puts back what
// was there; after it the install has happened.
func (in *Installer) swap(ctx context.Context, o *op, c *candidate, rep *reporter, rules replaceRules) (*Result, error) {
	name := c.name
	prev, err := in.getRecord(ctx, name)
	if err != nil {
		return nil, err
	}
	present, err := in.exists(name)
	if err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	if err := in.mayReplace(ctx, c, prev, present, rules); err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	rec := c.rec
	rec.Enabled, rec.InstalledAt = true, now
	if prev != nil {
		rec.Enabled, rec.Pinned, rec.InstalledAt, rec.UpdatedAt = prev.Enabled, prev.Pinned, prev.InstalledAt, now
		if rec.InstalledAt.IsZero() {
			rec.InstalledAt = now
		}
	}
	msg := "installing"
	if present {
		msg = "replacing the installed version"
	}
	rep.step(StepSwap, 85, "%s %s", msg, name)

	j := &journal{Op: string(OpInstall), Name: name, Record: &rec, Previous: prev, HadOld: present}
	if err := in.writeJournal(o, j); err != nil {
		return nil, err
	}
	var moved, placed, putTried bool
	fail := func(err error) (*Result, error) {
		if o.crashed {
			return nil, err
		}
		// Undo even when ctx is what failed: the caller asked to stop, not
		// to leave a half swap.
		if rbErr := in.rollbackInstall(context.WithoutCancel(ctx), o, j, moved, placed, putTried); rbErr != nil {
			o.keep = true
			return nil, errors.Join(err, fmt.Errorf("installer: undoing the swap failed; the next New finishes it: %w", rbErr))
		}
		return nil, err
	}
	if err := o.fault("journal"); err != nil {
		return fail(err)
	}
	if present {
		if err := in.move(name, o.trash()); err != nil {
			return fail(err)
		}
		moved = true
		if err := o.fault("old-moved"); err != nil {
			return fail(err)
		}
	}
	if err := in.move(o.staging(treeName), name); err != nil {
		return fail(err)
	}
	placed = true
	if err := o.fault("new-moved"); err != nil {
		return fail(err)
	}
	putTried = true
	if err := in.opt.reg.Put(ctx, rec); err != nil {
		return fail(fmt.Errorf("installer: writing the record: %w", err))
	}
	// Committed: the new version is installed whatever happens next.
	if err := o.fault("recorded"); err != nil {
		if o.crashed {
			return nil, err
		}
		in.warn(ctx, "leaving the old version of %s in the trash for the next New: %v", name, err)
		o.keep = true
	} else if err := in.root.RemoveAll(o.trash()); err != nil {
		in.warn(ctx, "leaving the old version of %s in the trash for the next New: %v", name, err)
		o.keep = true
	}
	in.audit(ctx, auditMessage(rep.op), rec)
	return &Result{Name: name, Record: rec, Previous: prev, Replaced: present, Omitted: c.omitted, Diagnostics: c.diags}, nil
}

// mayReplace refuses to replace what rules do not allow.
func (in *Installer) mayReplace(ctx context.Context, c *candidate, prev *registry.Record, present bool, rules replaceRules) error {
	name := c.name
	switch {
	case prev == nil && present && !rules.otherOrigin:
		return fmt.Errorf("%w: %s has a skill folder that skillkit did not install; install with Force to replace it", ErrExists, name)
	case prev != nil && present && !sameOrigin(*prev, c.rec) && !rules.otherOrigin:
		return fmt.Errorf("%w: %s was installed from %s %s; install with Force to replace it", ErrExists, name, prev.Source, prev.URL)
	case prev != nil && prev.Pinned && !rules.pinned:
		return fmt.Errorf("%w: %s; unpin it first, or install with Force", ErrPinned, name)
	}
	if prev != nil && present && !rules.modified {
		changed, err := in.modified(ctx, *prev)
		if err != nil {
			return err
		}
		if changed {
			return fmt.Errorf("%w: %s; use Force to discard the changes", ErrModified, name)
		}
	}
	return nil
}

// sameOrigin reports whether a new install comes from where rec came from:
// the same source, URL and subfolder. Any ZIP archive replaces a skill
// installed from a ZIP archive: uploading a new archive is how such a
// skill is updated.
func sameOrigin(rec, next registry.Record) bool {
	if rec.Source == registry.SourceZip && next.Source == registry.SourceZip {
		return true
	}
	return rec.Source == next.Source && rec.URL == next.URL && rec.Subdir == next.Subdir
}

// modified reports whether the installed files of rec's skill differ from
// its recorded fingerprint. A record without a fingerprint of ours (the
// seed's bare hex, or none) is never taken as modified.
func (in *Installer) modified(ctx context.Context, rec registry.Record) (bool, error) {
	if !strings.HasPrefix(rec.Fingerprint, registry.FingerprintPrefix) {
		return false, nil
	}
	fp, err := in.fingerprintInstalled(ctx, rec.Name)
	if err != nil {
		return false, err
	}
	return fp != rec.Fingerprint, nil
}

func (in *Installer) fingerprintInstalled(ctx context.Context, name string) (string, error) {
	sub, err := fs.Sub(in.root.FS(), name)
	if err != nil {
		return "", fmt.Errorf("installer: %w", err)
	}
	return registry.Fingerprint(ctx, sub, ".")
}

// getRecord returns the record of name, or nil when there is none.
func (in *Installer) getRecord(ctx context.Context, name string) (*registry.Record, error) {
	rec, err := in.opt.reg.Get(ctx, name)
	if errors.Is(err, registry.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("installer: reading the record of %s: %w", name, err)
	}
	return &rec, nil
}

// move renames from to to (slash paths in the skills folder) and makes the
// rename durable in both folders.
func (in *Installer) move(from, to string) error {
	if err := in.root.Rename(from, to); err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	return errors.Join(syncDir(in.root, path.Dir(from)), syncDir(in.root, path.Dir(to)))
}

// fault calls the test hook at a point.
func (o *op) fault(point string) error {
	if o.in.fault == nil {
		return nil
	}
	err := o.in.fault(point)
	if errors.Is(err, errSimulatedCrash) {
		o.crashed = true
	}
	return err
}

// auditMessage is the audit line of an operation that changed a skill.
func auditMessage(op Op) string {
	switch op {
	case OpUninstall:
		return "skill uninstalled"
	case OpCreate:
		return "skill created by an agent"
	case OpEdit:
		return "skill edited by an agent"
	case OpDelete:
		return "skill deleted by an agent"
	}
	return "skill installed"
}

func (in *Installer) audit(ctx context.Context, msg string, rec registry.Record) {
	if in.opt.log == nil {
		return
	}
	in.opt.log.InfoContext(ctx, msg, "skill", rec.Name, "source", rec.Source, "url", rec.URL,
		"ref", rec.Ref, "commit", rec.Commit, "subdir", rec.Subdir, "fingerprint", rec.Fingerprint)
}

func (in *Installer) warn(ctx context.Context, format string, args ...any) {
	if in.opt.log != nil {
		in.opt.log.WarnContext(ctx, fmt.Sprintf(format, args...))
	}
}
