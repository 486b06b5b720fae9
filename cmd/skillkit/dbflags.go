package main

import (
	"flag"
	"fmt"
	"net/url"
	"strings"
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

// checkDBURL checks that --db (or $SKILLKIT_DB) names a database the
// command line can open, before anything is opened.
func checkDBURL(raw string) error {
	_, err := splitDBURL(raw)
	return err
}

// splitDBURL checks the shape of a database URL: postgres:// and
// postgresql:// URLs, or sqlite:PATH (or sqlite://PATH), whose PATH it
// returns ("" for PostgreSQL).
func splitDBURL(raw string) (sqlitePath string, err error) {
	switch {
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		return "", nil
	case strings.HasPrefix(raw, "sqlite:"):
		p := strings.TrimPrefix(strings.TrimPrefix(raw, "sqlite:"), "//")
		if p == "" || strings.ContainsAny(p, "?#") {
			return "", fmt.Errorf("--db %s: give sqlite:PATH, a file path without a query", raw)
		}
		return p, nil
	}
	return "", fmt.Errorf("--db %s: not a database URL: use postgres://USER@HOST/DB or sqlite:PATH", redactURL(raw))
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
