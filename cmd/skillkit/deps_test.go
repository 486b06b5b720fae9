package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
)

// runAsked runs the command line as a person at a terminal who answers
// with the lines of answers.
func runAsked(t *testing.T, answers string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(answers), getenv: func(string) string { return "" }, interactive: true}
	code := run(t.Context(), args, c)
	return code, stdout.String(), stderr.String()
}

// setupSkillZip writes a ZIP of a skill with a setup script that leaves a
// marker, and a system dependency on git.
func setupSkillZip(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"SKILL.md":          md("setupper", "Set up first."),
		"skill.config.yaml": "setup:\n  posix: scripts/setup.sh\ndependencies:\n  system:\n    - {name: git, check: git --version}\npermissions:\n  write: [.]\n",
		"scripts/setup.sh":  "echo ran > setup-ran.txt\n",
	} {
		f, _ := w.Create(name)
		f.Write([]byte(body))
	}
	w.Close()
	p := filepath.Join(t.TempDir(), "setupper.zip")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDepsCommand(t *testing.T) {
	for _, tool := range []string{"git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	skills := filepath.Join(t.TempDir(), "skills")
	// The skill declares that its setup writes into its folder: a yes grants it.
	if code, _, errOut := runCLI(t, "install", "--dir", skills, "--yes", setupSkillZip(t)); code != exitOK {
		t.Fatalf("install: %s", errOut)
	}
	marker := filepath.Join(skills, "setupper", "setup-ran.txt")
	ran := func() bool { _, err := os.Stat(marker); return err == nil }

	code, out, errOut := runCLI(t, "deps", "--dir", skills, "setupper")
	if code != exitOK || !strings.Contains(out, "system: present (git)") || !strings.Contains(out, "run it with: skillkit deps --setup setupper") || ran() {
		t.Fatalf("deps: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "[system] git: git --version passed") {
		t.Errorf("the log is not streamed: %s", errOut)
	}
	// --setup without a terminal needs --yes.
	code, _, errOut = runCLI(t, "deps", "--dir", skills, "--setup", "setupper")
	if code != exitNeedsYes || !strings.Contains(errOut, "scripts/setup.sh") || !strings.Contains(errOut, "--yes") ||
		!strings.Contains(errOut, "network: none; write: .") || ran() {
		t.Fatalf("--setup without --yes: exit %d, %s", code, errOut)
	}
	// At a terminal, "no" installs the rest without the script.
	code, out, errOut = runAsked(t, "n\n", "deps", "--dir", skills, "--setup", "setupper")
	if code != exitOK || !strings.Contains(errOut, "Run it? [y/N]") || !strings.Contains(errOut, "not running the setup script") || ran() {
		t.Fatalf("answered no: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runAsked(t, "y\n", "deps", "--dir", skills, "--setup", "setupper")
	if code != exitOK || !strings.Contains(out, "setup: ran (scripts/setup.sh)") || !ran() {
		t.Fatalf("answered yes: exit %d\n%s\n%s", code, out, errOut)
	}
	// Removing what the script wrote is a change of the approved files: it
	// must be approved before anything of the skill runs again.
	os.Remove(marker)
	if code, _, errOut := runCLI(t, "deps", "--dir", skills, "--setup", "--yes", "setupper"); code != exitFailure || !strings.Contains(errOut, "SKILL_MODIFIED") || !strings.Contains(errOut, "setup-ran.txt removed") {
		t.Fatalf("deps after an edit: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "approve", "--dir", skills, "--yes", "setupper"); code != exitOK {
		t.Fatalf("approve: %s", errOut)
	}
	code, out, _ = runCLI(t, "deps", "--dir", skills, "--setup", "--yes", "--json", "setupper")
	var res deps.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || res.Status(deps.StepSetup) != deps.Ran || !ran() {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}

	// A skill copied from a folder may not run its script, even with --yes.
	src := filepath.Join(t.TempDir(), "localsetup")
	os.MkdirAll(filepath.Join(src, "scripts"), 0o755)
	os.WriteFile(filepath.Join(src, "SKILL.md"), []byte(md("localsetup", "x")), 0o644)
	os.WriteFile(filepath.Join(src, "skill.config.yaml"), []byte("setup:\n  posix: scripts/setup.sh\n"), 0o644)
	os.WriteFile(filepath.Join(src, "scripts", "setup.sh"), []byte("echo ran > setup-ran.txt\n"), 0o644)
	if code, _, errOut := runCLI(t, "install", "--dir", skills, src); code != exitOK {
		t.Fatal(errOut)
	}
	code, _, errOut = runCLI(t, "deps", "--dir", skills, "--setup", "--yes", "localsetup")
	if code != exitFailure || !strings.Contains(errOut, "not allowed") {
		t.Errorf("setup of a local skill: exit %d, %s", code, errOut)
	}

	// An agent-written skill needs a yes too.
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: skills})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kit.CreateSkill(t.Context(), "agent-notes", md("agent-notes", "x"), nil); err != nil {
		t.Fatal(err)
	}
	kit.Close()
	if code, _, errOut := runCLI(t, "deps", "--dir", skills, "agent-notes"); code != exitNeedsYes || !strings.Contains(errOut, "written by an agent") {
		t.Errorf("agent-written without --yes: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runAsked(t, "no\n", "deps", "--dir", skills, "agent-notes"); code != exitFailure || !strings.Contains(errOut, "nothing installed") {
		t.Errorf("agent-written, answered no: exit %d, %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "deps", "--dir", skills, "--yes", "agent-notes"); code != exitOK || !strings.Contains(out, "declares no dependencies") {
		t.Errorf("agent-written with --yes: exit %d\n%s\n%s", code, out, errOut)
	}

	// --env reaches the tools: with an empty PATH there is no Python to
	// build a venv with, which is a RUNTIME_UNAVAILABLE error.
	py := filepath.Join(t.TempDir(), "needspy")
	os.MkdirAll(py, 0o755)
	os.WriteFile(filepath.Join(py, "SKILL.md"), []byte(md("needspy", "x")), 0o644)
	os.WriteFile(filepath.Join(py, "skill.config.yaml"), []byte("dependencies:\n  python:\n    inline: [requests]\n"), 0o644)
	if code, _, errOut := runCLI(t, "install", "--dir", skills, py); code != exitOK {
		t.Fatal(errOut)
	}
	code, out, errOut = runCLI(t, "deps", "--dir", skills, "--env", "PATH="+t.TempDir(), "needspy")
	if code != exitFailure || !strings.Contains(out, "python: unavailable") || !strings.Contains(out, "RUNTIME_UNAVAILABLE") {
		t.Errorf("without python on the tools' PATH: exit %d\n%s\n%s", code, out, errOut)
	}

	if code, _, _ := runCLI(t, "deps", "--dir", skills, "ghost"); code != exitFailure {
		t.Errorf("unknown skill: exit %d", code)
	}
	if code, _, _ := runCLI(t, "deps", "--dir", skills); code != exitUsage {
		t.Errorf("no name: exit %d", code)
	}
	if code, _, _ := runCLI(t, "deps", "--dir", skills, "--env", "novalue", "setupper"); code != exitUsage {
		t.Errorf("--env without =: exit %d", code)
	}
}

// The hint after an install matches what deps will do: a skill from a ZIP
// is told to run deps --setup; the same skill from a folder, whose setup
// script deps refuses, is told why instead, and no command that refuses.
func TestInstallHintMatchesSetupPolicy(t *testing.T) {
	zip := setupSkillZip(t)
	code, out, errOut := runCLI(t, "install", "--dir", t.TempDir(), "--yes", zip)
	if code != exitOK || !strings.Contains(out, "next: skillkit deps --setup setupper") {
		t.Errorf("from a ZIP: exit %d\n%s%s", code, out, errOut)
	}
	folder := t.TempDir()
	if code, _, errOut := runCLI(t, "install", "--dir", folder, "--yes", zip); code != exitOK {
		t.Fatal(errOut)
	}
	// The installed copy is the folder to install from.
	src := filepath.Join(folder, "setupper")
	skills := t.TempDir()
	code, out, errOut = runCLI(t, "install", "--dir", skills, "--yes", src)
	if code != exitOK || strings.Contains(out, "deps --setup") || !strings.Contains(out, "which skillkit does not run for it: only skills installed from GitHub, git or a ZIP run setup scripts") {
		t.Errorf("from a folder: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "deps", "--dir", skills, "--setup", "--yes", "setupper"); code != exitFailure || !strings.Contains(errOut, "only skills installed from GitHub, git or a ZIP") {
		t.Errorf("deps --setup of the folder's skill: exit %d\n%s", code, errOut)
	}
}
