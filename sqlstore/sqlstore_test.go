package sqlstore_test

import (
	"bytes"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testdb"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/registry/registrytest"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/secrets/secretstest"
	"github.com/skillkit-go/skillkit/sqlstore"
)

// backend is a kind of database; backends are both.
type backend = testdb.Backend

var backends = testdb.Backends()

// openN returns n clients (each its own *sql.DB pool, as n replicas have)
// of one fresh database, migrated.
func openN(t *testing.T, b backend, n int) []*sqlstore.DB {
	t.Helper()
	dsn := b.DSN(t)
	out := make([]*sqlstore.DB, n)
	for i := range out {
		out[i] = b.Store(t, dsn)
	}
	return out
}

// openWithPool opens a fresh database of b, migrated, and returns the pool
// too, for tests that look at the tables themselves.
func openWithPool(t *testing.T, b backend) (*sql.DB, *sqlstore.DB) {
	t.Helper()
	pool := testdb.Open(t, b.Driver, b.DSN(t))
	db, err := sqlstore.Open(t.Context(), pool, b.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	return pool, db
}

func forEach(t *testing.T, test func(t *testing.T, b backend)) {
	for _, b := range backends {
		t.Run(b.Name, func(t *testing.T) { test(t, b) })
	}
}

func TestRegistryConformance(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		registrytest.TestStore(t, func(t *testing.T) registry.Store { return openN(t, b, 1)[0].Registry() })
	})
}

func TestPackagesConformance(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		registrytest.TestPackages(t, func(t *testing.T) registry.PackageStore { return openN(t, b, 1)[0].Packages() })
	})
}

func TestSecretsConformance(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		secretstest.TestStore(t, func(t *testing.T) secrets.Store { return openN(t, b, 1)[0].Secrets() })
	})
}

// 20 writers on two pools (two replicas) read, change and write one
// registry record and one secret at the same time: no update is lost.
func TestTwentyWritersOnTwoPools(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		dbs := openN(t, b, 2)
		registrytest.ConcurrentUpdates(t, []registry.Store{dbs[0].Registry(), dbs[1].Registry()}, 20, 5)
		secretstest.ConcurrentSwaps(t, []secrets.Store{dbs[0].Secrets(), dbs[1].Secrets()}, 20, 5)
	})
}

// One replica rotates the key while another saves values: none is lost.
func TestRotationAcrossReplicas(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		dbs := openN(t, b, 2)
		secretstest.RotateWhileSaving(t, dbs[0].Secrets(), func() error {
			return secretstest.SaveNewValues(t.Context(), dbs[1].Secrets())
		})
	})
}

// Replicas that start together migrate once: on an empty database, and on
// one whose migrations table exists but lacks a migration (as when a new
// version of the program adds one).
func TestMigrationRunsOnce(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		dsn := b.DSN(t)
		pool := testdb.Open(t, b.Driver, dsn)
		openTogether := func() {
			const replicas = 6
			var wg sync.WaitGroup
			errs := make(chan error, replicas)
			for range replicas {
				wg.Go(func() {
					_, err := sqlstore.Open(t.Context(), testdb.Open(t, b.Driver, dsn), b.Dialect)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			var rows, max int
			if err := pool.QueryRowContext(t.Context(), "SELECT COUNT(*), MAX(version) FROM skillkit_schema_migrations").Scan(&rows, &max); err != nil {
				t.Fatal(err)
			}
			if rows != sqlstore.Migrations || max != sqlstore.Migrations {
				t.Fatalf("skillkit_schema_migrations holds %d rows up to version %d, want %d", rows, max, sqlstore.Migrations)
			}
		}
		openTogether()
		// As if the database had been made by a version before the fleet
		// tables: the second migration and those after it run once.
		drop := []string{"DROP TABLE skillkit_packages", "DROP TABLE skillkit_replicas", "DROP TABLE skillkit_usage", "ALTER TABLE skillkit_registry DROP COLUMN signer", "DELETE FROM skillkit_schema_migrations WHERE version >= 2"}
		if b.Dialect == sqlstore.PostgreSQL {
			drop = append(drop, "DROP FUNCTION skillkit_registry_notify CASCADE")
		}
		for _, stmt := range drop {
			if _, err := pool.ExecContext(t.Context(), stmt); err != nil {
				t.Fatal(err)
			}
		}
		openTogether()
		for _, stmt := range []string{"DROP TABLE skillkit_packages", "DROP TABLE skillkit_replicas", "DROP TABLE skillkit_registry CASCADE", "DROP TABLE skillkit_secrets", "DROP TABLE skillkit_usage", "DELETE FROM skillkit_schema_migrations"} {
			if b.Dialect == sqlstore.SQLite {
				stmt = strings.TrimSuffix(stmt, " CASCADE")
			}
			if _, err := pool.ExecContext(t.Context(), stmt); err != nil {
				t.Fatal(err)
			}
		}
		openTogether()
		db, err := sqlstore.Open(t.Context(), pool, b.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := db.SchemaVersion(t.Context()); err != nil || v != sqlstore.Migrations {
			t.Fatalf("SchemaVersion = %d, %v", v, err)
		}
		// A newer program migrated this database: this one refuses it.
		if _, err := pool.ExecContext(t.Context(), "INSERT INTO skillkit_schema_migrations (version, name) VALUES (99, 'future')"); err != nil {
			t.Fatal(err)
		}
		if _, err := sqlstore.Open(t.Context(), pool, b.Dialect); !errors.Is(err, sqlstore.ErrSchemaTooNew) {
			t.Fatalf("a schema from the future: %v", err)
		}
	})
}

func TestOpenRefusesAnUnknownDialect(t *testing.T) {
	_, err := sqlstore.Open(t.Context(), testdb.Open(t, testdb.SQLiteDriver, testdb.SQLiteDSN(t)), "mysql")
	if !errors.Is(err, sqlstore.ErrDialect) || !strings.HasPrefix(err.Error(), "sqlstore: ") {
		t.Fatalf("Open with mysql: %v", err)
	}
}

// The secrets table holds sealed values only: the plaintext is in no cell.
func TestSecretsTableHoldsSealedValuesOnly(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		pool, db := openWithPool(t, b)
		const plain = "sk-SQL-PLAINTEXT-77c2"
		v := secrets.NewVault(db.Secrets(), &secrets.Options{Keyring: secretstest.Keyring(t, secretstest.OldSecret)})
		if err := v.Save(t.Context(), "pdf", map[string]string{"API_KEY": plain}); err != nil {
			t.Fatal(err)
		}
		rows, err := pool.QueryContext(t.Context(), "SELECT skill, name, sealed FROM skillkit_secrets")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var skillName, name string
			var sealed []byte
			if err := rows.Scan(&skillName, &name, &sealed); err != nil {
				t.Fatal(err)
			}
			n++
			if bytes.Contains(sealed, []byte(plain)) || strings.Contains(skillName+name, plain) {
				t.Errorf("the row of %s/%s holds the plaintext", skillName, name)
			}
			if _, err := secrets.ReadHeader(sealed); err != nil {
				t.Errorf("the row of %s/%s is not a sealed value: %v", skillName, name, err)
			}
		}
		if n != 1 {
			t.Fatalf("%d rows", n)
		}
		if env, err := v.ResolveEnv(t.Context(), "pdf", nil); err != nil || env["API_KEY"] != plain {
			t.Fatalf("ResolveEnv: %v", err)
		}
	})
}

// Errors name the package once, and a broken connection is an error, not a
// missing record.
func TestErrors(t *testing.T) {
	dsn := testdb.SQLiteDSN(t)
	pool, err := sql.Open(testdb.SQLiteDriver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlstore.Open(t.Context(), pool, sqlstore.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	pool.Close()
	_, err = db.Registry().Get(t.Context(), "pdf")
	if err == nil || errors.Is(err, registry.ErrNotFound) || strings.Count(err.Error(), "sqlstore:") != 1 {
		t.Errorf("Get on a closed pool: %v", err)
	}
	_, err = db.Secrets().Get(t.Context(), "pdf", "A")
	if err == nil || errors.Is(err, secrets.ErrNotFound) || !strings.HasPrefix(err.Error(), "sqlstore: reading A of skill pdf") {
		t.Errorf("secrets Get on a closed pool: %v", err)
	}
}

// A value in the table over secrets.MaxSealedLen (written there by
// something else than the store) is refused, not handed to the vault, and
// one at the limit is read.
func TestOversizedSealedValueRefused(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		pool, db := openWithPool(t, b)
		for name, size := range map[string]int{"AT_LIMIT": secrets.MaxSealedLen, "OVER": secrets.MaxSealedLen + 1} {
			if _, err := pool.ExecContext(t.Context(), db.Rebind("INSERT INTO skillkit_secrets (skill, name, sealed) VALUES (?, ?, ?)"),
				"pdf", name, bytes.Repeat([]byte{1}, size)); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := db.Secrets().Get(t.Context(), "pdf", "AT_LIMIT"); err != nil || len(got) != secrets.MaxSealedLen {
			t.Errorf("a value at the limit: %d bytes, %v", len(got), err)
		}
		if _, err := db.Secrets().Get(t.Context(), "pdf", "OVER"); !errors.Is(err, secrets.ErrCannotOpen) {
			t.Errorf("a value over the limit: %v, want ErrCannotOpen", err)
		}
	})
}
