package skillkit_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/tools"
	"github.com/skillkit-go/skillkit/usage"
)

// Issue 32: with RecordUsage the Kit counts agents' calls in the skills
// folder's usage file, which a second Kit (another process) reads; without
// it, nothing is written.
func TestKitRecordsUsage(t *testing.T) {
	ctx := context.Background()
	dir := copyExamples(t)
	usageFile := filepath.Join(dir, registry.HubDir, skillkit.UsageFile)

	quiet, err := skillkit.Open(ctx, skillkit.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer quiet.Close()
	ts, err := quiet.Toolset(ctx, tools.Agent{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	read, _ := ts.Tool(tools.ReadSkillName)
	if res, err := read.Invoke(ctx, []byte(`{"name":"release-notes"}`)); err != nil || res.IsError {
		t.Fatal(res.Text, err)
	}
	if _, err := os.Stat(usageFile); !os.IsNotExist(err) || quiet.Usage() != nil {
		t.Fatalf("a Kit without RecordUsage wrote %s (%v)", usageFile, err)
	}

	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, RecordUsage: true})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	ts, err = kit.Toolset(ctx, tools.Agent{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	read, _ = ts.Tool(tools.ReadSkillName)
	for range 2 {
		if res, err := read.Invoke(ctx, []byte(`{"name":"release-notes"}`)); err != nil || res.IsError {
			t.Fatal(res.Text, err)
		}
	}
	other, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, RecordUsage: true})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	stats, err := other.Usage().Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sum := usage.Summarize(stats)
	if len(sum) != 1 || sum[0].Skill != "release-notes" || sum[0].Uses != 2 || sum[0].Agents[0] != "a" {
		t.Errorf("usage %+v", sum)
	}

	// A host's own store takes the uses instead.
	mem := usage.NewMemory()
	hosted, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Usage: mem, RecordUsage: true})
	if err != nil {
		t.Fatal(err)
	}
	defer hosted.Close()
	ts, _ = hosted.Toolset(ctx, tools.Agent{})
	read, _ = ts.Tool(tools.ReadSkillName)
	read.Invoke(ctx, []byte(`{"name":"date-diff"}`))
	if got, _ := mem.Stats(ctx); len(got) != 1 || got[0].Skill != "date-diff" {
		t.Errorf("the host's store holds %+v", got)
	}
}
