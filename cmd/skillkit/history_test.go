package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// historyOf runs history --json and decodes it.
func historyOf(t *testing.T, skills, name string) []historyVersion {
	t.Helper()
	code, out, errOut := runCLI(t, "history", "--dir", skills, "--json", name)
	if code != exitOK {
		t.Fatalf("history --json %s: exit %d\n%s", name, code, errOut)
	}
	var vs []historyVersion
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	return vs
}

// historyVersion is the stable --json form of one version.
type historyVersion struct {
	Seq         int    `json:"seq"`
	Time        string `json:"time"`
	Op          string `json:"op"`
	Actor       string `json:"actor"`
	Fingerprint string `json:"fingerprint"`
	Source      string `json:"source"`
	URL         string `json:"url"`
	Current     bool   `json:"current"`
}

// Issue 33: install from a folder, change the folder, update: history
// lists both versions, and rollback restores the first SKILL.md byte for
// byte; a rollback is itself a version that can be undone.
func TestHistoryAndRollbackAfterUpdate(t *testing.T) {
	skills := t.TempDir()
	src := skillSource(t, "notes", "First version.", map[string]string{"references/a.md": "A1\n"})
	first, err := os.ReadFile(filepath.Join(src, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "install", "--dir", skills, src); code != exitOK {
		t.Fatalf("install: %s", errOut)
	}
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte(md("notes", "Second version.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(src, "references", "a.md")); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "update", "--dir", skills, "--yes", "notes"); code != exitOK {
		t.Fatalf("update: %s", errOut)
	}

	vs := historyOf(t, skills, "notes")
	if len(vs) != 2 || vs[0].Op != "install" || vs[1].Op != "update" || vs[0].Actor != "person" ||
		vs[0].Source != "local" || vs[0].URL != src || !vs[1].Current || vs[0].Current || vs[0].Fingerprint == vs[1].Fingerprint {
		t.Fatalf("history after install and update: %+v", vs)
	}
	code, out, errOut := runCLI(t, "history", "--dir", skills, "notes")
	if code != exitOK || !strings.Contains(out, "update") || !strings.Contains(out, "*") || !strings.Contains(errOut, "2 versions of notes kept") {
		t.Fatalf("history: exit %d\n%s%s", code, out, errOut)
	}

	code, out, errOut = runCLI(t, "rollback", "--dir", skills, "--yes", "notes")
	if code != exitOK || !strings.Contains(out, "rolled back notes") {
		t.Fatalf("rollback: exit %d\n%s%s", code, out, errOut)
	}
	got, err := os.ReadFile(filepath.Join(skills, "notes", "SKILL.md"))
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("SKILL.md after rollback: %q, %v; want %q", got, err, first)
	}
	if a, err := os.ReadFile(filepath.Join(skills, "notes", "references", "a.md")); err != nil || string(a) != "A1\n" {
		t.Fatalf("references/a.md after rollback: %q, %v", a, err)
	}
	// The restored files are the approved ones: the skill is not modified.
	if code, out, errOut := runCLI(t, "approve", "--dir", skills, "--json", "notes"); code != exitOK || !strings.Contains(out, `"unchanged": true`) {
		t.Fatalf("approve after rollback: exit %d\n%s%s", code, out, errOut)
	}

	vs = historyOf(t, skills, "notes")
	if len(vs) != 3 || vs[2].Op != "rollback" || vs[2].Fingerprint != vs[0].Fingerprint || !vs[2].Current {
		t.Fatalf("history after rollback: %+v", vs)
	}
	// Rolling back again (to version 2, by its fingerprint) undoes it.
	if code, _, errOut := runCLI(t, "rollback", "--dir", skills, "--yes", "notes", vs[1].Fingerprint[len("sha256:"):][:10]); code != exitOK {
		t.Fatalf("rollback to version 2: %s", errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(skills, "notes", "SKILL.md")); !strings.Contains(string(got), "Second version.") {
		t.Fatalf("SKILL.md after the second rollback: %q", got)
	}
	// The installed version cannot be restored over itself.
	if code, _, errOut := runCLI(t, "rollback", "--dir", skills, "--yes", "notes", "2"); code != exitFailure || !strings.Contains(errOut, "is the one installed") {
		t.Fatalf("rollback to the current version: exit %d\n%s", code, errOut)
	}
}

// A version is restored as an install would be today: one the scan rates
// dangerous is refused, or asked about with --allow-dangerous.
func TestRollbackScansTheVersion(t *testing.T) {
	skills := t.TempDir()
	src := skillSource(t, "helper", reverseBody, map[string]string{"scripts/run.sh": reverseSh})
	if code, _, errOut := runCLI(t, "install", "--dir", skills, "--allow-dangerous", "--yes", src); code != exitOK {
		t.Fatalf("install of the dangerous version: %s", errOut)
	}
	if err := os.Remove(filepath.Join(src, "scripts", "run.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte(md("helper", "Helps safely.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "update", "--dir", skills, "helper"); code != exitOK {
		t.Fatalf("update to the safe version: %s", errOut)
	}
	safe := func() bool {
		_, err := os.Stat(filepath.Join(skills, "helper", "scripts", "run.sh"))
		return os.IsNotExist(err)
	}

	code, _, errOut := runCLIAt(t, strings.NewReader("y\n"), "rollback", "--dir", skills, "--yes", "helper")
	if code != exitFailure || !safe() || !strings.Contains(errOut, "rates helper dangerous") || strings.Contains(errOut, "[y/N]") {
		t.Fatalf("rollback to a dangerous version: exit %d, safe %v\n%s", code, safe(), errOut)
	}
	code, out, _ := runCLI(t, "rollback", "--dir", skills, "--json", "helper")
	var refusal scanRefusal
	if err := json.Unmarshal([]byte(out), &refusal); err != nil || code != exitFailure || refusal.Refusal == nil || refusal.Refusal.Decision != "block" || !safe() {
		t.Fatalf("rollback --json to a dangerous version: exit %d, %v\n%s", code, err, out)
	}
	if code, _, errOut := runCLI(t, "rollback", "--dir", skills, "--allow-dangerous", "helper"); code != exitNeedsYes || !safe() {
		t.Fatalf("rollback --allow-dangerous without a yes: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := runCLIAt(t, strings.NewReader("y\n"), "rollback", "--dir", skills, "--allow-dangerous", "helper"); code != exitOK || safe() {
		t.Fatalf("rollback --allow-dangerous answered yes: exit %d\n%s", code, errOut)
	}
}

// An uninstall keeps the version it removed: rollback brings it back.
func TestRollbackAfterUninstall(t *testing.T) {
	skills := t.TempDir()
	src := skillSource(t, "gone", "Soon gone.", map[string]string{})
	if code, _, errOut := runCLI(t, "install", "--dir", skills, src); code != exitOK {
		t.Fatalf("install: %s", errOut)
	}
	if err := os.RemoveAll(src); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "uninstall", "--dir", skills, "gone"); code != exitOK || installed(t, skills, "gone") {
		t.Fatalf("uninstall: %s", errOut)
	}
	vs := historyOf(t, skills, "gone")
	if len(vs) != 2 || vs[1].Op != "uninstall" || vs[1].Current || vs[1].Fingerprint != vs[0].Fingerprint {
		t.Fatalf("history after uninstall: %+v", vs)
	}
	if code, _, errOut := runCLI(t, "rollback", "--dir", skills, "gone"); code != exitOK || !installed(t, skills, "gone") {
		t.Fatalf("rollback of an uninstalled skill: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "history", "--dir", skills, "ghost"); code != exitFailure || !strings.Contains(errOut, "no history") {
		t.Fatalf("history of a skill that never was: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "rollback", "--dir", skills, "ghost"); code != exitFailure || !strings.Contains(errOut, "no history") {
		t.Fatalf("rollback of a skill that never was: exit %d\n%s", code, errOut)
	}
}
