package installer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/gitcmd"
	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

// Installer installs, updates and removes the skills of one skills folder.
// It is safe for concurrent use; see the package documentation for how
// operations on the same skill are serialized.
type Installer struct {
	dir *skillsdir.Dir
	opt resolved
}

// New returns an Installer on the skills folder dir. It does no I/O: each
// operation first settles what crashed operations left behind (see the
// package documentation). Hosts get one from skillkit.Kit, which shares the
// folder with the dependency and authoring packages.
func New(dir *skillsdir.Dir, opts *Options) *Installer {
	in := &Installer{dir: dir, opt: opts.resolve()}
	if in.opt.runner == nil {
		// The runner warns, once, when git runs without isolation.
		in.opt.runner = &executor.LocalRunner{Logger: dir.Logger()}
	}
	return in
}

// InstallOptions tune one Install.
type InstallOptions struct {
	// Force replaces a skill of the same name even when it was installed
	// from another origin or placed by hand, is pinned, or was edited since
	// it was installed. It changes nothing of the scan's decision.
	Force bool
	// Confirmed says a person saw the scan's findings and let the skill in:
	// a skill the trust policy asks about installs only with it
	// ([ErrNeedsConfirmation]). A skill the policy blocks never installs.
	Confirmed bool
	// Fingerprint, when set, is the registry.Fingerprint the fetched files
	// must have, else the install fails with [ErrFingerprintMismatch] and
	// changes nothing. A caller that shows a person the findings of a
	// [*ScanError] and asks again passes the fingerprint the error named,
	// so the yes holds for the files the person was shown, not for what a
	// moved branch serves a moment later.
	Fingerprint string
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
	UpToDate bool `json:"up_to_date,omitempty"`
	// Omitted lists the source's entries left out on purpose, with why.
	Omitted []string `json:"omitted,omitempty"`
	// Diagnostics are the findings of the lenient load (warnings a loader
	// would show too), with paths in the installed folder.
	Diagnostics diagnostics.List `json:"diagnostics,omitempty"`
	// Notes say, for people, what the skill's dependencies need now: what
	// was rebuilt, what must still be installed, a setup script to run.
	// skillkit.Kit fills them in; it knows the dependency package.
	Notes []string `json:"notes,omitempty"`
	// Scan is the security scan of what was installed (nil when nothing was
	// fetched: an update found nothing new).
	Scan *scan.Report `json:"scan,omitempty"`
}

// Install fetches src into the staging area, checks, validates,
// fingerprints and scans it, and swaps it in as the skill its SKILL.md
// names. opts may be nil. See the package documentation for the flow, the
// refusals and what a failure leaves.
func (in *Installer) Install(ctx context.Context, src Source, opts *InstallOptions) (*Result, error) {
	var o InstallOptions
	if opts != nil {
		o = *opts
	}
	rep := in.reporter(OpInstall, "", src.String())
	err := in.dir.Recover(ctx)
	var res *Result
	if err == nil {
		res, err = in.install(ctx, src, rep, replaceRules{otherOrigin: o.Force, pinned: o.Force, modified: o.Force}, o.Confirmed, o.Fingerprint)
	}
	rep.Done(err)
	return res, err
}

// Skills lists the folders of the skills src holds (slash paths from the
// top of the source, or from src.Subdir), so that each can be installed on
// its own with that Subdir: ["."] when the top is itself a skill. It
// fetches src as Install does, in a transaction it ends, and installs
// nothing. A source whose top is a refused skill, or that holds none,
// returns the error Install would.
func (in *Installer) Skills(ctx context.Context, src Source) ([]string, error) {
	if err := in.dir.Recover(ctx); err != nil {
		return nil, err
	}
	plan, err := planFetch(src, in.opt.hosts, in.opt.git.AllowFile)
	if err != nil {
		return nil, err
	}
	t, err := in.dir.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer t.End()
	if err := in.dir.Root().Mkdir(t.Staging(skillsdir.TreeName), skillsdir.DirPerm); err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	var rec registry.Record
	check, err := in.fetch(ctx, t, plan, &rec, nil)
	inner := innerSkills(check.Valid)
	switch {
	case err == nil:
		return []string{"."}, nil
	case len(inner) > 0 && !slices.Contains(inner, "."):
		// Each is checked again on its own when installed.
		return inner, nil
	case skillsdir.IsRefusal(check, err):
		return nil, rejected(err)
	}
	return nil, err
}

// replaceRules say which existing skills an install may replace.
type replaceRules struct {
	otherOrigin bool // installed from elsewhere, or by hand
	pinned      bool
	modified    bool // edited since installed
}

// install runs the whole flow: stage, then the swap under the skill's
// lock, which is known once SKILL.md was read. The caller has run
// recovery, before taking any lock.
func (in *Installer) install(ctx context.Context, src Source, rep *skillsdir.Reporter, rules replaceRules, confirmed bool, fingerprint string) (*Result, error) {
	t, c, err := in.begin(ctx, src, rep)
	if err != nil {
		return nil, err
	}
	defer t.End()
	if err := c.admitted(confirmed, fingerprint); err != nil {
		return nil, err
	}
	unlock, err := in.dir.Lock(ctx, c.rec.Name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return in.swap(ctx, t, c, rules, rep)
}

// begin plans the fetch of src, opens a transaction and stages the source
// in it; the caller ends the transaction.
func (in *Installer) begin(ctx context.Context, src Source, rep *skillsdir.Reporter) (*skillsdir.Txn, *candidate, error) {
	plan, err := planFetch(src, in.opt.hosts, in.opt.git.AllowFile)
	if err != nil {
		return nil, nil, err
	}
	return in.staged(ctx, plan, rep)
}

// swap swaps the staged candidate in, when rules allow replacing what is
// there.
func (in *Installer) swap(ctx context.Context, t *skillsdir.Txn, c *candidate, rules replaceRules, rep *skillsdir.Reporter) (*Result, error) {
	sw, err := in.dir.Swap(ctx, t, c.rec, func(ctx context.Context, prev *registry.Record, present bool) error {
		return in.mayReplace(ctx, c.rec, prev, present, rules)
	}, rep)
	if err != nil {
		return nil, err
	}
	return c.result(sw), nil
}

// result is what swapping c in did.
func (c *candidate) result(sw *skillsdir.Swapped) *Result {
	return &Result{Name: sw.Record.Name, Record: sw.Record, Previous: sw.Previous, Replaced: sw.Replaced, Omitted: c.omitted,
		Diagnostics: c.diags, Scan: &c.scan}
}

// fetchPlan is what installing a source will do, decided before anything
// is touched: where the files come from and what the record will say of
// their origin.
type fetchPlan struct {
	kind   registry.Source // SourceGit (any git URL, GitHub included), SourceZip or SourceLocal
	git    gitSource       // kind SourceGit
	zip    Source          // kind SourceZip: ZipFile (absolute) or Zip and ZipSize
	dir    string          // kind SourceLocal: the folder, absolute
	remote Remote          // kind SourceWellKnown or SourceMCP
	origin registry.Record // Source, URL, Ref and Subdir; Commit is known after the fetch
	what   string          // for progress: "cloning URL", "extracting FILE", ...
	// packaged: kind SourceZip, an archive skillkit packed (a shared
	// package, a kept version) holding the skill at its top, whatever
	// origin.Subdir the record keeps.
	packaged bool
}

// packagePlan is the plan of installing an archive skillkit packed of
// files that came from origin.
func packagePlan(data []byte, origin registry.Record, what string) fetchPlan {
	return fetchPlan{kind: registry.SourceZip, packaged: true, zip: Source{Zip: bytes.NewReader(data), ZipSize: int64(len(data))},
		origin: origin, what: what}
}

// planFetch checks src and decides how to fetch it. It touches neither
// the network nor the skills folder.
func planFetch(src Source, hosts []string, allowFile bool) (fetchPlan, error) {
	kind, err := src.kind()
	if err != nil {
		return fetchPlan{}, err
	}
	p := fetchPlan{kind: kind}
	sub, err := cleanSubdir(src.Subdir)
	if err != nil {
		return fetchPlan{}, err
	}
	switch kind {
	case registry.SourceGit:
		if p.git, err = parseGit(src.Git, src.Ref, src.Subdir, hosts, allowFile); err != nil {
			return fetchPlan{}, err
		}
		p.origin = registry.Record{Source: p.git.source, URL: p.git.url, Ref: p.git.ref, Subdir: p.git.subdir}
		p.what = "cloning " + p.git.url
	case registry.SourceZip:
		p.zip = src
		p.origin = registry.Record{Source: registry.SourceZip, Subdir: sub}
		if src.ZipFile != "" {
			if p.zip.ZipFile, err = filepath.Abs(src.ZipFile); err != nil {
				return fetchPlan{}, fmt.Errorf("%w: %w", ErrInvalidSource, err)
			}
			p.origin.URL = p.zip.ZipFile
		}
		p.what = "extracting " + src.String()
	case registry.SourceLocal:
		if p.dir, err = filepath.Abs(src.Dir); err != nil {
			return fetchPlan{}, fmt.Errorf("%w: %w", ErrInvalidSource, err)
		}
		p.origin = registry.Record{Source: registry.SourceLocal, URL: p.dir, Subdir: sub}
		p.what = "copying " + p.dir
	default:
		p.remote = src.Remote
		p.origin, _ = remoteOrigin(src.Remote) // kind checked it
		p.what = "fetching " + src.String()
	}
	return p, nil
}

// candidate is a staged skill ready to swap in.
type candidate struct {
	rec     registry.Record // name, source fields and fingerprint filled in
	omitted []string
	diags   diagnostics.List
	scan    scan.Report
	admit   skillsdir.Admission
}

// admitted checks the files are the ones expected (when a fingerprint is
// given) and applies the trust policy's decision: a block refuses, an ask
// needs a person's confirmation.
func (c *candidate) admitted(confirmed bool, fingerprint string) error {
	if fingerprint != "" && c.rec.Fingerprint != fingerprint {
		return fmt.Errorf("%w: %s has the fingerprint %s, not %s", ErrFingerprintMismatch, c.rec.Name, c.rec.Fingerprint, fingerprint)
	}
	if c.admit.Decision == scan.Block || c.admit.Decision == scan.Ask && !confirmed {
		return &ScanError{Record: c.rec, Trust: c.admit.Trust, Decision: c.admit.Decision, Report: c.admit.Report,
			Permissions: c.admit.Permissions, Widened: c.admit.Widened, Republished: c.admit.Republished}
	}
	return nil
}

// staged begins a transaction and stages plan in it; the caller ends the
// transaction.
func (in *Installer) staged(ctx context.Context, plan fetchPlan, rep *skillsdir.Reporter) (*skillsdir.Txn, *candidate, error) {
	t, err := in.dir.Begin(ctx)
	if err != nil {
		return nil, nil, err
	}
	c, err := in.stage(ctx, t, plan, rep)
	if err != nil {
		t.End()
		return nil, nil, err
	}
	return t, c, nil
}

// stage carries out plan in transaction t: fetch into staging, check,
// validate, fingerprint, scan (with the trust policy's decision, which the
// caller applies), sync.
func (in *Installer) stage(ctx context.Context, t *skillsdir.Txn, plan fetchPlan, rep *skillsdir.Reporter) (*candidate, error) {
	tree := t.Staging(skillsdir.TreeName)
	if err := in.dir.Root().Mkdir(tree, skillsdir.DirPerm); err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	c := &candidate{rec: plan.origin}
	rep.Step(skillsdir.StepFetch, 5, "%s", plan.what)
	held := &archive.Held{Max: maxKeptBytes}
	check, err := in.fetch(ctx, t, plan, &c.rec, held)
	if err != nil {
		if inner := innerSkills(check.Valid); errors.Is(err, archive.ErrNoSkillFile) && len(inner) > 0 {
			err = &severalError{err: err, folders: inner}
		}
		if skillsdir.IsRefusal(check, err) {
			err = rejected(err)
		}
		return nil, err
	}
	if err := in.requireSigned(c.rec); err != nil {
		return nil, err
	}
	if err := t.Fault("fetch"); err != nil {
		return nil, err
	}
	for _, om := range check.Omitted {
		c.omitted = append(c.omitted, om.Error())
	}
	if err := t.Fault("check"); err != nil {
		return nil, err
	}
	rep.Step(skillsdir.StepCheck, 40, "%d files checked, %d left out", len(check.Valid), len(check.Omitted))

	staged := newKeptReads(osfs.Dir(t.StagingOS()))
	staged.hold(skillsdir.TreeName, held.Files())
	s, diags := skill.Load(staged, skillsdir.TreeName, nil)
	if err := skillsdir.CheckStaged(s, diags); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSkill, err)
	}
	c.rec.Name = s.Name
	c.rec.Version = s.Frontmatter.Version
	c.diags = skillsdir.InstalledDiagnostics(diags, in.dir.OSPath(s.Name))
	rep.SetSkill(s.Name)
	if err := t.Fault("validate"); err != nil {
		return nil, err
	}
	rep.Step(skillsdir.StepValidate, 55, "%s is a valid %s skill", s.Name, s.Class)

	// The scan and then the fingerprint read the staged files, the
	// fingerprint what the scan read from memory (keptReads): side by side,
	// each read them from disk, and the two cores were already the scan's.
	admit, admitErr := in.dir.Admit(ctx, s, c.rec)
	if admitErr != nil {
		return nil, admitErr
	}
	if old, ok := in.installedPermissions(s.Name); ok {
		admit.Grant(&old)
	} else {
		admit.Grant(nil)
	}
	staged.stopKeeping()
	sum, err := registry.Fingerprint(ctx, staged, skillsdir.TreeName)
	if err != nil {
		return nil, err
	}
	c.rec.Fingerprint = sum
	t.SetFingerprint(sum)
	if err := t.Fault("fingerprint"); err != nil {
		return nil, err
	}
	rep.Step(skillsdir.StepFingerprint, 65, "%s", c.rec.Fingerprint)

	c.admit = admit
	c.scan = c.admit.Report
	if err := t.Fault("scan"); err != nil {
		return nil, err
	}
	rep.Step(skillsdir.StepScan, 75, "%s: %s, %s", s.Name, c.admit.Report.Verdict, c.admit.Decision)
	if err := skillsdir.SyncTree(in.dir.OSPath(tree)); err != nil {
		return nil, fmt.Errorf("installer: syncing the staged skill: %w", err)
	}
	return c, nil
}

// requireSigned refuses rec, as fetched, when its origin is among
// Options.RequireSigned and no listed publisher signed it.
func (in *Installer) requireSigned(rec registry.Record) error {
	if rec.Signer.Verified() || scan.TrustOf(&rec, in.opt.required) != scan.TrustTrusted {
		return nil
	}
	state := "it is not a git commit"
	if rec.Source == registry.SourceZip {
		state = "no Sigstore bundle came with the archive"
	}
	if rec.Signer != nil {
		state = rec.Signer.Object + " is " + rec.Signer.State
	}
	return fmt.Errorf("%w: %s must be signed by a publisher the host lists (its publishers file); %s", ErrUnsigned, rec.URL, state)
}

// installedPermissions are the permissions of the skill installed under
// name, if there is one: what its last approval granted.
func (in *Installer) installedPermissions(name string) (skill.Permissions, bool) {
	data, err := in.dir.Root().ReadFile(path.Join(name, skill.ConfigFileName))
	if errors.Is(err, fs.ErrNotExist) {
		if ok, _ := in.dir.Exists(name); ok {
			return skill.Permissions{}, true // installed, asking for nothing
		}
		return skill.Permissions{}, false
	}
	if err != nil {
		return skill.Permissions{}, false
	}
	cfg, _ := skill.ParseConfig(data)
	if cfg == nil {
		return skill.Permissions{}, true
	}
	return cfg.Permissions, true
}

// fetch brings plan's files into t's staging tree through the archive and
// folder checks, and sets the commit and tree of a git source, or the
// version of a remote one, in rec. What a ZIP extraction writes is held
// in held.
func (in *Installer) fetch(ctx context.Context, t *skillsdir.Txn, plan fetchPlan, rec *registry.Record, held *archive.Held) (archive.Report, error) {
	tree := t.StagingOS(skillsdir.TreeName)
	switch plan.kind {
	case registry.SourceGit:
		srcDir, commit, treeID, signer, err := in.fetchGit(ctx, t, plan.git)
		if err != nil {
			return archive.Report{}, err
		}
		rec.Commit, rec.Tree, rec.Signer = commit, treeID, signer
		return archive.CopyDir(ctx, srcDir, tree, in.dir.Limits())
	case registry.SourceZip:
		return in.fetchZip(ctx, plan, tree, rec, held)
	case registry.SourceLocal:
		return in.fetchDir(ctx, plan.dir, plan.origin.Subdir, tree, rec)
	}
	fsys, version, err := plan.remote.Fetch(ctx, in.dir.Limits())
	if err != nil {
		return archive.Report{}, err
	}
	rec.Commit = version
	return archive.CopyFS(ctx, fsys, tree, in.dir.Limits())
}

// fetchGit clones g into t's staging folder, checks its signature, drops
// .git and returns the folder holding the skill, the commit, the folder's
// tree and the signature.
func (in *Installer) fetchGit(ctx context.Context, t *skillsdir.Txn, g gitSource) (dir, commit, tree string, signer *registry.Signer, err error) {
	root := in.dir.Root()
	if err := root.Mkdir(t.Staging(homeName), skillsdir.DirPerm); err != nil {
		return "", "", "", nil, fmt.Errorf("installer: %w", err)
	}
	clone, home := t.StagingOS(cloneName), t.StagingOS(homeName)
	if commit, err = in.clone(ctx, g, clone, home); err != nil {
		return "", "", "", nil, err
	}
	if signer, err = in.signature(ctx, g, clone, home, commit); err != nil {
		return "", "", "", nil, err
	}
	p := path.Join(t.Staging(cloneName), g.subdir)
	if err := realFolder(root, t.Staging(cloneName), g.subdir, "the repository"); err != nil {
		return "", "", "", nil, err
	}
	if tree, err = in.revParse(ctx, g, clone, home, treeOf("HEAD", g.subdir)); err != nil {
		return "", "", "", nil, err
	}
	if err := root.RemoveAll(t.Staging(cloneName, ".git")); err != nil {
		return "", "", "", nil, fmt.Errorf("installer: removing .git: %w", err)
	}
	return in.dir.OSPath(p), commit, tree, signer, nil
}

// Staging folders of a git fetch, inside the transaction's staging folder.
const (
	cloneName = "clone" // git's checkout
	homeName  = "home"  // git's empty HOME
)

// realFolder checks that every element of sub (a clean slash path, "" for
// none) under base in root is a real folder: a symbolic link would make the
// copy read outside what (the repository, the folder).
func realFolder(root *os.Root, base, sub, what string) error {
	if sub == "" {
		return nil
	}
	p := base
	for _, part := range strings.Split(sub, "/") {
		p = path.Join(p, part)
		info, err := root.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s has no folder %s", ErrInvalidSource, what, sub)
		}
		if err != nil {
			return fmt.Errorf("installer: %w", err)
		}
		if !info.IsDir() {
			return rejected(fmt.Errorf("%w: %s in %s is not a folder (%v)", archive.ErrLink, sub, what, info.Mode().Type()))
		}
	}
	return nil
}

// fetchDir copies the skill in folder sub ("" for the top) of the local
// folder dir into tree. A dir that is a git working tree (a .git at its
// top) is copied without its .git, and the commit checked out there is
// recorded in rec; git never runs in it (a checkout's configuration can
// run programs).
func (in *Installer) fetchDir(ctx context.Context, dir, sub, tree string, rec *registry.Record) (archive.Report, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return archive.Report{}, err
	}
	defer root.Close()
	if err := realFolder(root, ".", sub, "the folder "+dir); err != nil {
		return archive.Report{}, err
	}
	if _, err := root.Lstat(".git"); err != nil {
		return archive.CopyDir(ctx, filepath.Join(dir, filepath.FromSlash(sub)), tree, in.dir.Limits())
	}
	rec.Commit = checkoutCommit(root)
	if sub != "" {
		return archive.CopyDir(ctx, filepath.Join(dir, filepath.FromSlash(sub)), tree, in.dir.Limits())
	}
	return archive.CopyCheckout(ctx, dir, tree, in.dir.Limits())
}

// checkoutCommit reads the commit a git working tree has checked out from
// its .git folder, in root: a detached HEAD, or the branch HEAD names, loose
// or packed. It is "" when that cannot be told without git (a linked
// worktree's .git file, an unborn branch, anything unexpected).
func checkoutCommit(root *os.Root) string {
	read := func(name string) string {
		f, err := root.Open(path.Join(".git", name))
		if err != nil {
			return ""
		}
		defer f.Close()
		b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
		return string(b)
	}
	head := strings.TrimSpace(read("HEAD"))
	if gitcmd.IsCommitID(head) {
		return head
	}
	ref, ok := strings.CutPrefix(head, "ref: ")
	if !ok || !strings.HasPrefix(ref, "refs/") || checkRef(strings.TrimPrefix(ref, "refs/")) != nil {
		return ""
	}
	if id := strings.TrimSpace(read(ref)); gitcmd.IsCommitID(id) {
		return id
	}
	for line := range strings.Lines(read("packed-refs")) {
		if id, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok && name == ref && gitcmd.IsCommitID(id) {
			return id
		}
	}
	return ""
}

// mayReplace refuses to replace what rules do not allow.
func (in *Installer) mayReplace(ctx context.Context, next registry.Record, prev *registry.Record, present bool, rules replaceRules) error {
	name := next.Name
	switch {
	case prev == nil && present && !rules.otherOrigin:
		return fmt.Errorf("%w: %s has a skill folder that skillkit did not install; install with Force to replace it", ErrExists, name)
	case prev != nil && present && !skillsdir.SameOrigin(*prev, next) && !rules.otherOrigin:
		return fmt.Errorf("%w: %s was installed from %s %s; install with Force to replace it", ErrExists, name, prev.Source, prev.URL)
	case prev != nil && prev.Pinned && !rules.pinned:
		return fmt.Errorf("%w: %s; unpin it first, or install with Force", ErrPinned, name)
	}
	if prev != nil && present && !rules.modified {
		changed, err := in.dir.Modified(ctx, *prev)
		if err != nil {
			return err
		}
		if changed {
			return fmt.Errorf("%w: %s; use Force to discard the changes", ErrModified, name)
		}
	}
	return nil
}

func (in *Installer) reporter(op Op, skillName, source string) *skillsdir.Reporter {
	return skillsdir.NewReporter(in.opt.progress, op, skillName, source)
}

// innerSkills returns the folders of the skill files among a source's
// files (slash paths), sorted: what a source with several skills holds.
func innerSkills(files []string) []string {
	var out []string
	for _, f := range files {
		if skill.IsSkillFileName(path.Base(f)) {
			out = append(out, path.Dir(f))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// listed names at most ten items: "a, b and c", "a, b, ... and 12 more".
func listed(items []string) string {
	const most = 10
	if len(items) > most {
		return strings.Join(items[:most], ", ") + fmt.Sprintf(" and %d more", len(items)-most)
	}
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
