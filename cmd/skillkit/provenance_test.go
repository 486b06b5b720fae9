package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
)

// signedRepo makes a repository holding the skill notes in one commit
// signed with a new SSH key, and returns its URL and an allowed-signers
// line for the key.
func signedRepo(t *testing.T) (url, signers string) {
	t.Helper()
	key, pub := fixture.SSHKey(t, "alice")
	r := fixture.NewRepo(t)
	r.Write(map[string]string{"SKILL.md": md("notes", "Take notes.")})
	r.Git("add", "-A")
	r.Git("-c", "gpg.format=ssh", "-c", "user.signingkey="+key, "commit", "-q", "-S", "-m", "v1")
	return r.URL(), "alice@example.com " + pub + "\n"
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
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("# keys\nalice@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "--publishers", bad, "notes")
	if code == exitOK || !strings.Contains(errOut, "line 2") {
		t.Fatalf("a publishers file that does not parse: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "update", "--dir", skills, "--allow-file-urls", "--publishers", file, "notes")
	if code != exitOK {
		t.Fatalf("update with --publishers: exit %d, %s", code, errOut)
	}
}
