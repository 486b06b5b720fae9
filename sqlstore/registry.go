package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Registry is a [registry.Store] in the table skillkit_registry, one row per
// skill. It implements [registry.CompareAndSwapper]: every write increases
// the row's revision, and a conditional write reads the row, compares it
// with the record the caller read, and updates it only while its revision
// is still the one it read. PostgreSQL keeps times to the microsecond.
type Registry struct {
	db *DB
}

var (
	_ registry.Store             = (*Registry)(nil)
	_ registry.CompareAndSwapper = (*Registry)(nil)
)

const registryColumns = "name, version, source, url, ref, commit_hash, subdir, tree, fingerprint, installed_at, updated_at, enabled, pinned, install_id, signer"

// insertRecord returns the INSERT of one row of registryColumns.
func insertRecord() string {
	n := strings.Count(registryColumns, ",") + 1
	return "INSERT INTO skillkit_registry (" + registryColumns + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")"
}

// args returns rec's values in the order of registryColumns.
func (r *Registry) args(rec registry.Record) []any {
	return []any{rec.Name, rec.Version, string(rec.Source), rec.URL, rec.Ref, rec.Commit, rec.Subdir, rec.Tree, rec.Fingerprint,
		r.db.timeArg(rec.InstalledAt), r.db.timeArg(rec.UpdatedAt), rec.Enabled, rec.Pinned, rec.InstallID, signerText(rec.Signer)}
}

// signerText is the signer column's value: rec.Signer as JSON, "" for none.
func signerText(s *registry.Signer) string {
	if s == nil {
		return ""
	}
	b, _ := json.Marshal(s) // strings and a slice of strings always marshal
	return string(b)
}

// scanRecord reads a row of registryColumns and revision.
func scanRecord(row interface{ Scan(...any) error }) (registry.Record, int64, error) {
	var rec registry.Record
	var source string
	var installed, updated scannedTime
	var revision int64
	var signer string
	err := row.Scan(&rec.Name, &rec.Version, &source, &rec.URL, &rec.Ref, &rec.Commit, &rec.Subdir, &rec.Tree, &rec.Fingerprint,
		&installed, &updated, &rec.Enabled, &rec.Pinned, &rec.InstallID, &signer, &revision)
	rec.Source, rec.InstalledAt, rec.UpdatedAt = registry.Source(source), installed.t, updated.t
	if err == nil && signer != "" {
		rec.Signer = &registry.Signer{}
		if jerr := json.Unmarshal([]byte(signer), rec.Signer); jerr != nil {
			err = fmt.Errorf("%w: the signer of %s: %w", registry.ErrCorrupt, rec.Name, jerr)
		}
	}
	return rec, revision, err
}

// get returns the record of name and its revision; found is false when
// there is none.
func (r *Registry) get(ctx context.Context, name string) (rec registry.Record, revision int64, found bool, err error) {
	row := r.db.db.QueryRowContext(ctx, r.db.rebind("SELECT "+registryColumns+", revision FROM skillkit_registry WHERE name = ?"), name)
	rec, revision, err = scanRecord(row)
	if errors.Is(err, sql.ErrNoRows) {
		return registry.Record{}, 0, false, nil
	}
	if err != nil {
		return registry.Record{}, 0, false, pkgerr.Wrap("sqlstore", err, "reading the record of %s", name)
	}
	return rec, revision, true, nil
}

// Get returns the record for name.
func (r *Registry) Get(ctx context.Context, name string) (registry.Record, error) {
	if err := ctx.Err(); err != nil {
		return registry.Record{}, err
	}
	if skill.ValidateKey(name) != nil {
		return registry.Record{}, notFound(name)
	}
	rec, _, found, err := r.get(ctx, name)
	if err == nil && !found {
		err = notFound(name)
	}
	return rec, err
}

// List returns every record, sorted by name in byte order.
func (r *Registry) List(ctx context.Context) ([]registry.Record, error) {
	rows, err := r.db.db.QueryContext(ctx, "SELECT "+registryColumns+", revision FROM skillkit_registry")
	if err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "listing the registry")
	}
	defer rows.Close()
	out := []registry.Record{}
	for rows.Next() {
		rec, _, err := scanRecord(rows)
		if err != nil {
			return nil, pkgerr.Wrap("sqlstore", err, "listing the registry")
		}
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "listing the registry")
	}
	slices.SortFunc(out, func(a, b registry.Record) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// Put stores rec, replacing any record with the same name.
func (r *Registry) Put(ctx context.Context, rec registry.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := rec.Validate(); err != nil {
		return err
	}
	_, err := r.db.exec(ctx, insertRecord()+" "+
		"ON CONFLICT (name) DO UPDATE SET version = excluded.version, source = excluded.source, url = excluded.url, ref = excluded.ref, "+
		"commit_hash = excluded.commit_hash, subdir = excluded.subdir, tree = excluded.tree, fingerprint = excluded.fingerprint, installed_at = excluded.installed_at, "+
		"updated_at = excluded.updated_at, enabled = excluded.enabled, pinned = excluded.pinned, install_id = excluded.install_id, signer = excluded.signer, "+
		"revision = skillkit_registry.revision + 1", r.args(rec)...)
	return pkgerr.Wrap("sqlstore", err, "writing the record of %s", rec.Name)
}

// Delete removes the record for name.
func (r *Registry) Delete(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n, err := r.db.exec(ctx, "DELETE FROM skillkit_registry WHERE name = ?", name)
	if err != nil {
		return pkgerr.Wrap("sqlstore", err, "deleting the record of %s", name)
	}
	if n == 0 {
		return notFound(name)
	}
	return nil
}

// CompareAndSwap stores rec only if the stored record is still *old (none,
// with old nil).
func (r *Registry) CompareAndSwap(ctx context.Context, old *registry.Record, rec registry.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := rec.Validate(); err != nil {
		return err
	}
	if old != nil && old.Name != rec.Name {
		return fmt.Errorf("%w: compare-and-swap of %q with a record of %q", registry.ErrInvalidRecord, rec.Name, old.Name)
	}
	if old == nil {
		n, err := r.db.exec(ctx, insertRecord()+" "+
			"ON CONFLICT (name) DO NOTHING", r.args(rec)...)
		if err != nil {
			return pkgerr.Wrap("sqlstore", err, "writing the record of %s", rec.Name)
		}
		if n == 0 {
			return conflict(rec.Name)
		}
		return nil
	}
	revision, err := r.revisionIf(ctx, *old)
	if errors.Is(err, registry.ErrNotFound) {
		return conflict(rec.Name)
	}
	if err != nil {
		return err
	}
	args := append(r.args(rec)[1:], rec.Name, revision)
	n, err := r.db.exec(ctx, "UPDATE skillkit_registry SET version = ?, source = ?, url = ?, ref = ?, commit_hash = ?, subdir = ?, tree = ?, "+
		"fingerprint = ?, installed_at = ?, updated_at = ?, enabled = ?, pinned = ?, install_id = ?, signer = ?, revision = revision + 1 "+
		"WHERE name = ? AND revision = ?", args...)
	if err != nil {
		return pkgerr.Wrap("sqlstore", err, "writing the record of %s", rec.Name)
	}
	if n == 0 {
		return conflict(rec.Name)
	}
	return nil
}

// CompareAndDelete removes the record of old.Name only if it is still old.
func (r *Registry) CompareAndDelete(ctx context.Context, old registry.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	revision, err := r.revisionIf(ctx, old)
	if err != nil {
		return err
	}
	n, err := r.db.exec(ctx, "DELETE FROM skillkit_registry WHERE name = ? AND revision = ?", old.Name, revision)
	if err != nil {
		return pkgerr.Wrap("sqlstore", err, "deleting the record of %s", old.Name)
	}
	if n == 0 {
		return conflict(old.Name)
	}
	return nil
}

// revisionIf returns the revision of the stored record of old.Name if the
// record equals old; otherwise an error wrapping ErrNotFound or
// ErrConflict.
func (r *Registry) revisionIf(ctx context.Context, old registry.Record) (int64, error) {
	if skill.ValidateKey(old.Name) != nil {
		return 0, notFound(old.Name)
	}
	current, revision, found, err := r.get(ctx, old.Name)
	switch {
	case err != nil:
		return 0, err
	case !found:
		return 0, notFound(old.Name)
	case !current.Equal(old):
		return 0, conflict(old.Name)
	}
	return revision, nil
}

func notFound(name string) error { return fmt.Errorf("%w: %q", registry.ErrNotFound, name) }
func conflict(name string) error { return fmt.Errorf("%w: %q", registry.ErrConflict, name) }
