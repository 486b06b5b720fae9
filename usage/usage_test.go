package usage_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/usage"
	"github.com/skillkit-go/skillkit/usage/usagetest"
)

func TestMemory(t *testing.T) {
	usagetest.Run(t, func(*testing.T) usage.Store { return usage.NewMemory() })
}

func TestFile(t *testing.T) {
	// Each Record of the concurrent test opens and locks the file anew, as
	// separate processes do.
	usagetest.Run(t, func(t *testing.T) usage.Store {
		return usage.NewFile(filepath.Join(t.TempDir(), "state", "usage.json"))
	})
}

func TestFileSharedAndRefusesGarbage(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "usage.json")
	a, b := usage.NewFile(path), usage.NewFile(path)
	if err := a.Record(ctx, usage.Use{Skill: "x", Tool: "read_skill", Time: time.Now(), Outcome: usage.OK}); err != nil {
		t.Fatal(err)
	}
	if err := b.Record(ctx, usage.Use{Skill: "x", Tool: "read_skill", Time: time.Now(), Outcome: usage.OK}); err != nil {
		t.Fatal(err)
	}
	stats, err := a.Stats(ctx)
	if err != nil || len(stats) != 1 || stats[0].Uses != 2 {
		t.Fatalf("two stores on one file: %+v, %v", stats, err)
	}
	if err := os.WriteFile(path, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Stats(ctx); err == nil {
		t.Error("a file that is not JSON reads as no uses")
	}
	if err := a.Record(ctx, usage.Use{Skill: "x", Tool: "read_skill", Time: time.Now()}); err == nil {
		t.Error("Record replaced a file it could not read")
	}
}
