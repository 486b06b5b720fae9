package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/pkgerr"
)

// Dialect names the SQL a database speaks.
type Dialect string

// The dialects the stores speak.
const (
	// PostgreSQL 12 or later, e.g. through github.com/jackc/pgx/v5/stdlib.
	PostgreSQL Dialect = "postgres"
	// SQLite 3.24 or later, e.g. through modernc.org/sqlite. Open the
	// database with a busy timeout (modernc.org/sqlite:
	// "?_pragma=busy_timeout(10000)") so that writers wait for each other
	// instead of failing with SQLITE_BUSY; WAL mode
	// ("&_pragma=journal_mode(WAL)") lets readers go on meanwhile.
	SQLite Dialect = "sqlite"
)

// MigrationLockKey is the key of the PostgreSQL advisory lock that Open
// holds while it migrates the schema.
const MigrationLockKey int64 = 0x736b696c6c6b6974 // "skillkit"

// ErrDialect is wrapped when Open is given a dialect it does not know.
var ErrDialect = errors.New("sqlstore: unknown dialect")

// ErrSchemaTooNew is wrapped when the database's schema is newer than this
// version of skillkit knows: another replica runs a newer one.
var ErrSchemaTooNew = errors.New("sqlstore: the database schema is newer than this program knows")

//go:embed migrations
var migrationFiles embed.FS

// DB is a database that holds skillkit's stores. It keeps no state besides
// the *sql.DB, and is safe for concurrent use.
type DB struct {
	db      *sql.DB
	dialect Dialect
}

// Open brings the database's schema up to date and returns it. The schema's
// migrations are embedded in the program and numbered; Open applies the ones
// the database lacks, each once, in order, under a lock (a PostgreSQL
// advisory lock held by one transaction; on SQLite an immediate
// transaction), so replicas that start together migrate once. The
// migrations applied are recorded in skillkit_schema_migrations. A schema
// newer than the program's is an error wrapping ErrSchemaTooNew. db stays
// the caller's to close.
func Open(ctx context.Context, db *sql.DB, dialect Dialect) (*DB, error) {
	if dialect != PostgreSQL && dialect != SQLite {
		return nil, fmt.Errorf("%w %q (use sqlstore.PostgreSQL or sqlstore.SQLite)", ErrDialect, dialect)
	}
	d := &DB{db: db, dialect: dialect}
	if err := d.migrate(ctx); err != nil {
		return nil, err
	}
	return d, nil
}

// Registry returns the registry store of the database.
func (d *DB) Registry() *Registry { return &Registry{db: d} }

// Secrets returns the secrets store of the database.
func (d *DB) Secrets() *Secrets { return &Secrets{db: d} }

// migration is one numbered schema change.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the dialect's migrations in order: files named
// NNNN_name.sql.
func migrations(dialect Dialect) ([]migration, error) {
	dir := path.Join("migrations", string(dialect))
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil || version <= 0 {
			return nil, fmt.Errorf("sqlstore: migration file %s is not named NNNN_name.sql", e.Name())
		}
		data, err := fs.ReadFile(migrationFiles, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: version, name: name, sql: string(data)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("sqlstore: migration %d is missing", i+1)
		}
	}
	return out, nil
}

// migrate applies the migrations the database lacks under the lock. A
// schema already up to date is only read: no lock, no write, so a
// read-only database user, or a SQLite file this process may not write,
// opens as long as nothing is left to migrate.
func (d *DB) migrate(ctx context.Context) error {
	ms, err := migrations(d.dialect)
	if err != nil {
		return err
	}
	if current, err := d.SchemaVersion(ctx); err == nil {
		switch {
		case current > len(ms):
			return fmt.Errorf("%w: version %d, this program knows %d", ErrSchemaTooNew, current, len(ms))
		case current == len(ms):
			return nil
		}
	}
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return pkgerr.Wrap("sqlstore", err, "connecting")
	}
	defer conn.Close()
	// On SQLite, BEGIN IMMEDIATE takes the write lock at once, so a second
	// process waits (busy timeout) instead of reading a version that is
	// about to change. database/sql's BeginTx cannot ask for it.
	begin, commit, rollback := "BEGIN", "COMMIT", "ROLLBACK"
	if d.dialect == SQLite {
		begin = "BEGIN IMMEDIATE"
	}
	if _, err := conn.ExecContext(ctx, begin); err != nil {
		return pkgerr.Wrap("sqlstore", err, "starting the migration")
	}
	done := false
	defer func() {
		if !done {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), rollback)
		}
	}()
	if d.dialect == PostgreSQL {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", MigrationLockKey); err != nil {
			return pkgerr.Wrap("sqlstore", err, "taking the migration lock")
		}
	}
	appliedAt := "TIMESTAMPTZ NOT NULL DEFAULT now()"
	if d.dialect == SQLite {
		appliedAt = "TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
	}
	if _, err := conn.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS skillkit_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at "+appliedAt+")"); err != nil {
		return pkgerr.Wrap("sqlstore", err, "creating skillkit_schema_migrations")
	}
	var current int
	if err := conn.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM skillkit_schema_migrations").Scan(&current); err != nil {
		return pkgerr.Wrap("sqlstore", err, "reading the schema version")
	}
	if current > len(ms) {
		return fmt.Errorf("%w: version %d, this program knows %d", ErrSchemaTooNew, current, len(ms))
	}
	for _, m := range ms[current:] {
		if _, err := conn.ExecContext(ctx, m.sql); err != nil {
			return pkgerr.Wrap("sqlstore", err, "migration %d (%s)", m.version, m.name)
		}
		if _, err := conn.ExecContext(ctx, d.rebind("INSERT INTO skillkit_schema_migrations (version, name) VALUES (?, ?)"), m.version, m.name); err != nil {
			return pkgerr.Wrap("sqlstore", err, "recording migration %d", m.version)
		}
	}
	if _, err := conn.ExecContext(ctx, commit); err != nil {
		return pkgerr.Wrap("sqlstore", err, "committing the migration")
	}
	done = true
	return nil
}

// SchemaVersion returns the number of the last migration applied.
func (d *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := d.db.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM skillkit_schema_migrations").Scan(&v)
	return v, pkgerr.Wrap("sqlstore", err, "reading the schema version")
}

// rebind turns the ? placeholders of query into $1, $2, ... for PostgreSQL.
// Queries of this package hold no ? other than placeholders.
func (d *DB) rebind(query string) string {
	if d.dialect != PostgreSQL {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (d *DB) exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := d.db.ExecContext(ctx, d.rebind(query), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// timeArg is how a time is written: a time.Time (NULL when zero) for
// PostgreSQL, RFC 3339 text in UTC for SQLite.
func (d *DB) timeArg(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	if d.dialect == SQLite {
		return t.UTC().Format(time.RFC3339Nano)
	}
	return t
}

// scannedTime reads a time column whatever the driver returns for it.
type scannedTime struct{ t time.Time }

// Scan implements sql.Scanner.
func (s *scannedTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		s.t = time.Time{}
	case time.Time:
		s.t = v
	case string:
		return s.parse(v)
	case []byte:
		return s.parse(string(v))
	default:
		return fmt.Errorf("sqlstore: a time column holds %T", src)
	}
	return nil
}

func (s *scannedTime) parse(text string) error {
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return fmt.Errorf("sqlstore: a time column holds %q", text)
	}
	s.t = t
	return nil
}
