package installer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

// SyncOptions tune one Sync. The zero value is the default.
type SyncOptions struct {
	// Force replaces a skill folder this replica did not place from the
	// registry (placed by hand, or installed before the folder shared its
	// registry) and one whose files were edited since it was placed,
	// discarding them. It changes nothing of the scan's decision.
	Force bool
	// BeforeReplace, when set, is called under a skill's lock just before
	// Sync fetches a new version of a skill this replica holds, with the
	// skill's name: skillkit.Kit reads there what its dependencies had
	// built, to rebuild what the new version makes stale. Calls for
	// different skills may come at once.
	BeforeReplace func(ctx context.Context, name string)
	// Concurrency bounds how many skills Sync fetches and swaps at once.
	// Zero or negative means 4.
	Concurrency int
	// Publish stores in the package store, signed with the folder's fleet
	// key, the files of every recorded skill this replica holds at the
	// recorded version whose package is missing: skills installed before
	// the folder shared packages, which no other replica can fetch until
	// one that holds them publishes them (SyncPublished).
	Publish bool
}

// defaultSyncConcurrency is how many skills Sync works on at once: their
// fetches, checks and the disk's syncs overlap.
const defaultSyncConcurrency = 4

// SyncAction says what Sync did with one skill.
type SyncAction string

// The actions of a [SyncResult].
const (
	SyncInstalled SyncAction = "installed" // fetched: the replica lacked the skill
	SyncUpdated   SyncAction = "updated"   // fetched: the replica held another version
	SyncRemoved   SyncAction = "removed"   // uninstalled elsewhere: removed here too
	SyncPublished SyncAction = "published" // held here, its package stored for the others (SyncOptions.Publish)
	SyncFailed    SyncAction = "failed"    // nothing changed; Err says why
)

// SyncResult is what Sync did with one skill.
type SyncResult struct {
	Name   string     `json:"name"`
	Action SyncAction `json:"action"`
	// Fingerprint is the version the registry records (installed,
	// updated, failed) or the one removed.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Result is the install's result, for installed and updated skills:
	// the record, the scan, the load's diagnostics.
	Result *Result `json:"result,omitempty"`
	Err    error   `json:"-"`
}

// SyncReport is what one Sync did.
type SyncReport struct {
	// Results lists the skills Sync changed or could not change, sorted by
	// name; skills already in step are not listed.
	Results []SyncResult `json:"results"`
	// Placed are the skills this replica holds from the registry after the
	// sync, by name: the fingerprint of the version it placed.
	Placed map[string]string `json:"placed"`
}

// Err joins the errors of the skills Sync could not change; nil when it
// did all it should.
func (r *SyncReport) Err() error {
	var errs []error
	for _, res := range r.Results {
		if res.Err != nil {
			errs = append(errs, res.Err)
		}
	}
	return errors.Join(errs...)
}

// Sync brings the skills folder, one replica of several sharing a registry
// and a package store, to what the registry records. Every enabled skill
// whose record carries a fingerprint and that this replica lacks, or holds
// at another version, is fetched from the package store and goes through
// the install's flow — the archive checks, validation, fingerprint, scan
// and trust policy — and must have exactly the recorded fingerprint
// (else [ErrFingerprintMismatch]) before it is swapped in, with the record left
// as it is. A skill this replica placed whose record is gone (uninstalled
// elsewhere) is removed, its secrets left to the registry's owner. See the
// package documentation ("Replicas") for the rules. A few skills are
// handled at once (SyncOptions.Concurrency); a failure of one is in its
// SyncResult and does not stop the others. The error is ErrNoPackages, ctx's, or a failure to read the
// registry.
func (in *Installer) Sync(ctx context.Context, opts *SyncOptions) (*SyncReport, error) {
	if in.dir.Packages() == nil {
		return nil, ErrNoPackages
	}
	var o SyncOptions
	if opts != nil {
		o = *opts
	}
	if err := in.dir.Recover(ctx); err != nil {
		return nil, err
	}
	recs, err := in.dir.Registry().List(ctx)
	if err != nil {
		return nil, err
	}
	placed, err := in.dir.PlacedNames()
	if err != nil {
		return nil, err
	}
	s := &syncState{report: SyncReport{Placed: map[string]string{}}}
	if o.Concurrency <= 0 {
		o.Concurrency = defaultSyncConcurrency
	}
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	each := func(do func() *SyncResult) {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if res := do(); res != nil {
				s.add(*res)
			}
		})
	}
	recorded := map[string]bool{}
	for _, rec := range recs {
		recorded[rec.Name] = true
		each(func() *SyncResult { return in.syncOne(ctx, rec, o, s) })
	}
	for _, name := range placed {
		if !recorded[name] {
			each(func() *SyncResult { return in.syncRemove(ctx, name, o.Force) })
		}
	}
	wg.Wait()
	slices.SortFunc(s.report.Results, func(a, b SyncResult) int { return strings.Compare(a.Name, b.Name) })
	return &s.report, ctx.Err()
}

// syncState is the report the skills of one Sync fill in at once.
type syncState struct {
	mu     sync.Mutex
	report SyncReport
}

func (s *syncState) add(r SyncResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.report.Results = append(s.report.Results, r)
}

// hold notes that this replica holds skill name at fingerprint fp.
func (s *syncState) hold(name, fp string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.report.Placed[name] = fp
}

// syncOne brings one recorded skill in step and notes in the report's
// Placed what this replica holds of it; it returns nil when there was
// nothing to do.
func (in *Installer) syncOne(ctx context.Context, rec registry.Record, o SyncOptions, s *syncState) *SyncResult {
	name := rec.Name
	if !strings.HasPrefix(rec.Fingerprint, registry.FingerprintPrefix) {
		return nil // a record of flags alone (a hand-placed skill, a bundled one): nothing to fetch
	}
	failed := func(err error) *SyncResult {
		if fp, _ := in.dir.Placed(name); fp != "" {
			s.hold(name, fp)
		}
		return &SyncResult{Name: name, Action: SyncFailed, Fingerprint: rec.Fingerprint, Err: err}
	}
	placed, err := in.dir.Placed(name)
	if err != nil {
		return failed(err)
	}
	if o.Publish {
		if published, err := in.publishHeld(ctx, rec); err != nil {
			return failed(err)
		} else if published {
			s.hold(name, rec.Fingerprint)
			return &SyncResult{Name: name, Action: SyncPublished, Fingerprint: rec.Fingerprint}
		}
	}
	if placed == rec.Fingerprint || !rec.Enabled {
		// In step, or disabled: a disabled skill is not fetched, and the
		// replica keeps what it holds. A folder that went missing is
		// fetched again.
		present, err := in.dir.Exists(name)
		if err != nil {
			return failed(fmt.Errorf("installer: %w", err))
		}
		if present && placed != "" {
			s.hold(name, placed)
		}
		if present || !rec.Enabled {
			return nil
		}
	}
	unlock, err := in.dir.Lock(ctx, name)
	if err != nil {
		return failed(err)
	}
	defer unlock()
	res, err := in.fetchRecorded(ctx, rec, placed, o)
	if err != nil {
		return failed(err)
	}
	s.hold(name, rec.Fingerprint)
	return res
}

// fetchRecorded places the version rec records, under the skill's lock:
// a folder already holding it is only noted as placed; otherwise the
// package is fetched, checked as an install is, and swapped in.
func (in *Installer) fetchRecorded(ctx context.Context, rec registry.Record, placed string, o SyncOptions) (*SyncResult, error) {
	name := rec.Name
	// The shared database is not trusted on its own: what its record
	// names must be signed by a trusted installer.
	if err := in.dir.CheckSigned(ctx, registry.OpInstall, name, rec.Fingerprint, rec.InstallID); err != nil {
		if stored, serr := in.dir.Stored(ctx, rec.Fingerprint); serr == nil && !stored {
			return nil, notPublished(rec, err)
		}
		return nil, err
	}
	present, err := in.dir.Exists(name)
	if err != nil {
		return nil, fmt.Errorf("installer: %w", err)
	}
	if present {
		current, err := in.dir.Fingerprint(ctx, name)
		if err != nil {
			return nil, err
		}
		if current == rec.Fingerprint {
			// Already the recorded version (installed here, or placed by a
			// sync that died before noting it): note it.
			return nil, in.dir.MarkPlacedInstall(name, current, rec.InstallID)
		}
		if current != placed && !o.Force {
			// Files that are a version the fleet stored are no edit, whatever
			// the note says: a crash or a full disk may have kept it behind.
			stored, err := in.dir.Stored(ctx, current)
			switch {
			case err != nil:
				return nil, err
			case stored:
			case placed == "":
				return nil, fmt.Errorf("%w: %s has a skill folder this replica did not place from the registry; sync with Force to replace it", ErrExists, name)
			default:
				return nil, fmt.Errorf("%w: %s was edited on this replica since it was placed; sync with Force to discard the changes", ErrModified, name)
			}
		}
		if o.BeforeReplace != nil {
			o.BeforeReplace(ctx, name)
		}
	}
	rep := in.reporter(skillsdir.OpSync, name, "package "+rec.Fingerprint)
	res, err := in.place(ctx, rec, rep)
	rep.Done(err)
	if err != nil {
		return nil, err
	}
	action := SyncInstalled
	if res.Replaced {
		action = SyncUpdated
	}
	return &SyncResult{Name: name, Action: action, Fingerprint: rec.Fingerprint, Result: res}, nil
}

// publishHeld stores, under the skill's lock, the files of rec's skill
// when this folder holds it at the recorded version and the package store
// lacks them, and notes the skill as placed.
func (in *Installer) publishHeld(ctx context.Context, rec registry.Record) (bool, error) {
	stored, err := in.dir.Stored(ctx, rec.Fingerprint)
	if err != nil || stored {
		return false, err
	}
	unlock, err := in.dir.Lock(ctx, rec.Name)
	if err != nil {
		return false, err
	}
	defer unlock()
	if present, err := in.dir.Exists(rec.Name); err != nil || !present {
		return false, err
	}
	published, err := in.dir.PublishHeld(ctx, rec)
	if err != nil || !published {
		return false, err
	}
	return true, in.dir.MarkPlacedInstall(rec.Name, rec.Fingerprint, rec.InstallID)
}

// notPublished is the error of a record whose package no replica stored:
// it names the way out.
func notPublished(rec registry.Record, err error) error {
	return fmt.Errorf("%w; no replica stored the files of %s (installed before the fleet shared packages?): "+
		"run `skillkit sync --publish` (SyncOptions.Publish) where it is installed, or install it again", err, rec.Name)
}

// place fetches rec's package and swaps it in through the install's flow.
func (in *Installer) place(ctx context.Context, rec registry.Record, rep *skillsdir.Reporter) (*Result, error) {
	data, err := in.dir.FetchPackage(ctx, rec.Fingerprint)
	if errors.Is(err, registry.ErrNotFound) {
		return nil, notPublished(rec, err)
	}
	if err != nil {
		return nil, err
	}
	origin := registry.Record{Source: rec.Source, URL: rec.URL, Ref: rec.Ref, Commit: rec.Commit, Subdir: rec.Subdir, Tree: rec.Tree}
	t, c, err := in.staged(ctx, packagePlan(data, origin, "extracting the package "+rec.Fingerprint), rep)
	if err != nil {
		return nil, err
	}
	defer t.End()
	// The files must be the recorded ones: the store checks nothing. The
	// record is also the fleet's admission: a skill the policy asks about
	// was confirmed by a person where it was installed; a block stands.
	if err := c.admitted(true, rec.Fingerprint); err != nil {
		if errors.Is(err, ErrFingerprintMismatch) {
			err = pkgerr.Wrap("installer", err, "refusing the stored package of %s", rec.Name)
		}
		return nil, err
	}
	if c.rec.Name != rec.Name {
		return nil, fmt.Errorf("%w: the package %s holds the skill %q, not %q", ErrInvalidSkill, rec.Fingerprint, c.rec.Name, rec.Name)
	}
	sw, err := in.dir.Place(ctx, t, c.rec, func(_ context.Context, prev *registry.Record, _ bool) error {
		if prev == nil || prev.Fingerprint != rec.Fingerprint {
			return fmt.Errorf("%w: %s changed in the registry while it was synced; sync again", registry.ErrConflict, rec.Name)
		}
		return nil
	}, rep)
	if err != nil {
		return nil, err
	}
	return c.result(sw), nil
}

// syncRemove removes skill name, which this replica placed and whose
// record is gone, unless a record came back meanwhile, or its files were
// edited here since (then only with force: ErrModified). Its secrets are
// not purged: they are shared, and the uninstall that deleted the record
// decided about them.
func (in *Installer) syncRemove(ctx context.Context, name string, force bool) *SyncResult {
	fp, err := in.dir.Placed(name)
	res := &SyncResult{Name: name, Action: SyncRemoved, Fingerprint: fp}
	if err == nil {
		// A record that is gone is no proof of an uninstall: a trusted
		// installer must have signed the removal of the version held, or,
		// for a replica that missed the versions after it, the end of its
		// install.
		err = in.dir.CheckSigned(ctx, registry.OpRemove, name, fp, "")
		if errors.Is(err, registry.ErrUnsigned) {
			if id, ierr := in.dir.PlacedInstall(name); ierr == nil && id != "" && in.dir.CheckSigned(ctx, registry.OpRetire, name, "", id) == nil {
				err = nil
			}
		}
	}
	if err == nil {
		var unlock func()
		if unlock, err = in.dir.Lock(ctx, name); err == nil {
			rep := in.reporter(skillsdir.OpSync, name, "")
			_, err = in.dir.Remove(ctx, name, false, func(ctx context.Context, prev *registry.Record, present bool) error {
				if prev != nil {
					return errReinstalled
				}
				if present && !force {
					return in.checkUnedited(ctx, name, fp)
				}
				return nil
			}, rep)
			rep.Done(err)
			unlock()
		}
	}
	switch {
	case errors.Is(err, errReinstalled):
		return nil // the next sync places the new install
	case err != nil:
		res.Action, res.Err = SyncFailed, err
	}
	return res
}

// checkUnedited fails with ErrModified when skill name's files are neither
// the version placed (fp) nor any version the package store holds: an
// edit made on this replica, which a sync discards only with Force.
func (in *Installer) checkUnedited(ctx context.Context, name, fp string) error {
	current, err := in.dir.Fingerprint(ctx, name)
	if err != nil || current == fp {
		return err
	}
	stored, err := in.dir.Stored(ctx, current)
	if err != nil || stored {
		return err
	}
	return fmt.Errorf("%w: %s, uninstalled elsewhere, was edited on this replica; sync with Force to remove it", ErrModified, name)
}

// errReinstalled: a skill Sync was removing got a record again.
var errReinstalled = errors.New("installer: recorded again")
