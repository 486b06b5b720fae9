package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/sigstoretest"
	"github.com/skillkit-go/skillkit/provenance"
)

// sign git --key --repo configures the repository so that git commit -S
// signs with the key, and the allowed-signers line it prints verifies
// that commit.
func TestSignGit(t *testing.T) {
	key, _ := fixture.SSHKey(t, "alice")
	r := fixture.NewRepo(t)
	code, out, errOut := runCLI(t, "sign", "--key", key, "--principal", "alice@example.com", "--repo", r.Dir, "git")
	if code != exitOK || !strings.Contains(out, "git config user.signingkey "+key) {
		t.Fatalf("sign git: exit %d\n%s%s", code, out, errOut)
	}
	r.Write(map[string]string{"SKILL.md": md("notes", "Take notes.")})
	r.Git("add", "-A")
	r.Git("commit", "-q", "-S", "-m", "v1")
	var line string
	for l := range strings.Lines(out) {
		if strings.HasPrefix(strings.TrimSpace(l), "alice@example.com ") {
			line = strings.TrimSpace(l)
		}
	}
	s, err := provenance.ParseAllowedSigners([]byte(line))
	if err != nil {
		t.Fatalf("the printed line %q: %v", line, err)
	}
	if sig := s.VerifyCommit([]byte(r.Git("cat-file", "commit", "HEAD") + "\n")); sig.State != provenance.Verified {
		t.Fatalf("the commit signed after sign git: %+v", sig)
	}
	if code, _, _ := runCLI(t, "sign", "--repo", r.Dir, "git"); code != exitUsage {
		t.Errorf("--repo without --key: exit %d", code)
	}
	if code, _, _ := runCLI(t, "sign", "--key", filepath.Join(t.TempDir(), "none"), "git"); code != exitFailure {
		t.Errorf("a key that is not there: exit %d", code)
	}
}

// sign zip prints cosign's command, and with --publishers checks the
// bundle beside the archive: a listed identity's passes, another
// identity's and one for other bytes fail.
func TestSignZip(t *testing.T) {
	vs := sigstoretest.New(t)
	files := map[string]string{"SKILL.md": md("notes", "Take notes.")}
	zip := fixture.WriteZip(t, files)
	code, out, _ := runCLI(t, "sign", "zip", zip)
	if code != exitOK || !strings.Contains(out, "cosign sign-blob --yes --bundle "+zip+provenance.BundleSuffix+" "+zip) {
		t.Fatalf("sign zip: exit %d\n%s", code, out)
	}
	publishers := writePublishers(t, vs.TrustedRoot(t), "release@example.com")
	for _, c := range []struct {
		identity string
		signed   []byte
		code     int
		want     string
	}{
		{"release@example.com", fixture.ZipOf(t, files), exitOK, "verified, release@example.com"},
		{"someone@example.com", fixture.ZipOf(t, files), exitFailure, "does not list"},
		{"release@example.com", []byte("other bytes"), exitFailure, "broken"},
	} {
		write(t, zip+provenance.BundleSuffix, string(vs.Bundle(t, c.identity, "https://issuer.example.com", c.signed)))
		code, out, errOut := runCLI(t, "sign", "--publishers", publishers, "zip", zip)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s: exit %d\n%s%s", c.identity, code, out, errOut)
		}
	}
	if code, _, _ := runCLI(t, "sign", "zip"); code != exitUsage {
		t.Errorf("sign zip without an archive: exit %d", code)
	}
}
