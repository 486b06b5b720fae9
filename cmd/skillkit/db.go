package main

import (
	"cmp"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver for postgres:// URLs
	_ "modernc.org/sqlite"             // the "sqlite" driver for sqlite: URLs

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/sqlstore"
)

// dbHelp documents --db for the commands that open a skills folder.
const dbHelp = `
With --db URL (or $SKILLKIT_DB) the skills folder is one replica of several
sharing a database: the registry, the secrets and the installed skills'
packages live there (postgres://USER@HOST/DB, or sqlite:PATH for one
machine); the files, .venv and node_modules stay in the folder. See
docs/fleet.md.`

// addDBFlag registers --db on the flag sets of the commands that open a
// skills folder (those with --dir).
func addDBFlag(fs *flag.FlagSet, into *string) {
	if fs.Lookup("dir") != nil {
		fs.StringVar(into, "db", "", "a database the replicas share, `URL`: postgres://... or sqlite:PATH (default $SKILLKIT_DB)")
	}
}

// dbURL is the database the command uses: --db, else $SKILLKIT_DB; "" for
// none.
func (c *cli) dbURL() string {
	if c.db != "" {
		return c.db
	}
	return c.getenv("SKILLKIT_DB")
}

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

// fleetFlags are the fleet's keys on the command line.
type fleetFlags struct {
	key, trust string
	unsigned   bool
}

// register adds the fleet flags to the commands with --db.
func (f *fleetFlags) register(fs *flag.FlagSet) {
	if fs.Lookup("db") == nil {
		return
	}
	fs.StringVar(&f.key, "fleet-key", "", "sign what this replica installs and uninstalls with the private key in `FILE` (default $SKILLKIT_FLEET_KEY)")
	fs.StringVar(&f.trust, "fleet-trust", "", "sync only what these public keys signed, `PUB[,PUB...]` (default $SKILLKIT_FLEET_TRUST)")
	fs.BoolVar(&f.unsigned, "fleet-unsigned", false, "with no trusted key, sync unsigned rows on the database's word (or SKILLKIT_FLEET_UNSIGNED=1)")
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
	switch {
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		return "pgx", raw, sqlstore.PostgreSQL, nil
	case strings.HasPrefix(raw, "sqlite:"):
		p := strings.TrimPrefix(strings.TrimPrefix(raw, "sqlite:"), "//")
		if p == "" || strings.ContainsAny(p, "?#") {
			return "", "", "", fmt.Errorf("--db %s: give sqlite:PATH, a file path without a query", raw)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", "", "", err
		}
		return "sqlite", "file:" + abs + "?_pragma=busy_timeout(20000)&_pragma=journal_mode(WAL)", sqlstore.SQLite, nil
	}
	return "", "", "", fmt.Errorf("--db %s: not a database URL: use postgres://USER@HOST/DB or sqlite:PATH", redactURL(raw))
}

// redactURL hides a password in a URL shown to people.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		scheme, _, _ := strings.Cut(raw, ":")
		return scheme + ":..."
	}
	if u.User == nil {
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// closeAll closes what the command opened (database pools).
func (c *cli) closeAll() {
	for _, f := range c.closers {
		f()
	}
	c.closers = nil
}
