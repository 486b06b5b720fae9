package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/registry"
)

// A record rewritten to name an MCP server's command: outdated and update
// --all --yes say the server is not allowed and start nothing.
func TestRecordedCommandsDoNotRun(t *testing.T) {
	skills := filepath.Join(t.TempDir(), "skills")
	src := skillSource(t, "notes", "v1", map[string]string{})
	if code, _, errOut := runCLI(t, "install", "--dir", skills, src); code != exitOK {
		t.Fatalf("install: %s", errOut)
	}
	store := registry.NewFSStore(skills)
	rec, err := store.Get(t.Context(), "notes")
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "started")
	rec.Source, rec.URL, rec.Subdir = registry.SourceMCP, mcpskills.CommandURL([]string{"sh", "-c", "echo x > " + marker}), mcpskills.SkillURI("notes")
	rec.Commit = "sha256:" + strings.Repeat("0", 64)
	if err := store.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(t.TempDir(), "mcp-servers")
	env := map[string]string{"SKILLKIT_MCP_SERVERS": list}
	code, _, errOut := runCLIEnv(t, env, "outdated", "--dir", skills)
	if code != exitFailure || !strings.Contains(errOut, "not on the host's list") {
		t.Errorf("outdated: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLIEnv(t, env, "update", "--all", "--yes", "--force", "--dir", skills)
	if code == exitOK || !strings.Contains(errOut, "not on the host's list") {
		t.Errorf("update --all: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the recorded command ran: %v", err)
	}
}
