package skillkit_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/testdb"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/tools"
)

// A flag change on a replica that has not synced an uninstall yet keeps
// the skill nowhere: it fails, writes no record, and the lagging replica's
// next sync removes the skill; a later fresh install inherits no flag.
func TestFleetFlagChangeOnALaggingReplica(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, db database) {
		ctx := t.Context()
		dsn := db.DSN(t)
		a := replica(t, db, dsn, filepath.Join(t.TempDir(), "a"), "replica-a")
		b := replica(t, db, dsn, filepath.Join(t.TempDir(), "b"), "replica-b")
		if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello")}, nil); err != nil {
			t.Fatal(err)
		}
		syncOK(t, b)
		if err := a.Uninstall(ctx, "greet", nil); err != nil {
			t.Fatal(err)
		}
		for _, change := range []func() error{
			func() error { return b.SetEnabled(ctx, "greet", true) },
			func() error { return b.SetEnabled(ctx, "greet", false) },
			func() error { return b.Pin(ctx, "greet") },
			func() error { return b.Unpin(ctx, "greet") },
		} {
			if err := change(); !errors.Is(err, installer.ErrNotInstalled) {
				t.Fatalf("a flag change on the lagging replica: %v", err)
			}
		}
		if _, err := a.Registry().Get(ctx, "greet"); !errors.Is(err, registry.ErrNotFound) {
			t.Fatalf("the shared registry has greet again: %v", err)
		}
		if got := syncActions(syncOK(t, b)); !slices.Equal(got, []string{"greet removed"}) {
			t.Fatalf("B's sync: %v", got)
		}
		if _, err := os.Stat(filepath.Join(b.Dir(), "greet")); !errors.Is(err, os.ErrNotExist) || inPrompt(t, b, "greet") {
			t.Fatalf("B keeps greet: %v", err)
		}
		res, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "again")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Record.Enabled || res.Record.Pinned {
			t.Fatalf("the fresh install inherited flags: %+v", res.Record)
		}
	})
}

// readOnlyEnv names, in the helper process, the read-only skills folder
// it reads.
const readOnlyEnv = "SKILLKIT_TEST_READONLY_DIR"

// TestReadOnlyHelper reads a skills folder it may not write, as a Kit of
// a read-only deployment does: Toolset, Skill and Doctor.
func TestReadOnlyHelper(t *testing.T) {
	dir := os.Getenv(readOnlyEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	if f, err := os.Create(filepath.Join(dir, ".skillhub", "probe")); err == nil {
		f.Close()
		t.Fatal("the folder is writable: the test proves nothing")
	}
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(t.Context(), tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ts.Prompt, `name="greet"`) {
		t.Fatalf("the prompt lacks greet:\n%s", ts.Prompt)
	}
	if _, ok, err := kit.Skill(t.Context(), "greet"); !ok || err != nil {
		t.Fatalf("Skill: %v %v", ok, err)
	}
	diags, err := kit.Doctor(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if errs := diags.AtLeast(diagnostics.Warning); len(errs) > 0 {
		t.Fatalf("Doctor on the read-only copy: %v", errs)
	}
}

// A read-only copy of a folder that had installs, updates and an
// uninstall reads as the original: Toolset, Skill and Doctor write
// nothing, not even a lock.
func TestReadOnlyFolder(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "skills")
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"greet", "gone"} {
		if _, err := kit.Install(ctx, installer.Source{Dir: greetSkill(t, name, "hello")}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := kit.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "howdy")}, &installer.InstallOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if err := kit.Uninstall(ctx, "gone", nil); err != nil {
		t.Fatal(err)
	}
	kit.Close()
	ro := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(ro, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	fixture.ReadOnly(t, ro)
	cmd := fixture.ReadOnlyChild(t, readOnlyEnv+"="+ro)
	cmd.Args = append(cmd.Args, "-test.run=^TestReadOnlyHelper$", "-test.v")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestReadOnlyHelper") {
		t.Fatalf("reading the read-only copy: %v\n%s", err, out)
	}
}

// A replica whose database user may only read still serves: Toolset,
// Skill and Doctor work on a folder a sync filled.
func TestFleetReadOnlyDatabaseUser(t *testing.T) {
	db := testdb.Backends()[0]
	ctx := t.Context()
	dsn := db.DSN(t)
	a := replica(t, db, dsn, filepath.Join(t.TempDir(), "a"), "replica-a")
	bdir := filepath.Join(t.TempDir(), "b")
	b := replica(t, db, dsn, bdir, "replica-b")
	if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello")}, nil); err != nil {
		t.Fatal(err)
	}
	syncOK(t, b)
	b.Close()
	reader := replica(t, db, testdb.ReadOnlyUser(t, dsn), bdir, "replica-b")
	if !inPrompt(t, reader, "greet") {
		t.Fatal("the read-only replica does not list greet")
	}
	if _, ok, err := reader.Skill(ctx, "greet"); !ok || err != nil {
		t.Fatalf("Skill: %v %v", ok, err)
	}
	diags, err := reader.Doctor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if errs := diags.AtLeast(diagnostics.Error); len(errs) > 0 {
		t.Fatalf("Doctor: %v", errs)
	}
}
