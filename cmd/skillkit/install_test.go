package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
)

// gitRepo makes a repository holding skills/<name> and returns a function
// that commits the files given.
func gitRepo(t *testing.T) (dir string, commit func(files map[string]string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	dir = t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	return dir, func(files map[string]string) {
		for p, body := range files {
			full := filepath.Join(dir, filepath.FromSlash(p))
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "-A")
		git("commit", "-q", "-m", "change")
	}
}

func md(name, body string) string {
	return "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\n" + body + "\n"
}

func TestInstallUpdateOutdatedCycle(t *testing.T) {
	repo, commit := gitRepo(t)
	commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v1")})
	url := "file://" + filepath.ToSlash(repo)
	skills := filepath.Join(t.TempDir(), "skills")

	code, _, errOut := runCLI(t, "install", "--dir", skills, "--path", "skills/notes", url)
	if code != exitFailure || !strings.Contains(errOut, "not allowed") {
		t.Fatalf("file:// without --allow-file-urls: exit %d, %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "install", "--dir", skills, "--allow-file-urls", "--path", "skills/notes", url)
	if code != exitOK || !strings.Contains(out, "installed notes from git "+url+" (skills/notes) commit ") {
		t.Fatalf("install: exit %d\n%s\n%s", code, out, errOut)
	}

	code, out, _ = runCLI(t, "outdated", "--dir", skills, "--allow-file-urls")
	if code != exitOK || strings.Contains(out, "notes") {
		t.Fatalf("outdated with nothing new: exit %d\n%s", code, out)
	}
	commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v2")})
	code, out, _ = runCLI(t, "outdated", "--dir", skills, "--allow-file-urls")
	if code != exitOK || !strings.Contains(out, "notes") || !strings.Contains(out, "LATEST") {
		t.Fatalf("outdated: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "outdated", "--dir", skills, "--allow-file-urls", "--json")
	var st []installer.UpdateStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != exitOK || len(st) != 1 || !st[0].HasUpdate {
		t.Fatalf("outdated --json: exit %d, %v\n%s", code, err, out)
	}

	// A local edit blocks the update until --force.
	installed := filepath.Join(skills, "notes", "SKILL.md")
	os.WriteFile(installed, []byte(md("notes", "edited")), 0o644)
	code, _, errOut = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "notes")
	if code != exitFailure || !strings.Contains(errOut, "changed since install") {
		t.Fatalf("update over an edit: exit %d, %s", code, errOut)
	}
	code, out, errOut = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "--force", "notes")
	if code != exitOK || !strings.Contains(out, "updated notes from git "+url+" (skills/notes) commit ") || !strings.Contains(out, "replacing the version installed before") {
		t.Fatalf("update --force: exit %d\n%s\n%s", code, out, errOut)
	}
	if data, _ := os.ReadFile(installed); !strings.Contains(string(data), "v2") {
		t.Fatalf("SKILL.md = %s", data)
	}
	code, out, _ = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "notes")
	if code != exitOK || !strings.Contains(out, "notes is up to date") {
		t.Fatalf("update again: exit %d\n%s", code, out)
	}

	// Pinned skills are skipped by --all.
	commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v3")})
	if code, out, _ := runCLI(t, "pin", "--dir", skills, "notes"); code != exitOK || out != "pinned notes\n" {
		t.Fatalf("pin: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "--all")
	if code != exitOK || !strings.Contains(out, "notes: skipped (pinned)") {
		t.Fatalf("update --all: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "outdated", "--dir", skills, "--allow-file-urls"); code != exitOK || !strings.Contains(out, "notes (pinned)") {
		t.Fatalf("outdated of a pinned skill: %s", out)
	}
	runCLI(t, "unpin", "--dir", skills, "notes")
	code, out, _ = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "--all", "--json")
	if code != exitOK || !strings.Contains(out, `"name": "notes"`) {
		t.Fatalf("update --all --json: exit %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(installed); !strings.Contains(string(data), "v3") {
		t.Fatalf("SKILL.md = %s", data)
	}
}

func TestInstallZipAndFolder(t *testing.T) {
	skills := t.TempDir()
	src := filepath.Join(t.TempDir(), "helper")
	writeSkillFile(t, filepath.Dir(src), "helper", "")
	code, out, errOut := runCLIEnv(t, map[string]string{"SKILLKIT_DIR": skills}, "install", src)
	if code != exitOK || !strings.Contains(out, "installed helper from local") {
		t.Fatalf("install folder: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "install", "--dir", skills, src)
	if code != exitOK {
		t.Fatalf("reinstall from the same folder: %s", errOut)
	}
	code, out, _ = runCLI(t, "install", "--dir", skills, "--json", src)
	var res installer.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || res.Name != "helper" || !res.Replaced {
		t.Fatalf("install --json: exit %d, %v\n%s", code, err, out)
	}
	if code, _, errOut := runCLI(t, "install", "--dir", skills, "--ref", "main", src); code != exitUsage || !strings.Contains(errOut, "--ref") {
		t.Errorf("--ref with a folder: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "install", "--dir", skills, filepath.Join(src, "missing")); code != exitUsage || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing source: exit %d %s", code, errOut)
	}
	notZip := filepath.Join(t.TempDir(), "x.zip")
	os.WriteFile(notZip, []byte("not a zip"), 0o644)
	if code, _, errOut := runCLI(t, "install", "--dir", skills, notZip); code != exitFailure || !strings.Contains(errOut, "rejected") {
		t.Errorf("not a zip: exit %d %s", code, errOut)
	}
}

func TestDisableEnableUninstallSecrets(t *testing.T) {
	skills := t.TempDir()
	writeSkillFile(t, skills, "tool", "")
	env := map[string]string{"SKILLKIT_DIR": skills, "SKILL_SECRET_KEY": "0123456789abcdef0123456789abcdef"}
	if code, out, _ := runCLIEnv(t, env, "disable", "tool"); code != exitOK || out != "disabled tool\n" {
		t.Fatalf("disable: %d %q", code, out)
	}
	if _, out, _ := runCLI(t, "list", skills); !strings.Contains(out, "tool (disabled)") {
		t.Errorf("list after disable:\n%s", out)
	}
	code, out, _ := runCLIEnv(t, env, "enable", "--json", "tool")
	var rec registry.Record
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != exitOK || !rec.Enabled {
		t.Fatalf("enable --json: %d %v %s", code, err, out)
	}
	if code, _, errOut := runCLIEnv(t, env, "secrets", "--dir", skills, "set", "tool", "API_KEY=abc"); code != exitOK {
		t.Fatalf("secrets set: %s", errOut)
	}
	secretFile := filepath.Join(skills, ".skillhub", "secrets", "tool", "API_KEY.sealed")
	// A folder placed by hand has no install record: uninstall refuses to
	// delete it for good unless --force, which says what it deletes.
	if code, _, errOut := runCLIEnv(t, env, "uninstall", "tool"); code != exitFailure || !strings.Contains(errOut, "no record of installing") || !strings.Contains(errOut, "uninstall --force tool") {
		t.Fatalf("uninstall of a hand-placed folder: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(skills, "tool", "SKILL.md")); err != nil {
		t.Fatalf("the refused uninstall deleted the folder: %v", err)
	}
	if code, out, errOut := runCLIEnv(t, env, "uninstall", "--force", "--keep-secrets", "tool"); code != exitOK || out != "uninstalled tool, keeping its secrets\n" || !strings.Contains(errOut, "deleting "+filepath.Join(skills, "tool")+" for good") {
		t.Fatalf("uninstall --keep-secrets: %d %q %s", code, out, errOut)
	}
	if _, err := os.Stat(secretFile); err != nil {
		t.Errorf("the secret went with --keep-secrets: %v", err)
	}
	writeSkillFile(t, skills, "tool", "")
	if code, out, errOut := runCLIEnv(t, env, "uninstall", "--force", "tool"); code != exitOK || !strings.Contains(out, "deleted its secrets") {
		t.Fatalf("uninstall: %d %q %s", code, out, errOut)
	}
	if _, err := os.Stat(secretFile); !os.IsNotExist(err) {
		t.Errorf("the secret stayed after a plain uninstall: %v", err)
	}
	if code, _, errOut := runCLIEnv(t, env, "uninstall", "tool"); code != exitFailure || !strings.Contains(errOut, "not installed") {
		t.Errorf("uninstall again: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "pin", "--dir", filepath.Join(skills, "nope"), "tool"); code != exitFailure || !strings.Contains(errOut, "does not exist") {
		t.Errorf("pin in a missing folder: %d %s", code, errOut)
	}
	if code, _, _ := runCLI(t, "update", "--dir", skills); code != exitUsage {
		t.Errorf("update without NAME or --all: %d", code)
	}
}

func TestProgressLine(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&strings.Builder{}) {
		t.Fatal("a file counts as a terminal")
	}
	var b strings.Builder
	p := &progress{w: &b}
	p.event(installer.Event{Skill: "pdf", Step: "fetch", Percent: 5, Message: "cloning"})
	p.event(installer.Event{Skill: "pdf", Step: "swap", Percent: 85, Message: "x"})
	p.event(installer.Event{Done: true})
	want := "\r[  5%] pdf: fetch cloning" + "\r[ 85%] pdf: swap x" + strings.Repeat(" ", 7) + "\r" + strings.Repeat(" ", 18) + "\r"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	newProgress(&cli{stderr: f}).event(installer.Event{Step: "fetch"}) // draws nothing on a file
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Error("progress written to a file")
	}
}

func TestParseSource(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("acme", "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	gh := func(repo, ref, sub string) installer.Source {
		return installer.Source{Git: "https://github.com/" + repo, Ref: ref, Subdir: sub}
	}
	for _, tc := range []struct {
		arg, ref, path string
		want           installer.Source
		err            string
	}{
		{arg: "anthropics/skills", want: gh("anthropics/skills", "", "")},
		{arg: "anthropics/skills/document-skills/pdf", want: gh("anthropics/skills", "", "document-skills/pdf")},
		{arg: "anthropics/skills/pdf@v1.2", want: gh("anthropics/skills", "v1.2", "pdf")},
		{arg: "anthropics/skills@main", want: gh("anthropics/skills", "main", "")},
		{arg: "anthropics/skills", ref: "dev", path: "pdf", want: gh("anthropics/skills", "dev", "pdf")},
		{arg: "anthropics/skills/pdf", path: "csv", err: "--path csv differs"},
		{arg: "https://github.com/o/r/tree/main/x", want: installer.Source{Git: "https://github.com/o/r/tree/main/x"}},
		{arg: "github.com/o/r", want: installer.Source{Git: "https://github.com/o/r"}},
		{arg: "acme/skills", want: installer.Source{Dir: "acme/skills"}}, // an existing folder wins
		{arg: "./missing/folder", err: "no such file or folder"},
		{arg: "just-a-word", err: "no such file or folder"},
		{arg: "acme/skills", ref: "main", err: "--ref goes with"},
		{arg: "acme/skills", path: "pdf", want: installer.Source{Dir: "acme/skills", Subdir: "pdf"}},
	} {
		got, err := parseSource(tc.arg, tc.ref, tc.path)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %+v, %v, want an error with %q", tc.arg, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q --ref %q --path %q: %+v, %v, want %+v", tc.arg, tc.ref, tc.path, got, err, tc.want)
		}
	}
}
