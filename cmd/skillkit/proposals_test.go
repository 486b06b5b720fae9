package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// manageCreate is skill_manage's create of name with body as its
// instructions and files as its other files.
func manageCreate(t *testing.T, name, body string, files map[string]string) string {
	t.Helper()
	args := map[string]any{"action": "create", "name": name,
		"content": "---\nname: " + name + "\ndescription: Written by an agent.\n---\n" + body + "\n"}
	if files != nil {
		args["files"] = files
	}
	data, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// listedNames are the skills list --json shows in dir.
func listedNames(t *testing.T, dir string) []string {
	t.Helper()
	code, out, errOut := runCLI(t, "list", "--json", dir)
	var res struct{ Skills []struct{ Name string } }
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("list: exit %d %s %s", code, out, errOut)
	}
	var names []string
	for _, s := range res.Skills {
		names = append(names, s.Name)
	}
	return names
}

// queuedNames are the proposals proposals --json shows in dir.
func queuedNames(t *testing.T, dir string) []proposalSummary {
	t.Helper()
	code, out, errOut := runCLI(t, "proposals", "--json", "--dir", dir)
	var list []proposalSummary
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("proposals --json: exit %d %s %s", code, out, errOut)
	}
	return list
}

// TestProposalsCLI: skill_manage creating a skill the scan rates caution
// leaves it unlisted and queued; approve makes it listed, reject drops it;
// a dangerous write is refused and not queued; a safe one applies.
func TestProposalsCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "tool", "skill_manage", manageCreate(t, "setup", pipedBody+"\n\x1b[31mred", nil), dir)
	if code != exitOK || !strings.Contains(out, "NOT saved yet: it awaits a person's review") || strings.Contains(out, "Created") {
		t.Fatalf("create rated caution: exit %d %s %s", code, out, errOut)
	}
	if names := listedNames(t, dir); slices.Contains(names, "setup") {
		t.Fatalf("a proposed skill is listed: %v", names)
	}
	list := queuedNames(t, dir)
	if len(list) != 1 || list[0].Name != "setup" || list[0].Verdict != "caution" || list[0].Action != "create" || !slices.Equal(list[0].Files, []string{"SKILL.md"}) {
		t.Fatalf("the queue: %+v", list)
	}
	code, out, _ = runCLI(t, "proposals", "show", "setup", "--dir", dir)
	if code != exitOK || !strings.Contains(out, "+++ b/setup/SKILL.md") || !strings.Contains(out, "+"+pipedBody) ||
		!strings.Contains(out, "pipe-to-shell") || strings.Contains(out, "\x1b") || !strings.Contains(out, `+\x1b[31mred`) {
		t.Fatalf("show: exit %d\n%s", code, out)
	}

	// Without a terminal or --yes nothing is applied; a "no" leaves it.
	if code, _, errOut = runCLI(t, "proposals", "approve", "setup", "--dir", dir); code != exitNeedsYes || !strings.Contains(errOut, "--yes") {
		t.Fatalf("approve without a yes: exit %d %s", code, errOut)
	}
	if code, _, _ = runCLIAt(t, strings.NewReader("n\n"), "proposals", "approve", "setup", "--dir", dir); code != exitFailure {
		t.Fatalf("approve answered no: exit %d", code)
	}
	if slices.Contains(listedNames(t, dir), "setup") {
		t.Fatal("a proposal went live without a yes")
	}
	code, _, errOut = runCLIAt(t, strings.NewReader("y\n"), "proposals", "approve", "setup", "--dir", dir)
	if code != exitOK || !strings.Contains(errOut, "Apply the agent's create of setup?") || !strings.Contains(errOut, "pipe-to-shell") {
		t.Fatalf("approve answered yes: exit %d %s", code, errOut)
	}
	if !slices.Contains(listedNames(t, dir), "setup") || len(queuedNames(t, dir)) != 0 {
		t.Fatal("the approved skill is not listed, or still queued")
	}

	// Rejected: gone from the queue, never listed.
	if code, _, _ = runCLI(t, "tool", "skill_manage", manageCreate(t, "fetcher", pipedBody, nil), dir); code != exitOK {
		t.Fatal("create")
	}
	if code, out, _ = runCLI(t, "proposals", "reject", "fetcher", "--dir", dir); code != exitOK || !strings.Contains(out, "rejected") {
		t.Fatalf("reject: exit %d %s", code, out)
	}
	if slices.Contains(listedNames(t, dir), "fetcher") || len(queuedNames(t, dir)) != 0 {
		t.Fatal("a rejected proposal is listed or queued")
	}
	if code, _, errOut = runCLI(t, "proposals", "reject", "fetcher", "--dir", dir); code != exitFailure || !strings.Contains(errOut, "no such proposal") {
		t.Fatalf("reject again: exit %d %s", code, errOut)
	}

	// Dangerous: refused, not queued, not listed.
	code, _, errOut = runCLI(t, "tool", "skill_manage", manageCreate(t, "shell", reverseBody, map[string]string{"scripts/run.sh": reverseSh}), dir)
	if code != exitFailure || !strings.Contains(errOut, "refused by the security scan") {
		t.Fatalf("dangerous create: exit %d %s", code, errOut)
	}
	if slices.Contains(listedNames(t, dir), "shell") || len(queuedNames(t, dir)) != 0 {
		t.Fatal("a dangerous write is listed or queued")
	}
	// Safe: listed at once, nothing queued.
	if code, out, _ = runCLI(t, "tool", "skill_manage", manageCreate(t, "hello", "Say hello.", nil), dir); code != exitOK || !strings.Contains(out, "Created the skill hello") {
		t.Fatalf("safe create: exit %d %s", code, out)
	}
	if !slices.Contains(listedNames(t, dir), "hello") || len(queuedNames(t, dir)) != 0 {
		t.Fatal("a safe write is not listed, or queued")
	}
}

// TestProposalsApproveRescans: approve scans what it applies: a queue file
// changed to carry a reverse shell under its old caution verdict is
// refused.
func TestProposalsApproveRescans(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI(t, "tool", "skill_manage", manageCreate(t, "setup", pipedBody, nil), dir); code != exitOK {
		t.Fatal("create")
	}
	file := filepath.Join(dir, ".skillhub", "proposals", "setup.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["files"] = map[string]any{"scripts/run.sh": []byte(reverseSh)}
	data, _ = json.Marshal(raw)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "proposals", "approve", "setup", "--yes", "--dir", dir)
	if code != exitFailure || !strings.Contains(errOut, "dangerous") {
		t.Fatalf("approve of a reverse shell: exit %d %s", code, errOut)
	}
	if slices.Contains(listedNames(t, dir), "setup") {
		t.Fatal("a dangerous proposal went live")
	}
}

// TestProposalsUsage: the command line's mistakes are usage errors.
func TestProposalsUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"proposals", "aprove", "x", "--dir", dir},
		{"proposals", "show", "--dir", dir},
		{"proposals", "show", "../x", "--dir", dir},
		{"proposals", "reject", "x", "--yes", "--dir", dir},
		{"proposals", "list", "x", "--dir", dir},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if code, _, errOut := runCLI(t, "proposals", "--dir", dir); code != exitOK || !strings.Contains(errOut, "no proposals") {
		t.Errorf("an empty queue: exit %d %s", code, errOut)
	}
}
