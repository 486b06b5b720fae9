package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
)

// A git repository holding two skills, and a caution one: install without
// a pick lists them and is a usage error; --all installs each on its own
// (the caution one waits for a yes without failing the others); --skill
// picks by folder name or path, repeatable; the same works for the
// repository's checkout as a folder (its .git left out, its commit
// recorded) and for a ZIP.
func TestInstallSeveral(t *testing.T) {
	repo, commit := gitRepo(t)
	files := map[string]string{
		"README.md":             "A collection.",
		"skills/pdf/SKILL.md":   md("pdf", "Fill forms."),
		"skills/csv/SKILL.md":   md("csv", "Read tables."),
		"extra/piped/SKILL.md":  md("piped", pipedBody),
		"extra/other/README.md": "not a skill",
	}
	commit(files)
	url := "file://" + filepath.ToSlash(repo)

	skills := filepath.Join(t.TempDir(), "skills")
	code, _, errOut := runCLI(t, "install", "--dir", skills, "--allow-file-urls", url)
	if code != exitUsage || !strings.Contains(errOut, "it holds 3 skills, in extra/piped, skills/csv and skills/pdf: pick with --skill NAME (repeatable), or --all") {
		t.Fatalf("no pick: exit %d\n%s", code, errOut)
	}
	code, out, errOut := runCLI(t, "install", "--dir", skills, "--allow-file-urls", "--all", url)
	if code != exitNeedsYes || !installed(t, skills, "pdf") || !installed(t, skills, "csv") || installed(t, skills, "piped") ||
		!strings.Contains(errOut, "installed 2 of 3 skills; waiting for a yes (--yes): "+url+" (extra/piped)") || strings.Count(out, "installed ") != 2 {
		t.Fatalf("--all: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "install", "--dir", skills, "--allow-file-urls", "--all", "--yes", url)
	if code != exitOK || !installed(t, skills, "piped") || !strings.Contains(errOut, "installed 3 of 3 skills") {
		t.Fatalf("--all --yes: exit %d\n%s", code, errOut)
	}

	checkout := filepath.Join(t.TempDir(), "skills")
	code, out, errOut = runCLI(t, "install", "--dir", checkout, "--skill", "pdf", "--skill", "skills/csv", "--json", repo)
	var items []installItem
	if err := json.Unmarshal([]byte(out), &items); err != nil || code != exitOK || len(items) != 2 {
		t.Fatalf("--skill twice --json from the checkout: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	for _, it := range items {
		rec := it.Result.Record
		if rec.URL != repo || rec.Commit == "" || rec.Subdir != "skills/"+rec.Name || it.Source != repo+" (skills/"+rec.Name+")" {
			t.Errorf("from the checkout: %+v", it)
		}
	}
	if _, err := os.Stat(filepath.Join(checkout, "pdf", ".git")); !os.IsNotExist(err) {
		t.Error(".git installed")
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--skill", "nope", repo}, exitFailure, "offers no skill nope"},
		{[]string{"--skill", "pdf", "--all", repo}, exitUsage, "--all or --skill, not both"},
		{[]string{"--all", "--ref", "main", repo}, exitUsage, "--ref goes with a git URL"},
	} {
		args := append([]string{"install", "--dir", t.TempDir()}, tc.args...)
		if code, _, errOut := runCLI(t, args...); code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s", tc.args, code, tc.code, tc.want, errOut)
		}
	}

	// A ZIP of the same files, one skill picked by --path.
	zipped := filepath.Join(t.TempDir(), "skills")
	zip := fixture.WriteZip(t, files)
	if code, _, errOut := runCLI(t, "install", "--dir", zipped, "--path", "skills/csv", zip); code != exitOK || !installed(t, zipped, "csv") || installed(t, zipped, "pdf") {
		t.Fatalf("a ZIP's folder: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "install", "--dir", zipped, "--all", "--yes", zip); code != exitOK || !installed(t, zipped, "pdf") || !strings.Contains(errOut, "installed 3 of 3") {
		t.Fatalf("a ZIP with --all: exit %d\n%s", code, errOut)
	}
}
