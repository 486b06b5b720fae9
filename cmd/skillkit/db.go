//go:build !lean

package main

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver for postgres:// URLs
	_ "modernc.org/sqlite"             // the "sqlite" driver for sqlite: URLs

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/sqlstore"
)

// open opens a Kit with opts, on the database of --db or $SKILLKIT_DB when
// one is named: its registry, secrets and packages, with the fleet's keys
// (--fleet-key, --fleet-trust, --fleet-unsigned). The database is closed
// when the command ends.
func (c *cli) open(ctx context.Context, opts skillkit.Options) (*skillkit.Kit, error) {
	if u := c.dbURL(); u != "" {
		db, err := c.openDB(ctx, u)
		if err != nil {
			return nil, err
		}
		opts.Registry, opts.Secrets, opts.Packages = db.Registry(), db.Secrets(), db.Packages()
		opts.Usage = db.Usage()
		if err := c.fleet.apply(c, &opts); err != nil {
			return nil, err
		}
	}
	return skillkit.Open(ctx, opts)
}

// apply reads the keys the flags or the environment name into opts.
func (f *fleetFlags) apply(c *cli, opts *skillkit.Options) error {
	keyFile := cmp.Or(f.key, c.getenv("SKILLKIT_FLEET_KEY"))
	if keyFile != "" {
		k, err := registry.ReadPrivateKeyFile(keyFile)
		if err != nil {
			return err
		}
		opts.FleetKey = k
	}
	if list := cmp.Or(f.trust, c.getenv("SKILLKIT_FLEET_TRUST")); list != "" {
		keys, err := registry.ParsePublicKeys(list)
		if err != nil {
			return fmt.Errorf("--fleet-trust: %w", err)
		}
		opts.FleetTrust = keys
	}
	opts.FleetUnsigned = f.unsigned || c.getenv("SKILLKIT_FLEET_UNSIGNED") == "1"
	return nil
}

// openDB opens and migrates the database a URL names.
func (c *cli) openDB(ctx context.Context, raw string) (*sqlstore.DB, error) {
	driver, dsn, dialect, err := parseDBURL(raw)
	if err != nil {
		return nil, err
	}
	pool, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("the database %s: %w", redactURL(raw), err)
	}
	c.closers = append(c.closers, func() { pool.Close() })
	db, err := sqlstore.Open(ctx, pool, dialect)
	if err != nil {
		return nil, fmt.Errorf("the database %s: %w", redactURL(raw), err)
	}
	return db, nil
}

// parseDBURL turns --db into a driver, its DSN and a dialect:
// postgres:// and postgresql:// URLs go to pgx as they are; sqlite:PATH
// (or sqlite://PATH) opens the SQLite file PATH with the busy timeout and
// WAL mode sqlstore asks for.
func parseDBURL(raw string) (driver, dsn string, dialect sqlstore.Dialect, err error) {
	sqlitePath, err := splitDBURL(raw)
	switch {
	case err != nil:
		return "", "", "", err
	case sqlitePath == "":
		return "pgx", raw, sqlstore.PostgreSQL, nil
	}
	abs, err := filepath.Abs(sqlitePath)
	if err != nil {
		return "", "", "", err
	}
	return "sqlite", "file:" + abs + "?_pragma=busy_timeout(20000)&_pragma=journal_mode(WAL)", sqlstore.SQLite, nil
}
