package installer

import (
	"context"
	"fmt"
	"sync"

	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// UpdateOptions tune Update and UpdateAll.
type UpdateOptions struct {
	// Force replaces a skill whose installed files were changed since it
	// was installed, discarding the changes. It never updates a pinned
	// skill, and changes nothing of the scan's decision.
	Force bool
	// Confirmed says a person saw the scan's findings of the new version
	// and let it in, as for an install. An update passes the same scan and
	// trust policy as an install: a version the policy blocks is refused.
	Confirmed bool
	// Fingerprint, when set, is the fingerprint the new version's files
	// must have, as for an install ([InstallOptions.Fingerprint]).
	Fingerprint string
}

// Update fetches skill name again from its recorded origin and installs it
// when its files changed. A git source whose remote still points to the
// recorded commit, or a [Remote] that still serves the recorded version, is
// up to date (Result.UpToDate) without fetching the files; otherwise
// the source is fetched and checked as an install is, and when the fetched
// files are the ones installed (a commit elsewhere in the repository, a
// folder or ZIP file that did not change) nothing is swapped: the skill, its
// .venv and node_modules stay as they are, and only the record learns the
// new commit. It refuses a pinned skill (ErrPinned), a skill without an
// origin to fetch (ErrNotUpdatable), and one whose files were edited since
// it was installed (ErrModified) unless opts.Force. opts may be nil.
func (in *Installer) Update(ctx context.Context, name string, opts *UpdateOptions) (*Result, error) {
	rep := in.reporter(OpUpdate, name, "")
	var o UpdateOptions
	if opts != nil {
		o = *opts
	}
	res, err := in.update(ctx, name, o, rep)
	rep.Done(err)
	return res, err
}

func (in *Installer) update(ctx context.Context, name string, opts UpdateOptions, rep *skillsdir.Reporter) (*Result, error) {
	unlock, err := in.hold(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rec, err := in.record(ctx, name)
	if err != nil {
		return nil, err
	}
	if rec.Pinned {
		return nil, fmt.Errorf("%w: %s; unpin it to update it", ErrPinned, name)
	}
	src, err := in.sourceOf(rec)
	if err != nil {
		return nil, err
	}
	rep.SetSource(src.String())
	if src.Remote != nil && rec.Commit != "" {
		rep.Step(skillsdir.StepCheckRemote, 2, "asking %s for the version it serves", rec.URL)
		latest, err := src.Remote.Version(ctx)
		if err != nil {
			return nil, err
		}
		if latest == rec.Commit {
			rep.Step(skillsdir.StepCheckRemote, 100, "%s is up to date at %.19s", name, latest)
			return &Result{Name: name, Record: rec, Previous: &rec, UpToDate: true}, nil
		}
	}
	if rec.Source == registry.SourceGit || rec.Source == registry.SourceGitHub {
		rep.Step(skillsdir.StepCheckRemote, 2, "asking %s for its latest commit", rec.URL)
		latest, err := in.latest(ctx, rec)
		if err != nil {
			return nil, err
		}
		if latest == rec.Commit {
			rep.Step(skillsdir.StepCheckRemote, 100, "%s is up to date at %.12s", name, latest)
			return &Result{Name: name, Record: rec, Previous: &rec, UpToDate: true}, nil
		}
	}
	present, err := in.dir.Exists(name)
	if err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	changed := false
	if present {
		if changed, err = in.dir.Modified(ctx, rec); err != nil {
			return nil, err
		}
		if changed && !opts.Force {
			return nil, fmt.Errorf("%w: %s; update with Force to discard the changes", ErrModified, name)
		}
	}
	t, c, err := in.begin(ctx, src, rep)
	if err != nil {
		return nil, err
	}
	defer t.End()
	if c.rec.Name != name {
		return nil, fmt.Errorf("%w: the source now holds the skill %q, not %q", ErrInvalidSkill, c.rec.Name, name)
	}
	if present && !changed && c.rec.Fingerprint == rec.Fingerprint && (opts.Fingerprint == "" || opts.Fingerprint == rec.Fingerprint) {
		return in.unchanged(ctx, rec, c.rec, rep)
	}
	c.admit.Resigned(rec.Signer, c.rec.Signer)
	if err := c.admitted(opts.Confirmed, opts.Fingerprint); err != nil {
		return nil, err
	}
	return in.swap(ctx, t, c, replaceRules{modified: true}, rep)
}

// unchanged answers an update whose fetched files are the installed ones:
// nothing is swapped; the record notes the commit and tree the files were
// fetched at, and their signature, so the next update and CheckUpdates compare with them.
func (in *Installer) unchanged(ctx context.Context, rec, fetched registry.Record, rep *skillsdir.Reporter) (*Result, error) {
	prev := rec
	if fetched.Commit != rec.Commit || fetched.Tree != rec.Tree || !fetched.Signer.Equal(rec.Signer) {
		rec.Commit, rec.Tree, rec.Signer = fetched.Commit, fetched.Tree, fetched.Signer
		if err := in.dir.Registry().Put(ctx, rec); err != nil {
			return nil, fmt.Errorf("installer: recording commit %.12s of %s: %w", rec.Commit, rec.Name, err)
		}
	}
	rep.Step(skillsdir.StepCheck, 100, "%s is up to date: its files did not change", rec.Name)
	return &Result{Name: rec.Name, Record: rec, Previous: &prev, UpToDate: true}, nil
}

// record returns the record of an installed skill, ErrNotInstalled when
// there is none.
func (in *Installer) record(ctx context.Context, name string) (registry.Record, error) {
	if err := skill.ValidateKey(name); err != nil {
		return registry.Record{}, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	rec, err := in.dir.Record(ctx, name)
	if err != nil {
		return registry.Record{}, err
	}
	if rec == nil {
		return registry.Record{}, fmt.Errorf("%w: %s has no record", ErrNotInstalled, name)
	}
	return *rec, nil
}

// sourceOf turns a record back into the source it was installed from.
func (in *Installer) sourceOf(rec registry.Record) (Source, error) {
	switch {
	case rec.URL == "":
	case isRemote(rec) && in.opt.remote != nil:
		r, err := in.opt.remote(rec)
		if err != nil {
			return Source{}, fmt.Errorf("%w: %s: %w", ErrNotUpdatable, rec.Name, err)
		}
		return Source{Remote: r}, nil
	case rec.Source == registry.SourceGit || rec.Source == registry.SourceGitHub:
		return Source{Git: rec.URL, Ref: rec.Ref, Subdir: rec.Subdir}, nil
	case rec.Source == registry.SourceZip:
		return Source{ZipFile: rec.URL, Subdir: rec.Subdir}, nil
	case rec.Source == registry.SourceLocal:
		return Source{Dir: rec.URL, Subdir: rec.Subdir}, nil
	}
	return Source{}, fmt.Errorf("%w: %s (source %q, url %q)", ErrNotUpdatable, rec.Name, rec.Source, rec.URL)
}

// UpdateResult is the outcome of one skill in UpdateAll.
type UpdateResult struct {
	Name    string  `json:"name"`              // the skill
	Result  *Result `json:"result,omitempty"`  // set when the update ran
	Skipped string  `json:"skipped,omitempty"` // why it was not tried: "pinned", "no origin"
	Err     error   `json:"-"`                 // why the update failed
}

// UpdateAll updates every recorded skill in name order, skipping pinned
// skills and those without an origin to fetch. A failure of one skill does
// not stop the others; it is in its UpdateResult. The error is ctx's, or a
// failure to read the registry.
func (in *Installer) UpdateAll(ctx context.Context, opts *UpdateOptions) ([]UpdateResult, error) {
	if err := in.dir.Recover(ctx); err != nil {
		return nil, err
	}
	recs, err := in.dir.Registry().List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]UpdateResult, 0, len(recs))
	for _, rec := range recs {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r := UpdateResult{Name: rec.Name}
		if rec.Pinned {
			r.Skipped = "pinned"
		} else if _, err := in.sourceOf(rec); err != nil {
			r.Skipped = "no origin"
			if rec.URL != "" && isRemote(rec) && in.opt.remote != nil {
				// A remote the host refuses to reach (an MCP server not on
				// its list) is a failure to report, not a skill without
				// origin.
				r.Skipped, r.Err = "", err
			}
		} else {
			r.Result, r.Err = in.Update(ctx, rec.Name, opts)
		}
		out = append(out, r)
	}
	return out, nil
}

// UpdateStatus is what CheckUpdates found for one skill.
type UpdateStatus struct {
	Name    string          `json:"name"`              // the skill
	Source  registry.Source `json:"source,omitempty"`  // from its record
	URL     string          `json:"url,omitempty"`     // from its record
	Ref     string          `json:"ref,omitempty"`     // the branch or tag followed; "" for the default branch
	Current string          `json:"current,omitempty"` // the commit installed; for a Remote, the version (a digest)
	Latest  string          `json:"latest,omitempty"`  // the commit, or the Remote's version, the source has now
	// Checked is false for skills whose source cannot be asked (ZIP, local
	// folder, agent-written, hand-placed) and when asking failed.
	Checked bool `json:"checked"`
	// HasUpdate: the skill's folder differs at Latest from what was
	// installed (its git tree, when the record holds one; else Latest
	// differs from Current). A commit elsewhere in a repository holding
	// several skills is no update of this one.
	HasUpdate bool   `json:"has_update"`
	Pinned    bool   `json:"pinned"`          // Update would refuse it
	Error     string `json:"error,omitempty"` // why the remote could not be asked
}

// CheckUpdates asks the remote of every skill installed from git for its
// latest commit, a few at a time, and, when it moved, for the tree of the
// skill's folder there, which it compares with the installed one: git
// ls-remote and a shallow fetch without file contents through the Runner
// (any host, no token), or the GitHub API for github.com sources when
// Options.GitHub is set. A skill installed from a [Remote] (through
// Options.Remote) is asked for the version it serves, which is compared
// with the one installed. It returns one status per record, sorted by name;
// a remote that cannot be asked gives a status with Error, not an error.
// Pinned skills are checked too, and marked. It changes nothing.
func (in *Installer) CheckUpdates(ctx context.Context) ([]UpdateStatus, error) {
	recs, err := in.dir.Registry().List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]UpdateStatus, len(recs))
	sem := make(chan struct{}, in.opt.checkConc)
	var wg sync.WaitGroup
	for i, rec := range recs {
		out[i] = UpdateStatus{Name: rec.Name, Source: rec.Source, URL: rec.URL, Ref: rec.Ref, Current: rec.Commit, Pinned: rec.Pinned}
		git := rec.Source == registry.SourceGit || rec.Source == registry.SourceGitHub
		if !git && !(isRemote(rec) && in.opt.remote != nil && rec.Commit != "") || rec.URL == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				out[i].Error = context.Cause(ctx).Error()
				return
			}
			defer func() { <-sem }()
			latest, changed, err := in.remoteState(ctx, rec, git)
			if err != nil {
				out[i].Error = err.Error()
				return
			}
			out[i].Checked, out[i].Latest, out[i].HasUpdate = git || latest != "", latest, changed
		}()
	}
	wg.Wait()
	return out, ctx.Err()
}

// remoteState returns the commit rec's remote ref points to now and whether
// the skill's folder differs there from the installed one: compared by git
// tree when the record holds the installed tree, else by commit. For a
// Remote, the version it serves now against the one installed.
func (in *Installer) remoteState(ctx context.Context, rec registry.Record, git bool) (latest string, changed bool, err error) {
	if !git {
		src, err := in.sourceOf(rec)
		if err != nil {
			return "", false, err
		}
		latest, err := src.Remote.Version(ctx)
		if err != nil || latest == "" {
			return "", false, err
		}
		return latest, latest != rec.Commit, nil
	}
	if latest, err = in.latest(ctx, rec); err != nil || latest == rec.Commit || rec.Tree == "" {
		return latest, err == nil && latest != rec.Commit, err
	}
	g, err := parseGit(rec.URL, rec.Ref, rec.Subdir, in.opt.hosts, in.opt.git.AllowFile)
	if err != nil {
		return "", false, err
	}
	var tree string
	if g.source == registry.SourceGitHub && in.opt.github != nil {
		tree, err = in.opt.github.treeAt(ctx, g.owner, g.repo, latest, g.subdir)
	} else {
		latest, tree, err = in.remoteTree(ctx, g)
	}
	if err != nil {
		return "", false, err
	}
	return latest, tree != rec.Tree, nil
}

// remoteTree fetches g's ref (its default branch when none), one commit
// deep and without file contents, and returns the commit and the tree of
// g's folder in it.
func (in *Installer) remoteTree(ctx context.Context, g gitSource) (commit, tree string, err error) {
	t, err := in.gitScratch(ctx)
	if err != nil {
		return "", "", err
	}
	defer t.End()
	repo, home := t.StagingOS(cloneName), t.StagingOS(homeName)
	if _, err := in.runGit(ctx, "init", g.url, home, home, "init", "--quiet", "--bare", "--", repo); err != nil {
		return "", "", err
	}
	ref := g.ref
	if ref == "" {
		ref = "HEAD"
	}
	if _, err := in.runGit(ctx, "fetch", g.url, repo, home, "fetch", "--quiet", "--depth", "1", "--filter=blob:none", "--no-tags", "--", g.cloneURL, ref); err != nil {
		return "", "", err
	}
	if commit, err = in.revParse(ctx, g, repo, home, "FETCH_HEAD^{commit}"); err != nil {
		return "", "", err
	}
	if tree, err = in.revParse(ctx, g, repo, home, treeOf("FETCH_HEAD", g.subdir)); err != nil {
		return "", "", fmt.Errorf("%w: the repository has no folder %s at %.12s any more", ErrInvalidSource, g.subdir, commit)
	}
	return commit, tree, nil
}

// gitScratch begins a transaction with an empty home for git, for the
// remote queries that install nothing. CheckUpdates may be the first thing
// a host does in a skills folder, so the bookkeeping folders are made here.
func (in *Installer) gitScratch(ctx context.Context) (*skillsdir.Txn, error) {
	if err := in.dir.MakeDirs(); err != nil {
		return nil, err
	}
	t, err := in.dir.Begin(ctx)
	if err != nil {
		return nil, err
	}
	if err := in.dir.Root().Mkdir(t.Staging(homeName), skillsdir.DirPerm); err != nil {
		t.End()
		return nil, fmt.Errorf("installer: %w", err)
	}
	return t, nil
}

// latest returns the commit rec's remote ref points to now.
func (in *Installer) latest(ctx context.Context, rec registry.Record) (string, error) {
	g, err := parseGit(rec.URL, rec.Ref, rec.Subdir, in.opt.hosts, in.opt.git.AllowFile)
	if err != nil {
		return "", err
	}
	if g.source == registry.SourceGitHub && in.opt.github != nil {
		return in.opt.github.latestCommit(ctx, g.owner, g.repo, g.ref)
	}
	t, err := in.gitScratch(ctx)
	if err != nil {
		return "", err
	}
	defer t.End()
	return in.lsRemote(ctx, g, t.StagingOS(homeName))
}

// hold checks that name can name a skill ([skill.ValidateKey]) before it
// reaches a path, settles crashed operations and takes the skill's lock.
func (in *Installer) hold(ctx context.Context, name string) (unlock func(), err error) {
	if err := skill.ValidateKey(name); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	return in.dir.Hold(ctx, name)
}
