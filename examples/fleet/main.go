package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the host picks the drivers; skillkit imports none
	_ "modernc.org/sqlite"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/sqlstore"
	"github.com/skillkit-go/skillkit/tools"
)

func main() {
	dbURL := flag.String("db", "", "a PostgreSQL URL (postgres://...); default: a SQLite file in a temporary folder")
	skills := flag.String("skills", "examples/skills", "the folder of the skill to install (word-stats)")
	flag.Parse()
	work, err := os.MkdirTemp("", "skillkit-fleet")
	if err == nil {
		defer os.RemoveAll(work)
		err = run(context.Background(), os.Stdout, *dbURL, *skills, work)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleet:", err)
		os.Exit(1)
	}
}

// run runs the two replicas in work (their skills folders and, without
// dbURL, the SQLite database) and installs word-stats from skills.
func run(ctx context.Context, w io.Writer, dbURL, skills, work string) error {
	pools := 0
	// A installs and signs with the fleet's private key; B holds only its
	// public key, and syncs only what that key signed (docs/fleet.md).
	pub, fleetKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	open := func(name string) (*skillkit.Kit, error) {
		// Each replica opens its own pool, as replicas on two hosts do.
		driver, dsn, dialect := "pgx", dbURL, sqlstore.PostgreSQL
		if dbURL == "" {
			driver, dialect = "sqlite", sqlstore.SQLite
			dsn = "file:" + filepath.Join(work, "fleet.db") + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)"
		}
		pool, err := sql.Open(driver, dsn)
		if err != nil {
			return nil, err
		}
		pools++
		db, err := sqlstore.Open(ctx, pool, dialect) // migrates once, whoever comes first
		if err != nil {
			return nil, err
		}
		key, _ := secrets.DeriveKey([]byte("example only: every replica gets the same SKILL_SECRET_KEY"))
		kr, _ := secrets.NewKeyring(key)
		opts := skillkit.Options{
			Dir:      filepath.Join(work, name),
			Registry: db.Registry(), Secrets: db.Secrets(), Packages: db.Packages(), // shared
			Keyring: kr,
			Replica: name,
		}
		if name == "replica-a" {
			opts.FleetKey = fleetKey
		} else {
			opts.FleetTrust = []ed25519.PublicKey{pub}
		}
		return skillkit.Open(ctx, opts)
	}
	a, err := open("replica-a")
	if err != nil {
		return err
	}
	defer a.Close()
	b, err := open("replica-b")
	if err != nil {
		return err
	}
	defer b.Close()
	if _, err := b.Sync(ctx, nil); err != nil { // B starts up: nothing to do yet
		return err
	}

	section(w, "A installs word-stats; its files go into the database as a package")
	res, err := a.Install(ctx, installer.Source{Dir: filepath.Join(skills, "word-stats")}, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "installed %s %s\n", res.Name, res.Record.Fingerprint)
	if err := lagging(ctx, w, a); err != nil {
		return err
	}

	section(w, "B syncs: the package is checked like an install and swapped in")
	if err := syncAndShow(ctx, w, b); err != nil {
		return err
	}
	if err := lagging(ctx, w, a); err != nil {
		return err
	}

	section(w, "B runs it")
	if err := execute(ctx, w, b, `{"name":"word-stats","input":{"text":"one fleet, one registry, one fleet","top":1}}`); err != nil {
		return err
	}

	section(w, "A saves a secret; B resolves it")
	if err := a.Vault().Save(ctx, "word-stats", map[string]string{"STATS_TOKEN": "sk-shared"}); err != nil {
		return err
	}
	env, err := b.Vault().ResolveEnv(ctx, "word-stats", nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "B sees STATS_TOKEN: %v\n", env["STATS_TOKEN"] == "sk-shared")

	section(w, "B disables it; A's agents no longer see it")
	if err := b.SetEnabled(ctx, "word-stats", false); err != nil {
		return err
	}
	ts, err := a.Toolset(ctx, tools.Agent{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "A's catalog lists word-stats: %v\n", strings.Contains(ts.Prompt, `name="word-stats"`))

	section(w, "A uninstalls it; B's next sync removes it")
	if err := a.Uninstall(ctx, "word-stats", nil); err != nil {
		return err
	}
	if err := syncAndShow(ctx, w, b); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d database pools, one per replica\n", pools)
	return nil
}

func syncAndShow(ctx context.Context, w io.Writer, kit *skillkit.Kit) error {
	rep, err := kit.Sync(ctx, nil)
	if err != nil {
		return err
	}
	if err := rep.Err(); err != nil {
		return err
	}
	for _, r := range rep.Results {
		fmt.Fprintf(w, "%s %s\n", r.Action, r.Name)
		if r.Result != nil {
			for _, n := range r.Result.Notes {
				fmt.Fprintf(w, "  %s\n", n)
			}
		}
	}
	fmt.Fprintf(w, "the replica holds %d skills from the database\n", len(rep.Placed))
	return nil
}

// lagging prints what Doctor says of the replicas.
func lagging(ctx context.Context, w io.Writer, kit *skillkit.Kit) error {
	diags, err := kit.Doctor(ctx)
	if err != nil {
		return err
	}
	lag := diags.WithCode(diagnostics.ReplicaBehind)
	for _, d := range lag {
		fmt.Fprintf(w, "doctor: %s\n", d.Message)
	}
	if len(lag) == 0 {
		fmt.Fprintln(w, "doctor: every replica holds what the registry records")
	}
	return nil
}

func execute(ctx context.Context, w io.Writer, kit *skillkit.Kit, args string) error {
	ts, err := kit.Toolset(ctx, tools.Agent{})
	if err != nil {
		return err
	}
	tool, ok := ts.Tool("execute_skill")
	if !ok {
		return fmt.Errorf("no execute_skill tool")
	}
	res, err := tool.Invoke(ctx, json.RawMessage(args))
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("execute_skill: %s", res.Text)
	}
	fmt.Fprintln(w, res.Text)
	return nil
}

func section(w io.Writer, title string) {
	fmt.Fprintf(w, "\n=== %s\n\n", title)
}
