package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
)

// inspect NAME and list --long show where a skill of the skills folder
// came from and its state: the folder and subfolder of a checkout with its
// commit, approval as the files change, pinned and disabled, and a skill
// placed by hand.
func TestInspectAndListShowOrigin(t *testing.T) {
	repo, commit := gitRepo(t)
	commit(map[string]string{"skills/pdf/SKILL.md": md("pdf", "Fill forms."), "skills/csv/SKILL.md": md("csv", "Read tables.")})
	skills := filepath.Join(t.TempDir(), "skills")
	if code, _, errOut := runCLI(t, "install", "--yes", "--all", "--dir", skills, repo); code != exitOK {
		t.Fatalf("install --all: exit %d\n%s", code, errOut)
	}
	writeSkillFile(t, skills, "hand", "")

	code, out, errOut := runCLI(t, "inspect", "--dir", skills, "pdf")
	for _, want := range []string{"source:                    local", "url:                       " + repo, "subfolder:                 skills/pdf",
		"commit:  ", "installed:  ", "approval:                  approved: the files are the ones approved (sha256:", "permissions:               network: none",
		"enabled:                   yes", "pinned:                    no"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("inspect pdf: exit %d, want %q in\n%s%s", code, want, out, errOut)
		}
	}
	if code, out, _ := runCLIEnv(t, map[string]string{"SKILLKIT_DIR": skills}, "inspect", "hand"); code != exitOK || !strings.Contains(out, "origin:                    none recorded: placed by hand") {
		t.Errorf("inspect of a skill placed by hand: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "inspect", "--dir", skills, "ghost"); code != exitFailure || !strings.Contains(errOut, "no such path, and no skill named ghost in") {
		t.Errorf("inspect of no skill: exit %d\n%s", code, errOut)
	}
	// A path is shown as before, without the registry.
	if code, out, _ := runCLI(t, "inspect", filepath.Join(skills, "pdf")); code != exitOK || strings.Contains(out, "approval:") {
		t.Errorf("inspect PATH: exit %d\n%s", code, out)
	}

	if err := os.WriteFile(filepath.Join(skills, "csv", "SKILL.md"), []byte(md("csv", "Edited.")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"pin", "pdf"}, {"disable", "pdf"}} {
		if code, _, errOut := runCLI(t, append(args, "--dir", skills)...); code != exitOK {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	code, out, errOut = runCLI(t, "inspect", "--dir", skills, "--json", "csv", "pdf")
	var got struct {
		Skills []skillView `json:"skills"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK || len(got.Skills) != 2 {
		t.Fatalf("inspect --json: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	csv, pdf := got.Skills[0].Installed, got.Skills[1].Installed
	if csv.Approval != "modified" || csv.Fingerprint == csv.Record.Fingerprint || pdf.Approval != "approved" || !pdf.Record.Pinned || pdf.Record.Enabled ||
		pdf.Record.Subdir != "skills/pdf" || pdf.Record.Commit == "" {
		t.Errorf("inspect --json: csv %+v, pdf %+v", csv, pdf)
	}

	code, out, _ = runCLIEnv(t, map[string]string{"COLUMNS": "400"}, "list", "--long", "--dir", skills)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	wantRows := []string{
		"NAME CLASS STATE COMMIT ORIGIN",
		"csv prompt modified " + pdf.Record.Commit[:12] + " local " + repo + " (skills/csv)",
		"hand prompt unrecorded placed by hand",
		"pdf prompt approved,disabled,pinned " + pdf.Record.Commit[:12] + " local " + repo + " (skills/pdf)",
	}
	if code != exitOK || len(lines) != len(wantRows) {
		t.Fatalf("list --long: exit %d\n%s", code, out)
	}
	for i, want := range wantRows {
		if got := strings.Join(strings.Fields(lines[i]), " "); got != want {
			t.Errorf("list --long row %d: %q, want %q", i, got, want)
		}
	}
	code, out, _ = runCLI(t, "list", "--long", "--json", "--dir", skills)
	var listed struct {
		Skills []listedSkill `json:"skills"`
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil || code != exitOK || len(listed.Skills) != 3 ||
		listed.Skills[0].Installed == nil || listed.Skills[0].Installed.Approval != "modified" || listed.Skills[1].Installed.Record != nil {
		t.Errorf("list --long --json: exit %d, %v\n%s", code, err, out)
	}
	if _, out, _ := runCLI(t, "list", "--json", "--dir", skills); strings.Contains(out, `"installed"`) {
		t.Errorf("list --json without --long reads the registry's state:\n%s", out)
	}
}

// What a person allowed when installing (--allow-file-urls, --allow-host)
// is remembered for the origin, so outdated and update reach it again
// without the flags; a folder where nobody allowed it refuses as before.
func TestOriginOptionsAreRemembered(t *testing.T) {
	repo, commit := gitRepo(t)
	commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v1")})
	url := "file://" + filepath.ToSlash(repo)
	skills := filepath.Join(t.TempDir(), "skills")
	if code, _, errOut := runCLI(t, "install", "--dir", skills, "--allow-file-urls", "--allow-host", "git.example.org", "--path", "skills/notes", url); code != exitOK {
		t.Fatalf("install: %s", errOut)
	}
	data, err := os.ReadFile(filepath.Join(skills, ".skillhub", "origins.json"))
	if err != nil || !strings.Contains(string(data), `"`+url+`": {`) || !strings.Contains(string(data), `"allow_file_urls": true`) || strings.Contains(string(data), "git.example.org") {
		t.Fatalf("origins.json: %v\n%s", err, data)
	}
	commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v2")})
	if code, out, errOut := runCLI(t, "outdated", "--dir", skills); code != exitOK || !strings.Contains(out, "notes") {
		t.Fatalf("outdated without the flag: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "update", "--dir", skills, "notes"); code != exitOK || !strings.Contains(out, "updated notes from git "+url) {
		t.Fatalf("update without the flag: exit %d\n%s%s", code, out, errOut)
	}

	// Another folder whose record names the same origin, with no person's
	// approval in it, still needs the flag.
	other := filepath.Join(t.TempDir(), "skills")
	if code, _, errOut := runCLI(t, "install", "--dir", other, "--allow-file-urls", "--path", "skills/notes", url); code != exitOK {
		t.Fatal(errOut)
	}
	if err := os.Remove(filepath.Join(other, ".skillhub", "origins.json")); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "update", "--dir", other, "notes"); code != exitFailure || !strings.Contains(errOut, "--allow-file-urls") {
		t.Errorf("update with nothing remembered: exit %d\n%s", code, errOut)
	}
	// A broken file is an error, not a silent reset.
	if err := os.WriteFile(filepath.Join(other, ".skillhub", "origins.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "outdated", "--dir", other); code != exitFailure || !strings.Contains(errOut, "origins.json") {
		t.Errorf("outdated with a broken origins.json: exit %d\n%s", code, errOut)
	}
}

// rememberOrigin keeps of --allow-host what the origin needed: its own
// host for a git URL, every host for a site (its index may point to
// others), nothing for github.com; and readOrigins gives them back.
func TestRememberOriginHosts(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".skillhub"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := &installerFlags{allowHosts: []string{"git.example.org", "cdn.example.net"}}
	for _, rec := range []registry.Record{
		{Name: "a", Source: registry.SourceGit, URL: "https://git.example.org/o/r"},
		{Name: "b", Source: registry.SourceWellKnown, URL: "https://skills.example.com/.well-known/agent-skills/index.json"},
		{Name: "c", Source: registry.SourceGitHub, URL: "https://github.com/o/r"},
	} {
		if err := rememberOrigin(t.Context(), dir, f, rec); err != nil {
			t.Fatal(err)
		}
	}
	a, err := readOrigins(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]originOptions{
		"https://git.example.org/o/r":                                    {AllowHosts: []string{"git.example.org"}},
		"https://skills.example.com/.well-known/agent-skills/index.json": {AllowHosts: []string{"git.example.org", "cdn.example.net"}},
	}
	if diff := cmp.Diff(want, a.Origins); diff != "" {
		t.Errorf("origins (-want +got):\n%s", diff)
	}
	opts := installer.Options{AllowedHosts: []string{"github.com", "git.example.org"}}
	a.apply(&opts)
	slices.Sort(opts.AllowedHosts)
	if !slices.Equal(opts.AllowedHosts, []string{"cdn.example.net", "git.example.org", "github.com"}) || opts.AllowFileURLs {
		t.Errorf("applied: %+v", opts)
	}
}
