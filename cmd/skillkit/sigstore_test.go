package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/sigstoretest"
	"github.com/skillkit-go/skillkit/provenance"
)

// writePublishers writes a JSON publishers file listing the Sigstore
// identities sans (issuer https://issuer.example.com) with root as its
// trusted root, both in a new folder; it returns the file's path.
func writePublishers(t *testing.T, root []byte, sans ...string) string {
	t.Helper()
	dir := t.TempDir()
	var ids []string
	for _, san := range sans {
		ids = append(ids, `{"san": "`+san+`", "issuer": "https://issuer.example.com"}`)
	}
	write(t, filepath.Join(dir, "trusted_root.json"), string(root))
	p := filepath.Join(dir, "publishers.json")
	write(t, p, `{"sigstore": {"trusted_root": "trusted_root.json", "identities": [`+strings.Join(ids, ", ")+`]}}`)
	return p
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A ZIP archive with its Sigstore bundle beside it installs with a JSON
// publishers file listing the identity; inspect names the identity, issuer
// and digest; doctor says nothing while the identity is listed and the
// bundle verifies, and PUBLISHER_UNTRUSTED once the identity is removed
// from the host's list or the trusted root no longer holds the CA.
func TestSigstorePublishers(t *testing.T) {
	vs := sigstoretest.New(t)
	files := map[string]string{"SKILL.md": md("notes", "Take notes.")}
	zip := fixture.WriteZip(t, files)
	write(t, zip+provenance.BundleSuffix, string(vs.Bundle(t, "release@example.com", "https://issuer.example.com", fixture.ZipOf(t, files))))
	listed := writePublishers(t, vs.TrustedRoot(t), "release@example.com")
	skills := filepath.Join(t.TempDir(), "skills")

	code, _, errOut := runCLI(t, "install", "--dir", skills, "--publishers", listed, zip)
	if code != exitOK {
		t.Fatalf("install: exit %d, %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "inspect", "--dir", skills, "notes")
	if code != exitOK || !strings.Contains(out, "verified, release@example.com (Sigstore, issuer https://issuer.example.com): archive skill.zip (sha256:") {
		t.Fatalf("inspect: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "doctor", "--dir", skills, "--publishers", listed); code != exitOK || strings.Contains(out, "PUBLISHER_UNTRUSTED") {
		t.Fatalf("doctor, identity listed: exit %d\n%s%s", code, out, errOut)
	}
	for name, publishers := range map[string]string{
		"identity removed": writePublishers(t, vs.TrustedRoot(t), "someone@example.com"),
		"another root":     writePublishers(t, sigstoretest.New(t).TrustedRoot(t), "release@example.com"),
	} {
		code, out, errOut := runCLI(t, "doctor", "--dir", skills, "--publishers", publishers)
		if code != exitOK || !strings.Contains(out, "PUBLISHER_UNTRUSTED") || !strings.Contains(out, "release@example.com") {
			t.Fatalf("doctor, %s: exit %d\n%s%s", name, code, out, errOut)
		}
	}

	// With the bundle gone only the list can be checked: the identity
	// listed, nothing; removed, PUBLISHER_UNTRUSTED.
	if err := os.Remove(zip + provenance.BundleSuffix); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, "doctor", "--dir", skills, "--publishers", listed); code != exitOK || strings.Contains(out, "PUBLISHER_UNTRUSTED") {
		t.Fatalf("doctor, no bundle, identity listed: exit %d\n%s%s", code, out, errOut)
	}
	removed := writePublishers(t, vs.TrustedRoot(t), "someone@example.com")
	if code, out, errOut := runCLI(t, "doctor", "--dir", skills, "--publishers", removed); code != exitOK || !strings.Contains(out, "is no longer among the host's publishers") {
		t.Fatalf("doctor, no bundle, identity removed: exit %d\n%s%s", code, out, errOut)
	}

	// The trusted root a publishers file names must lie outside the
	// skills folder too.
	inside := filepath.Join(skills, "trusted_root.json")
	write(t, inside, string(vs.TrustedRoot(t)))
	p := filepath.Join(t.TempDir(), "publishers.json")
	write(t, p, `{"sigstore": {"trusted_root": "`+inside+`", "identities": []}}`)
	code, _, errOut = runCLI(t, "update", "--dir", skills, "--publishers", p, "notes")
	if code == exitOK || !strings.Contains(errOut, "inside the skills folder") {
		t.Fatalf("a trusted root in the skills folder: exit %d, %s", code, errOut)
	}
}

// doctor reports a git skill whose signing key was removed from the
// host's allowed signers, and not while it is listed.
func TestDoctorPublisherRemoved(t *testing.T) {
	url, signers := signedRepo(t)
	skills := filepath.Join(t.TempDir(), "skills")
	listed := filepath.Join(t.TempDir(), "allowed_signers")
	write(t, listed, signers)
	if code, _, errOut := runCLI(t, "install", "--dir", skills, "--allow-file-urls", "--publishers", listed, url); code != exitOK {
		t.Fatalf("install: exit %d, %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "doctor", "--dir", skills, "--publishers", listed); code != exitOK || strings.Contains(out, "PUBLISHER_UNTRUSTED") {
		t.Fatalf("doctor, key listed: exit %d\n%s%s", code, out, errOut)
	}
	_, bobPub := fixture.SSHKey(t, "bob")
	removed := filepath.Join(t.TempDir(), "allowed_signers")
	write(t, removed, "bob@example.com "+bobPub+"\n")
	code, out, errOut := runCLI(t, "doctor", "--dir", skills, "--publishers", removed)
	if code != exitOK || !strings.Contains(out, "PUBLISHER_UNTRUSTED") || !strings.Contains(out, "notes was signed by the key SHA256:") {
		t.Fatalf("doctor, key removed: exit %d\n%s%s", code, out, errOut)
	}
}
