package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// signedRepo makes a repository holding the skill notes in one commit
// signed with a new SSH key, and returns its URL and an allowed-signers
// line for the key.
func signedRepo(t *testing.T) (url, signers string) {
	t.Helper()
	for _, tool := range []string{"git", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed", tool)
			}
			t.Skip(tool, "is not installed")
		}
	}
	key := filepath.Join(t.TempDir(), "alice")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md("notes", "Take notes.")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "gpg.format=ssh", "-c", "user.signingkey=" + key, "commit", "-q", "-S", "-m", "v1"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return "file://" + filepath.ToSlash(dir), "alice@example.com " + strings.TrimSpace(string(pub)) + "\n"
}

// --publishers (or $SKILLKIT_PUBLISHERS) names the publishers; inspect and
// list --long show who signed what was installed; a publishers file in the
// skills folder is refused.
func TestPublishersFlag(t *testing.T) {
	url, signers := signedRepo(t)
	skills := filepath.Join(t.TempDir(), "skills")
	file := filepath.Join(t.TempDir(), "publishers")
	if err := os.WriteFile(file, []byte(signers), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLIEnv(t, map[string]string{"SKILLKIT_PUBLISHERS": file}, "install", "--dir", skills, "--allow-file-urls", url)
	if code != exitOK {
		t.Fatalf("install: exit %d, %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "inspect", "--dir", skills, "notes")
	if code != exitOK || !strings.Contains(out, "verified, alice@example.com (SHA256:") {
		t.Fatalf("inspect: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "list", "--dir", skills, "--long", "--json")
	if code != exitOK || !strings.Contains(strings.Join(strings.Fields(out), ""), `"signer":{"state":"verified","principals":["alice@example.com"]`) {
		t.Fatalf("list --long --json: exit %d\n%s", code, out)
	}
	code, out, _ = runCLIEnv(t, map[string]string{"COLUMNS": "400"}, "list", "--dir", skills, "--long")
	if code != exitOK || !strings.Contains(out, "signed by alice@example.com") {
		t.Fatalf("list --long: exit %d\n%s", code, out)
	}

	inside := filepath.Join(skills, "publishers")
	if err := os.WriteFile(inside, []byte(signers), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "--publishers", inside, "update", "--dir", skills, "--allow-file-urls", "notes")
	if code == exitOK || !strings.Contains(errOut, "inside the skills folder") {
		t.Fatalf("a publishers file in the skills folder: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "--publishers", file, "notes")
	if code != exitOK {
		t.Fatalf("update with --publishers: exit %d, %s", code, errOut)
	}
}
