// Package testdb gives tests databases of their own: a fresh schema on the
// PostgreSQL server that SKILLKIT_TEST_POSTGRES names (.ci/run starts one),
// or a fresh SQLite file, and the skillkit stores on them. It is the one
// place of the library's tests that imports the drivers, and only tests
// import it.
//
// Without SKILLKIT_TEST_POSTGRES the PostgreSQL tests skip, unless CI=true,
// where they fail: CI must not pass by skipping them.
package testdb

import (
	"crypto/rand"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "modernc.org/sqlite"             // the "sqlite" driver

	"github.com/skillkit-go/skillkit/sqlstore"
)

// EnvPostgres names the variable that holds the DSN of a PostgreSQL server
// the tests may create schemas on.
const EnvPostgres = "SKILLKIT_TEST_POSTGRES"

// Driver names for sql.Open.
const (
	PostgresDriver = "pgx"
	SQLiteDriver   = "sqlite"
)

// Backend is a kind of database the SQL tests run on.
type Backend struct {
	Name    string
	Dialect sqlstore.Dialect
	Driver  string
	// DSN returns the DSN of a fresh, empty database of this kind for the
	// test.
	DSN func(testing.TB) string
}

// Backends returns PostgreSQL and SQLite, in that order.
func Backends() []Backend {
	return []Backend{
		{"postgres", sqlstore.PostgreSQL, PostgresDriver, PostgresDSN},
		{"sqlite", sqlstore.SQLite, SQLiteDriver, SQLiteDSN},
	}
}

// Store opens a pool of its own on dsn, as one replica does, and the
// skillkit stores on it, migrated.
func (b Backend) Store(t testing.TB, dsn string) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(t.Context(), Open(t, b.Driver, dsn), b.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// PostgresDSN creates a schema of its own for the test and returns a DSN
// whose connections use it; the schema is dropped when the test ends.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(EnvPostgres)
	if admin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: .ci/run starts PostgreSQL and sets it", EnvPostgres)
		}
		t.Skipf("%s is not set (source .ci/postgres && start_postgres)", EnvPostgres)
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	schema := "t_" + strings.ToLower(rand.Text())
	db := Open(t, PostgresDriver, admin)
	if _, err := db.ExecContext(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// ReadOnlyUser makes a PostgreSQL role that may only read the tables of
// the schema of dsn (one PostgresDSN returned, migrated) and returns dsn
// as that role. The role is dropped when the test ends.
func ReadOnlyUser(t testing.TB, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := u.Query().Get("search_path")
	role := "ro_" + strings.ToLower(rand.Text())
	db := Open(t, PostgresDriver, os.Getenv(EnvPostgres))
	for _, stmt := range []string{"CREATE ROLE " + role + " LOGIN", "GRANT USAGE ON SCHEMA " + schema + " TO " + role,
		"GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role} {
		if _, err := db.ExecContext(t.Context(), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	t.Cleanup(func() {
		for _, stmt := range []string{"DROP OWNED BY " + role, "DROP ROLE " + role} {
			if _, err := db.Exec(stmt); err != nil {
				t.Errorf("%s: %v", stmt, err)
			}
		}
	})
	u.User = url.User(role)
	return u.String()
}

// SQLiteDSN returns the DSN of a new SQLite file in a temporary folder, with
// a busy timeout and WAL mode, as the sqlstore package asks.
func SQLiteDSN(t testing.TB) string {
	t.Helper()
	return "file:" + filepath.Join(t.TempDir(), "skillkit.db") + "?_pragma=busy_timeout(20000)&_pragma=journal_mode(WAL)"
}

// Open opens a pool that is closed when the test ends, and checks that it
// connects.
func Open(t testing.TB, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.PingContext(t.Context()); err != nil {
		t.Fatalf("connecting to %s: %v", redact(dsn), err)
	}
	return db
}

func redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		u.User = url.User(u.User.Username())
		return u.String()
	}
	return fmt.Sprintf("a %s database", strings.SplitN(dsn, ":", 2)[0])
}
