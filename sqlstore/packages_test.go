package sqlstore_test

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillkit-go/skillkit/internal/testdb"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/registry/registrytest"
	"github.com/skillkit-go/skillkit/sqlstore"
)

// Prune deletes the packages no record names once they are old enough,
// and keeps the recorded ones and the ones stored again meanwhile.
func TestPrune(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := t.Context()
		dsn := b.DSN(t)
		pool := testdb.Open(t, b.Driver, dsn)
		db, err := sqlstore.Open(ctx, pool, b.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		pk := db.Packages()
		recorded, orphan, fresh := registrytest.FakeFingerprint("recorded"), registrytest.FakeFingerprint("orphan"), registrytest.FakeFingerprint("fresh")
		for _, fp := range []string{recorded, orphan, fresh} {
			if err := pk.PutPackage(ctx, fp, []byte(fp)); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Registry().Put(ctx, registry.Record{Name: "kept", Fingerprint: recorded, Enabled: true}); err != nil {
			t.Fatal(err)
		}
		if n, err := pk.Prune(ctx, time.Hour); err != nil || n != 0 {
			t.Fatalf("Prune of new packages: %d, %v", n, err)
		}
		past := any(time.Now().Add(-2 * time.Hour).UTC())
		if b.Dialect == sqlstore.SQLite {
			past = time.Now().Add(-2 * time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")
		}
		query := "UPDATE skillkit_packages SET stored_at = ?"
		if b.Dialect == sqlstore.PostgreSQL {
			query = "UPDATE skillkit_packages SET stored_at = $1"
		}
		if _, err := pool.ExecContext(ctx, query, past); err != nil {
			t.Fatal(err)
		}
		if err := pk.PutPackage(ctx, fresh, []byte("again")); err != nil { // refreshes its time
			t.Fatal(err)
		}
		if n, err := pk.Prune(ctx, time.Hour); err != nil || n != 1 {
			t.Fatalf("Prune: %d, %v; want the orphan alone", n, err)
		}
		for fp, want := range map[string]bool{recorded: true, orphan: false, fresh: true} {
			_, err := pk.GetPackage(ctx, fp, 1<<10)
			if got := err == nil; got != want || err != nil && !errors.Is(err, registry.ErrNotFound) {
				t.Errorf("after Prune, %s: %v", fp, err)
			}
		}
		if _, err := pk.Prune(ctx, 0); err == nil {
			t.Error("Prune(0) deleted every unrecorded package")
		}
	})
}

// Every change of a registry row is announced on NotifyChannel with the
// skill's name, to a listener on another connection.
func TestRegistryChangesNotify(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	dsn := testdb.PostgresDSN(t)
	db := testdb.Backends()[0].Store(t, dsn)
	listener, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(context.Background())
	if _, err := listener.Exec(ctx, "LISTEN "+sqlstore.NotifyChannel); err != nil {
		t.Fatal(err)
	}
	reg := db.Registry()
	steps := []func() error{
		func() error { return reg.Put(ctx, registry.Record{Name: "pdf", Enabled: true}) },
		func() error {
			_, err := registry.Update(ctx, reg, "pdf", func(r *registry.Record, _ bool) error { r.Enabled = false; return nil })
			return err
		},
		func() error { return reg.Delete(ctx, "pdf") },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		n, err := listener.WaitForNotification(ctx)
		if err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
		if n.Channel != sqlstore.NotifyChannel || n.Payload != "pdf" {
			t.Fatalf("change %d: notified %q on %q", i, n.Payload, n.Channel)
		}
	}
}

// Prune measures ages on the database's clock, which wrote stored_at:
// with the database two hours behind the client, a package it stored
// moments ago is not an hour old. The test puts the database behind by
// shadowing now() in the test's schema, ahead of pg_catalog.
func TestPruneUsesTheDatabaseClock(t *testing.T) {
	b := backends[0]
	ctx := t.Context()
	dsn := b.DSN(t)
	admin := testdb.Open(t, b.Driver, dsn)
	if _, err := sqlstore.Open(ctx, admin, b.Dialect); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := u.Query().Get("search_path")
	if _, err := admin.ExecContext(ctx, "CREATE FUNCTION "+schema+".now() RETURNS timestamptz LANGUAGE sql AS $$ SELECT pg_catalog.now() - interval '2 hours' $$"); err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema+",pg_catalog")
	u.RawQuery = q.Encode()
	behind := testdb.Open(t, b.Driver, u.String())
	db, err := sqlstore.Open(ctx, behind, b.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	fp := registrytest.FakeFingerprint("just stored")
	if err := db.Packages().PutPackage(ctx, fp, []byte("zip")); err != nil {
		t.Fatal(err)
	}
	// What a database two hours behind writes for "now".
	if _, err := behind.ExecContext(ctx, "UPDATE skillkit_packages SET stored_at = now()"); err != nil {
		t.Fatal(err)
	}
	if n, err := db.Packages().Prune(ctx, time.Hour); err != nil || n != 0 {
		t.Fatalf("Prune deleted %d packages stored moments ago (%v)", n, err)
	}
	if _, err := behind.ExecContext(ctx, "UPDATE skillkit_packages SET stored_at = now() - interval '61 minutes'"); err != nil {
		t.Fatal(err)
	}
	if n, err := db.Packages().Prune(ctx, time.Hour); err != nil || n != 1 {
		t.Fatalf("Prune of a package 61 minutes old on the database's clock: %d, %v", n, err)
	}
}
