package skillkit_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
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
