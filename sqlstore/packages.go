package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/registry"
)

// NotifyChannel is the PostgreSQL channel on which every change of a
// registry row is announced, its payload the skill's name: a replica that
// runs LISTEN skillkit_registry can sync as soon as another changes what
// is installed. SQLite has no such channel.
const NotifyChannel = "skillkit_registry"

// Packages is a [registry.PackageStore] in the table skillkit_packages,
// one ZIP archive per fingerprint, and a [registry.ReplicaStore] in
// skillkit_replicas, one row per replica.
type Packages struct {
	db *DB
}

var (
	_ registry.PackageStore = (*Packages)(nil)
	_ registry.ReplicaStore = (*Packages)(nil)
)

// Packages returns the package and replica store of the database.
func (d *DB) Packages() *Packages { return &Packages{db: d} }

// PutPackage implements [registry.PackageStore]. Storing a fingerprint
// again keeps its archive and refreshes the time Prune reads.
func (p *Packages) PutPackage(ctx context.Context, fingerprint string, archive []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := registry.ValidateFingerprint(fingerprint); err != nil {
		return err
	}
	_, err := p.db.exec(ctx, "INSERT INTO skillkit_packages (fingerprint, archive) VALUES (?, ?) "+
		"ON CONFLICT (fingerprint) DO UPDATE SET stored_at = excluded.stored_at", fingerprint, nonNil(archive))
	return pkgerr.Wrap("sqlstore", err, "storing the package %s", fingerprint)
}

// GetPackage implements [registry.PackageStore]. An archive over maxBytes
// is not read from the database.
func (p *Packages) GetPackage(ctx context.Context, fingerprint string, maxBytes int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := registry.ValidateFingerprint(fingerprint); err != nil {
		return nil, err
	}
	var size int64
	var archive []byte
	err := p.db.db.QueryRowContext(ctx, p.db.rebind("SELECT length(archive), CASE WHEN length(archive) <= ? THEN archive END FROM skillkit_packages WHERE fingerprint = ?"),
		maxBytes, fingerprint).Scan(&size, &archive)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, registry.PackageNotFound(fingerprint)
	case err != nil:
		return nil, pkgerr.Wrap("sqlstore", err, "reading the package %s", fingerprint)
	case size > maxBytes:
		return nil, registry.PackageTooLarge(fingerprint, size, maxBytes)
	}
	return nonNil(archive), nil
}

// Prune deletes the packages that no registry record names and that were
// last stored before olderThan ago, and returns how many it deleted: the
// versions replaced or uninstalled since. It is one statement, so a
// package stored again meanwhile (its time refreshed) or named by a record
// written meanwhile is kept. olderThan must exceed the time an install
// takes between storing its package and writing its record (a few
// seconds); an hour or a day is safe. The age is measured on the
// database's clock, which wrote stored_at: a client whose clock is off
// prunes what the database holds as old, never a package stored moments
// ago.
func (p *Packages) Prune(ctx context.Context, olderThan time.Duration) (int64, error) {
	if olderThan <= 0 {
		return 0, fmt.Errorf("sqlstore: Prune needs a positive age, not %v", olderThan)
	}
	cutoff := "now() - make_interval(secs => ?)"
	age := any(olderThan.Seconds())
	if p.db.dialect == SQLite {
		cutoff = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)" // as stored_at's default writes it
		age = fmt.Sprintf("-%.3f seconds", olderThan.Seconds())
	}
	n, err := p.db.exec(ctx, "DELETE FROM skillkit_packages WHERE stored_at < "+cutoff+" AND NOT EXISTS "+
		"(SELECT 1 FROM skillkit_registry WHERE skillkit_registry.fingerprint = skillkit_packages.fingerprint)", age)
	return n, pkgerr.Wrap("sqlstore", err, "pruning packages")
}

// PutReplica implements [registry.ReplicaStore].
func (p *Packages) PutReplica(ctx context.Context, r registry.Replica) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := registry.ValidateReplicaID(r.ID); err != nil {
		return err
	}
	if r.Skills == nil {
		r.Skills = map[string]string{}
	}
	skills, err := json.Marshal(r.Skills)
	if err != nil {
		return err
	}
	_, err = p.db.exec(ctx, "INSERT INTO skillkit_replicas (id, host, dir, synced_at, skills, error) VALUES (?, ?, ?, ?, ?, ?) "+
		"ON CONFLICT (id) DO UPDATE SET host = excluded.host, dir = excluded.dir, synced_at = excluded.synced_at, "+
		"skills = excluded.skills, error = excluded.error",
		r.ID, r.Host, r.Dir, p.db.timeArg(r.SyncedAt), string(skills), r.Error)
	return pkgerr.Wrap("sqlstore", err, "writing the state of replica %s", r.ID)
}

// Replicas implements [registry.ReplicaStore].
func (p *Packages) Replicas(ctx context.Context) ([]registry.Replica, error) {
	rows, err := p.db.db.QueryContext(ctx, "SELECT id, host, dir, synced_at, skills, error FROM skillkit_replicas")
	if err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "listing replicas")
	}
	defer rows.Close()
	out := []registry.Replica{}
	for rows.Next() {
		var r registry.Replica
		var synced scannedTime
		var skills string
		if err := rows.Scan(&r.ID, &r.Host, &r.Dir, &synced, &skills, &r.Error); err != nil {
			return nil, pkgerr.Wrap("sqlstore", err, "listing replicas")
		}
		r.SyncedAt = synced.t
		if err := json.Unmarshal([]byte(skills), &r.Skills); err != nil {
			return nil, fmt.Errorf("sqlstore: the skills of replica %s are not a JSON object: %w", r.ID, err)
		}
		if r.Skills == nil {
			r.Skills = map[string]string{}
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "listing replicas")
	}
	slices.SortFunc(out, func(a, b registry.Replica) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}
