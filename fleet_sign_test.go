package skillkit_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
)

func newKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// Two replicas on one database, packages signed by A's key, B trusting it:
// a third process with the database but without the key uninstalls and
// reinstalls another version; B's next sync refuses it and keeps what it
// had, and refuses a removal nobody trusted signed. What A signs, B
// follows, removals included.
func TestFleetSignedPackages(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, db database) {
		ctx := t.Context()
		dsn := db.DSN(t)
		keyA := newKey(t)
		trustA := func(o *skillkit.Options) {
			o.FleetKey, o.FleetTrust = nil, []ed25519.PublicKey{keyA.Public().(ed25519.PublicKey)}
		}
		a := replica(t, db, dsn, filepath.Join(t.TempDir(), "a"), "a", func(o *skillkit.Options) { o.FleetKey = keyA })
		bdir := filepath.Join(t.TempDir(), "b")
		b := replica(t, db, dsn, bdir, "b", trustA)
		intruder := replica(t, db, dsn, filepath.Join(t.TempDir(), "c"), "c", func(o *skillkit.Options) {
			o.FleetKey, o.FleetUnsigned = nil, true
		})
		res, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "other", "hi")}, nil); err != nil {
			t.Fatal(err)
		}
		syncOK(t, b)
		signed := res.Record.Fingerprint
		if got := fingerprintOf(t, filepath.Join(bdir, "greet")); got != signed {
			t.Fatalf("b holds %s, want %s", got, signed)
		}

		// The intruder replaces greet with another version.
		if err := intruder.Uninstall(ctx, "greet", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := intruder.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "pwned")}, nil); err != nil {
			t.Fatal(err)
		}
		rep, err := b.Sync(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Err(); !errors.Is(err, registry.ErrUnsigned) || !strings.Contains(err.Error(), "greet") {
			t.Fatalf("b synced an unsigned install: %v", err)
		}
		if got := fingerprintOf(t, filepath.Join(bdir, "greet")); got != signed {
			t.Fatalf("b replaced greet: %s", got)
		}
		ex, err := b.Executor(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := ex.Execute(ctx, "greet", nil); err != nil || !strings.Contains(string(out.Output), "hello") {
			t.Errorf("b's kept version: %+v, %v", out, err)
		}

		// A removal without a signature is refused too.
		if err := intruder.Uninstall(ctx, "other", nil); err != nil {
			t.Fatal(err)
		}
		rep, _ = b.Sync(ctx, nil)
		if err := rep.Err(); !errors.Is(err, registry.ErrUnsigned) || !strings.Contains(err.Error(), "remove of other") {
			t.Fatalf("b removed without a signed removal: %v", err)
		}
		if fingerprintOf(t, filepath.Join(bdir, "other")) == "" {
			t.Fatal("b removed other")
		}

		// What A signs, B follows: a reinstall, and an uninstall.
		if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello again")}, &installer.InstallOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "other", "hi")}, &installer.InstallOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
		if err := a.Uninstall(ctx, "other", nil); err != nil {
			t.Fatal(err)
		}
		syncOK(t, b)
		if out, err := ex.Execute(ctx, "greet", nil); err != nil || !strings.Contains(string(out.Output), "hello again") {
			t.Errorf("after a signed reinstall: %+v, %v", out, err)
		}
		if fingerprintOf(t, filepath.Join(bdir, "other")) != "" {
			t.Error("a signed removal was not followed")
		}
	})
}

// A replica with no trusted key refuses to sync unless it opts in.
func TestFleetWithoutTrustRefusesToSync(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, db database) {
		ctx := t.Context()
		dsn := db.DSN(t)
		a := replica(t, db, dsn, filepath.Join(t.TempDir(), "a"), "a")
		if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello")}, nil); err != nil {
			t.Fatal(err)
		}
		b := replica(t, db, dsn, filepath.Join(t.TempDir(), "b"), "b", func(o *skillkit.Options) { o.FleetKey = nil })
		rep, err := b.Sync(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Err(); !errors.Is(err, registry.ErrNoTrustedKeys) {
			t.Fatalf("sync without trust: %v", err)
		}
		c := replica(t, db, dsn, filepath.Join(t.TempDir(), "c"), "c", func(o *skillkit.Options) { o.FleetKey, o.FleetUnsigned = nil, true })
		syncOK(t, c)
	})
}
