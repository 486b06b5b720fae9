package skillkit_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/registry"
)

// plantMCPRecord rewrites name's record as if it came from an MCP server
// whose command creates marker: what a writer of the registry could do.
func plantMCPRecord(t *testing.T, store registry.Store, name, marker string) []string {
	t.Helper()
	rec, err := store.Get(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"sh", "-c", "echo started > " + marker}
	rec.Source, rec.URL, rec.Subdir = registry.SourceMCP, mcpskills.CommandURL(argv), mcpskills.SkillURI(name)
	rec.Commit = "sha256:" + strings.Repeat("0", 64)
	if err := store.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	return argv
}

// A record that names an MCP server's command starts nothing in update
// checks and updates unless the host lists that command.
func TestRecordsNeverCarryCommands(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "started")
	open := func(o skillkit.Options) *skillkit.Kit {
		o.Dir = dir
		kit, err := skillkit.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { kit.Close() })
		return kit
	}
	kit := open(skillkit.Options{})
	if _, err := kit.Install(ctx, installer.Source{Dir: fixture.SkillFolder(t, "notes", "v1", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	argv := plantMCPRecord(t, kit.Registry(), "notes", marker)

	st, err := kit.CheckUpdates(ctx)
	if err != nil || len(st) != 1 || st[0].Checked || !strings.Contains(st[0].Error, "not on the host's list") {
		t.Fatalf("check: %+v, %v", st, err)
	}
	if _, err := kit.Update(ctx, "notes", &installer.UpdateOptions{Force: true}); !errors.Is(err, mcpskills.ErrNotAllowed) {
		t.Errorf("update: %v", err)
	}
	res, err := kit.UpdateAll(ctx, &installer.UpdateOptions{Force: true})
	if err != nil || len(res) != 1 || !errors.Is(res[0].Err, mcpskills.ErrNotAllowed) {
		t.Errorf("update all: %+v, %v", res, err)
	}
	// A list inside the skills folder is refused: skills could write it.
	if _, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, MCPServersFile: filepath.Join(dir, "notes", "servers")}); err == nil || !strings.Contains(err.Error(), "inside the skills folder") {
		t.Errorf("a list in the skills folder: %v", err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a command from a record was started: %v", err)
	}

	// Listed by the host (in its file), the same command is started.
	list := filepath.Join(t.TempDir(), "mcp-servers")
	if _, err := mcpskills.AppendAllowList(list, argv); err != nil {
		t.Fatal(err)
	}
	kit = open(skillkit.Options{MCPServersFile: list})
	if st, err := kit.CheckUpdates(ctx); err != nil || len(st) != 1 || strings.Contains(st[0].Error, "not on the host's list") {
		t.Fatalf("check of an allowed server: %+v, %v", st, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the allowed server did not start: %v", err)
	}
}
