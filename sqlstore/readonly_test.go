package sqlstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testdb"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/sqlstore"
)

// Opening a database whose schema is up to date takes no lock: while
// another process holds the write lock (SQLite) or the migration lock
// (PostgreSQL), a replica that only reads opens at once, where it used to
// wait for the lock and fail "starting the migration". The waiting
// connection is told to give up at once, so a lock taken fails the test.
func TestOpenUpToDateTakesNoLock(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := t.Context()
		dsn := b.DSN(t)
		if _, err := sqlstore.Open(ctx, testdb.Open(t, b.Driver, dsn), b.Dialect); err != nil {
			t.Fatal(err)
		}
		holder, err := testdb.Open(t, b.Driver, dsn).Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		impatient := dsn
		if b.Dialect == sqlstore.SQLite {
			if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
				t.Fatal(err)
			}
			defer holder.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
			impatient = strings.Replace(dsn, "busy_timeout(20000)", "busy_timeout(0)", 1)
		} else {
			if _, err := holder.ExecContext(ctx, "SELECT pg_advisory_lock($1)", sqlstore.MigrationLockKey); err != nil {
				t.Fatal(err)
			}
			impatient += "&lock_timeout=1"
		}
		db, err := sqlstore.Open(ctx, testdb.Open(t, b.Driver, impatient), b.Dialect)
		if err != nil {
			t.Fatalf("opening while another holds the lock: %v", err)
		}
		if _, err := db.Registry().List(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// A PostgreSQL user that may only read opens the database and reads the
// registry and the packages.
func TestOpenAsAReadOnlyUser(t *testing.T) {
	ctx := t.Context()
	b := backends[0]
	dsn := b.DSN(t)
	admin := testdb.Open(t, b.Driver, dsn)
	rw, err := sqlstore.Open(ctx, admin, b.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	fp := registry.FingerprintPrefix + strings.Repeat("ab", 32)
	if err := rw.Packages().PutPackage(ctx, fp, []byte("zip")); err != nil {
		t.Fatal(err)
	}
	if err := rw.Registry().Put(ctx, registry.Record{Name: "notes", Fingerprint: fp, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	roDSN := testdb.ReadOnlyUser(t, dsn)
	ro, err := sqlstore.Open(ctx, testdb.Open(t, b.Driver, roDSN), b.Dialect)
	if err != nil {
		t.Fatalf("opening as a read-only user: %v", err)
	}
	if recs, err := ro.Registry().List(ctx); err != nil || len(recs) != 1 {
		t.Fatalf("List: %v %v", recs, err)
	}
	if _, err := ro.Packages().GetPackage(ctx, fp, 1<<20); err != nil {
		t.Fatal(err)
	}
	if err := ro.Registry().Put(ctx, registry.Record{Name: "other"}); err == nil {
		t.Fatal("the read-only user could write: the test proves nothing")
	}
}
