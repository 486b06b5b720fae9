package main

import (
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
	// A server that starts prints its proof, which the client quotes; the
	// command computes it, so the command's own text does not hold it.
	const proof = "started-42"
	command := []string{"sh", "-c", "echo started-$((6*7))"}
	rec.Source, rec.URL, rec.Subdir = registry.SourceMCP, mcpskills.CommandURL(command), mcpskills.SkillURI("notes")
	rec.Commit = "sha256:" + strings.Repeat("0", 64)
	if err := store.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(t.TempDir(), "mcp-servers")
	env := map[string]string{"SKILLKIT_MCP_SERVERS": list}
	code, _, errOut := runCLIEnv(t, env, "outdated", "--dir", skills)
	if code != exitFailure || !strings.Contains(errOut, "not on the host's list") || strings.Contains(errOut, proof) {
		t.Errorf("outdated: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLIEnv(t, env, "update", "--all", "--yes", "--force", "--dir", skills)
	if code == exitOK || !strings.Contains(errOut, "not on the host's list") || strings.Contains(errOut, proof) {
		t.Errorf("update --all: exit %d, %s", code, errOut)
	}
	// Listed, the same command starts (and fails the protocol).
	allowed := filepath.Join(t.TempDir(), "allowed")
	if _, err := mcpskills.AppendAllowList(allowed, command); err != nil {
		t.Fatal(err)
	}
	if _, _, errOut := runCLIEnv(t, map[string]string{"SKILLKIT_MCP_SERVERS": allowed}, "outdated", "--dir", skills); !strings.Contains(errOut, proof) {
		t.Errorf("outdated with the command listed: %s", errOut)
	}
}

// A skill installed from a folder, with a secret set, whose run.sh is then
// changed: run exits non-zero and prints no secret; after approve, it runs.
func TestRunRefusesModifiedSkillUntilApproved(t *testing.T) {
	skills := filepath.Join(t.TempDir(), "skills")
	src := skillSource(t, "gh", "v1", map[string]string{
		"skill.config.yaml": "runtime: bash\nentrypoint: run.sh\nenv:\n  - {name: GH_TOKEN, required: true}\n",
		"run.sh":            `printf '{"token":"%s"}' "$GH_TOKEN"` + "\n",
	})
	env := map[string]string{"SKILL_SECRET_KEY": "integrity-test-key-0123456789"}
	if code, _, errOut := runCLIEnv(t, env, "install", "--dir", skills, src); code != exitOK {
		t.Fatalf("install: %s", errOut)
	}
	if code, _, errOut := runWith(t, env, "ghp_cli_secret\n", "secrets", "--dir", skills, "set", "gh", "GH_TOKEN=-"); code != exitOK {
		t.Fatalf("secrets set: %s", errOut)
	}
	if code, out, errOut := runCLIEnv(t, env, "run", "--dir", skills, "gh"); code != exitOK || !strings.Contains(out, "ghp_cli_secret") {
		t.Fatalf("run: exit %d %s %s", code, out, errOut)
	}
	if err := os.WriteFile(filepath.Join(skills, "gh", "run.sh"), []byte(`printf '{"token":"%s","evil":1}' "$GH_TOKEN"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLIEnv(t, env, "run", "--dir", skills, "gh")
	if code == exitOK || strings.Contains(out+errOut, "ghp_cli_secret") || !strings.Contains(errOut, "SKILL_MODIFIED") || !strings.Contains(errOut, "run.sh changed") || !strings.Contains(errOut, "skillkit approve gh") {
		t.Fatalf("run of the modified skill: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLIEnv(t, env, "approve", "--dir", skills, "gh")
	if code != exitOK || !strings.Contains(out+errOut, "changed run.sh") || !strings.Contains(out+errOut, "approved gh") {
		t.Fatalf("approve: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := runCLIEnv(t, env, "run", "--dir", skills, "gh"); code != exitOK || !strings.Contains(out, `"evil":1`) {
		t.Fatalf("run after approve: exit %d %s %s", code, out, errOut)
	}
	if code, out, errOut := runCLIEnv(t, env, "approve", "--dir", skills, "gh"); code != exitOK || !strings.Contains(out+errOut, "unchanged") {
		t.Fatalf("approve again: exit %d %s %s", code, out, errOut)
	}
}

// run refuses a disabled skill and says how to enable it.
func TestRunRefusesDisabledSkill(t *testing.T) {
	skills := filepath.Join(t.TempDir(), "skills")
	src := skillSource(t, "calc", "v1", map[string]string{
		"skill.config.yaml": "runtime: bash\nentrypoint: run.sh\n",
		"run.sh":            `echo '{"ran":true}'` + "\n",
	})
	if code, _, errOut := runCLI(t, "install", "--dir", skills, src); code != exitOK {
		t.Fatalf("install: %s", errOut)
	}
	if code, _, errOut := runCLI(t, "disable", "--dir", skills, "calc"); code != exitOK {
		t.Fatalf("disable: %s", errOut)
	}
	code, out, errOut := runCLI(t, "run", "--dir", skills, "calc")
	if code != exitFailure || strings.Contains(out, "ran") || !strings.Contains(errOut, "disabled") || !strings.Contains(errOut, "skillkit enable calc") {
		t.Fatalf("run of a disabled skill: exit %d\n%s\n%s", code, out, errOut)
	}
}
