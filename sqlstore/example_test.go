package sqlstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the host chooses the driver; sqlstore imports none

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/sqlstore"
)

func ExampleOpen() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "skillkit")
	defer os.RemoveAll(dir)
	// PostgreSQL: sql.Open("pgx", "postgres://...") with
	// github.com/jackc/pgx/v5/stdlib, and sqlstore.PostgreSQL.
	pool, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "skillkit.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	db, err := sqlstore.Open(ctx, pool, sqlstore.SQLite) // creates or migrates the tables
	if err != nil {
		panic(err)
	}

	reg := db.Registry()
	if err := reg.Put(ctx, registry.Record{Name: "pdf", Source: registry.SourceGitHub, Enabled: true, InstallID: registry.NewInstallID()}); err != nil {
		panic(err)
	}
	// Every replica disables it without losing another's change.
	rec, err := registry.Update(ctx, reg, "pdf", func(rec *registry.Record, found bool) error {
		rec.Enabled = false
		return nil
	})
	fmt.Println(rec.Name, rec.Enabled, err)

	key, _ := secrets.DeriveKey([]byte("example only: use openssl rand -base64 32"))
	kr, _ := secrets.NewKeyring(key)
	vault := secrets.NewVault(db.Secrets(), &secrets.Options{Keyring: kr, InstallID: registry.InstallIDFunc(reg)})
	if err := vault.Save(ctx, "pdf", map[string]string{"PDF_API_KEY": "sk-example"}); err != nil {
		panic(err)
	}
	env, err := vault.ResolveEnv(ctx, "pdf", nil)
	fmt.Println(env["PDF_API_KEY"] == "sk-example", err)
	// Output:
	// pdf false <nil>
	// true <nil>
}
