package installer

import (
	"context"
	"fmt"
	"time"

	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

// ApproveOptions tune one [Installer.Approve].
type ApproveOptions struct {
	// Confirmed says a person saw the scan's findings and approves the
	// files anyway: needed when the trust policy asks
	// ([ErrNeedsConfirmation]). A skill the policy blocks is never
	// approved.
	Confirmed bool
	// Fingerprint, when set, is the fingerprint the files must still have
	// (the one a [*ScanError] named when the person was asked), else
	// Approve fails with [ErrFingerprintMismatch] and records nothing.
	Fingerprint string
}

// Approval says what [Installer.Approve] recorded.
type Approval struct {
	Name        string                `json:"name"`
	Previous    string                `json:"previous"`          // the fingerprint approved before
	Fingerprint string                `json:"fingerprint"`       // the fingerprint approved now
	Unchanged   bool                  `json:"unchanged"`         // the files already had the approved fingerprint
	Trust       scan.Trust            `json:"trust"`             // the trust of the skill's source
	Decision    scan.Decision         `json:"decision"`          // what the trust policy said
	Scan        scan.Report           `json:"scan"`              // the scan of the current files
	Changes     []registry.FileChange `json:"changes,omitempty"` // filled in by skillkit.Kit, which keeps the approved lists
}

// Approve records the current files of the installed skill name as
// approved, so that what a person changed in them can run: it scans them
// and applies the trust policy as an install does (a blocked skill is
// refused, a skill the policy asks about needs opts.Confirmed, both with a
// [*ScanError]), then stores their fingerprint in the skill's record. On
// a replica sharing its registry (Options.Packages of the Kit) the
// approval holds for this replica alone: its note of what it placed takes
// the fingerprint, and the next sync that brings another version replaces
// the edit. A skill without a record fails with [ErrNotInstalled]: a skill
// placed by hand has nothing to approve and runs as a local skill.
func (in *Installer) Approve(ctx context.Context, name string, opts *ApproveOptions) (*Approval, error) {
	var o ApproveOptions
	if opts != nil {
		o = *opts
	}
	unlock, err := in.hold(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rec, err := in.dir.Record(ctx, name)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, fmt.Errorf("%w: %s has no record; a skill placed by hand runs as a local skill and needs no approval", ErrNotInstalled, name)
	}
	if ok, err := in.dir.HasSkill(name); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: the skills folder holds no %s", ErrNotInstalled, name)
		}
		return nil, err
	}
	fp, err := in.dir.Fingerprint(ctx, name)
	if err != nil {
		return nil, err
	}
	if o.Fingerprint != "" && fp != o.Fingerprint {
		return nil, fmt.Errorf("%w: %s has the fingerprint %s, not %s", ErrFingerprintMismatch, name, fp, o.Fingerprint)
	}
	s, diags := skill.Load(osfs.Dir(in.dir.Path()), name, &skill.LoadOptions{DiskRoot: in.dir.Path()})
	if s == nil {
		return nil, fmt.Errorf("%w: %s cannot be read: %v", ErrInvalidSkill, name, diags)
	}
	approved := rec.Fingerprint
	if in.dir.Packages() != nil {
		if placed, _ := in.dir.Placed(name); placed != "" {
			approved = placed
		}
	}
	candidate := *rec
	candidate.Fingerprint = fp
	if fp != rec.Fingerprint {
		// The publisher signed the files fetched, not these.
		candidate.Signer = nil
	}
	admit, err := in.dir.Admit(ctx, s, candidate)
	if err != nil {
		return nil, err
	}
	a := &Approval{Name: name, Previous: approved, Fingerprint: fp, Unchanged: fp == approved,
		Trust: admit.Trust, Decision: admit.Decision, Scan: admit.Report}
	if admit.Decision == scan.Block || admit.Decision == scan.Ask && !o.Confirmed {
		return nil, &ScanError{Record: candidate, Trust: admit.Trust, Decision: admit.Decision, Report: admit.Report}
	}
	if a.Unchanged {
		return a, nil
	}
	if in.dir.Packages() != nil {
		if err := in.dir.MarkPlaced(name, fp); err != nil {
			return nil, err
		}
	} else {
		_, err := registry.Update(ctx, in.dir.Registry(), name, func(r *registry.Record, found bool) error {
			if !found {
				return fmt.Errorf("%w: %s was uninstalled meanwhile", ErrNotInstalled, name)
			}
			r.Fingerprint, r.UpdatedAt, r.Signer = fp, time.Now().UTC(), candidate.Signer
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// The approved files become a version of the skill's history.
	if err := in.dir.RecordHeld(ctx, name, skillsdir.OpApprove, &candidate); err != nil {
		in.dir.Warn(ctx, "skillkit: the history of %s could not record the approval: %v", name, err)
	}
	in.dir.Audit(ctx, "skill approved", candidate)
	return a, nil
}
