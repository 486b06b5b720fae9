package skillsdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/installid"
	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// PlacedDir holds, when the folder shares its registry with other
// replicas (Options.Packages), one file per skill this replica placed from
// the registry: placed/<name> holds the fingerprint of the version placed.
// The registry is the fleet's; these files are this replica's own copy of
// what a lock file says on a single host.
const PlacedDir = ".skillhub/placed"

// Packages returns the store of installed skills' archives; nil when the
// folder shares nothing with other replicas.
func (d *Dir) Packages() registry.PackageStore { return d.packages }

// Placed returns the fingerprint of the version of skill name this replica
// placed, "" when it placed none (or the folder shares no packages).
func (d *Dir) Placed(name string) (string, error) {
	fp, _, err := d.placedNote(name)
	return fp, err
}

// PlacedInstall returns the install id of the version of skill name this
// replica placed: "" when it placed none, or its note is from a version
// of skillkit that did not note it.
func (d *Dir) PlacedInstall(name string) (string, error) {
	_, id, err := d.placedNote(name)
	return id, err
}

// placedNote reads placed/<name>: the fingerprint, then, after a space,
// the install id.
func (d *Dir) placedNote(name string) (fp, installID string, err error) {
	data, err := d.rawNote(name)
	if err != nil || data == "" {
		return "", "", err
	}
	fp, installID, _ = strings.Cut(strings.TrimSpace(data), " ")
	if err := registry.ValidateFingerprint(fp); err != nil {
		return "", "", fmt.Errorf("skillkit: %s: %w", path.Join(PlacedDir, name), err)
	}
	if err := installid.Validate(installID); err != nil {
		return "", "", fmt.Errorf("skillkit: %s: %w", path.Join(PlacedDir, name), err)
	}
	return fp, installID, nil
}

// rawNote returns what placed/<name> holds, "" when there is none.
func (d *Dir) rawNote(name string) (string, error) {
	if d.packages == nil {
		return "", nil
	}
	data, err := d.root.ReadFile(path.Join(PlacedDir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("skillkit: %w", err)
	}
	return string(data), nil
}

// MarkPlaced notes that this replica holds skill name at fingerprint fp,
// from the install it noted before (a setup script or an approval moved
// the files along).
func (d *Dir) MarkPlaced(name, fp string) error {
	_, id, _ := d.placedNote(name)
	return d.MarkPlacedInstall(name, fp, id)
}

// MarkPlacedInstall notes that this replica holds skill name at
// fingerprint fp, of the install installID: a sync that finds the skill
// uninstalled elsewhere removes it on the signed retirement of that
// install when it missed the version the uninstall removed.
func (d *Dir) MarkPlacedInstall(name, fp, installID string) error {
	note := fp
	if installID != "" {
		note += " " + installID
	}
	return d.writeNote(name, note+"\n")
}

// writeNote replaces placed/<name> with content.
func (d *Dir) writeNote(name, content string) error {
	if d.packages == nil {
		return nil
	}
	if err := d.root.MkdirAll(PlacedDir, DirPerm); err != nil {
		return fmt.Errorf("skillkit: %w", err)
	}
	if err := atomicfile.WriteFile(d.root, path.Join(PlacedDir, name), []byte(content), 0o644); err != nil {
		return fmt.Errorf("skillkit: noting that %s is placed: %w", name, err)
	}
	return nil
}

// Unmark forgets that this replica placed skill name.
func (d *Dir) Unmark(name string) error {
	if d.packages == nil {
		return nil
	}
	if err := d.root.Remove(path.Join(PlacedDir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("skillkit: %w", err)
	}
	return nil
}

// PlacedNames returns the skills this replica placed, sorted.
func (d *Dir) PlacedNames() ([]string, error) {
	if d.packages == nil {
		return nil, nil
	}
	entries, err := fs.ReadDir(d.root.FS(), PlacedDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && skill.ValidateKey(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// publish stores the files staged in t as the package of rec, before the
// swap makes rec the registry's: a replica that reads the record finds its
// files. Nothing is stored when the folder shares no packages, or when rec
// does not describe the staged files (an agent's edit of an installed skill
// keeps the installed record). A package over the archive limit cannot be
// fetched by any replica: the install fails.
func (d *Dir) publish(ctx context.Context, t *Txn, rec registry.Record) error {
	if d.packages == nil || rec.Fingerprint == "" {
		return nil
	}
	_, err := d.storePackage(ctx, t.StagingOS(TreeName), rec)
	return err
}

// PublishHeld stores the skill folder rec.Name, whose lock the caller
// holds, as the package of rec, signed when the folder holds a fleet key:
// the way out for a skill installed before its folder shared packages,
// whose record no replica could otherwise fetch. It reports false, storing
// nothing, when the folder's files are not rec's version.
func (d *Dir) PublishHeld(ctx context.Context, rec registry.Record) (bool, error) {
	if d.packages == nil {
		return false, errors.New("skillkit: the skills folder shares no package store")
	}
	return d.storePackage(ctx, d.OSPath(rec.Name), rec)
}

// storePackage packs tree and stores it as rec's package, with the
// statement of its install when the folder holds a key, provided tree has
// rec's fingerprint (else it stores nothing and reports false).
func (d *Dir) storePackage(ctx context.Context, tree string, rec registry.Record) (bool, error) {
	fp, err := registry.Fingerprint(ctx, osfs.Dir(tree), ".")
	if err != nil || fp != rec.Fingerprint {
		return false, err
	}
	var buf bytes.Buffer
	if err := archive.Pack(ctx, &buf, tree); err != nil {
		return false, fmt.Errorf("skillkit: the package of %s: %w", rec.Name, err)
	}
	if max := d.limits.Effective().MaxArchiveBytes; int64(buf.Len()) > max {
		return false, fmt.Errorf("skillkit: the package of %s is %d bytes, over the archive limit of %d, so no replica could fetch it", rec.Name, buf.Len(), max)
	}
	if err := d.packages.PutPackage(ctx, fp, buf.Bytes()); err != nil {
		return false, fmt.Errorf("skillkit: storing the package of %s: %w", rec.Name, err)
	}
	if d.fleetKey != nil {
		return true, registry.PutStatement(ctx, d.packages, d.fleetKey, registry.OpInstall, rec.Name, fp, rec.InstallID)
	}
	return true, nil
}

// signRemoval signs, before the record of a skill is deleted, that it was
// uninstalled at the fingerprint its record held, so that replicas that
// trust this one's key remove it too. Nothing when the folder shares no
// packages or holds no key.
func (d *Dir) signRemoval(ctx context.Context, prev *registry.Record) error {
	if d.packages == nil || d.fleetKey == nil || prev == nil || registry.ValidateFingerprint(prev.Fingerprint) != nil {
		return nil
	}
	if err := registry.PutStatement(ctx, d.packages, d.fleetKey, registry.OpRemove, prev.Name, prev.Fingerprint, ""); err != nil {
		return err
	}
	return d.signRetired(ctx, prev)
}

// signRetired signs that the install of prev is over (uninstalled, or
// replaced by an install of another origin), so that a replica still
// holding any version of it, one the fleet moved past while it lagged,
// removes it once the record is gone. Nothing without a key, a package
// store or an install id.
func (d *Dir) signRetired(ctx context.Context, prev *registry.Record) error {
	if d.packages == nil || d.fleetKey == nil || prev == nil || prev.InstallID == "" {
		return nil
	}
	return registry.PutStatement(ctx, d.packages, d.fleetKey, registry.OpRetire, prev.Name, "", prev.InstallID)
}

// CheckSigned checks, before Sync places or removes a skill, that a
// trusted key signed what the shared database says: the install of name
// at fp with installID, or its removal (installID empty). With no trusted
// key the error wraps registry.ErrNoTrustedKeys, unless the folder opted in to
// unsigned rows.
func (d *Dir) CheckSigned(ctx context.Context, op, name, fp, installID string) error {
	if len(d.fleetTrust) == 0 {
		if d.fleetUnsigned {
			return nil
		}
		return fmt.Errorf("%w: refusing the %s of %s", registry.ErrNoTrustedKeys, op, name)
	}
	return registry.CheckStatement(ctx, d.packages, d.fleetTrust, op, name, fp, installID)
}

// Stored reports whether the package store holds a package of
// fingerprint fp: files some replica installed, never an edit. It reads
// no archive.
func (d *Dir) Stored(ctx context.Context, fp string) (bool, error) {
	if d.packages == nil {
		return false, nil
	}
	_, err := d.packages.GetPackage(ctx, fp, 1)
	switch {
	case err == nil, errors.Is(err, registry.ErrPackageTooLarge):
		return true, nil
	case errors.Is(err, registry.ErrNotFound):
		return false, nil
	}
	return false, fmt.Errorf("skillkit: %w", err)
}

// FetchPackage returns the archive of the version of a skill with
// fingerprint fp from the package store, refusing one over the archive
// limit.
func (d *Dir) FetchPackage(ctx context.Context, fp string) ([]byte, error) {
	if d.packages == nil {
		return nil, errors.New("skillkit: the skills folder shares no package store")
	}
	return d.packages.GetPackage(ctx, fp, d.limits.Effective().MaxArchiveBytes)
}
