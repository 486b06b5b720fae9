package provenance

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
)

// repo makes a git repository with one commit signed by key (none when
// key is ""), and a tag signed by it.
type repo struct {
	t   *testing.T
	dir string
}

func (r repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func newRepo(t *testing.T) repo {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("needs ssh-keygen to sign:", err)
	}
	r := repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r repo) commit(file, key string) string {
	if err := os.WriteFile(filepath.Join(r.dir, file), []byte(file), 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.git("add", file)
	args := []string{"-c", "gpg.format=ssh", "commit", "-q", "-m", "add " + file}
	if key != "" {
		args = append([]string{"-c", "user.signingkey=" + key}, append(args, "-S")...)
	}
	r.git(args...)
	return strings.TrimSpace(r.git("rev-parse", "HEAD"))
}

func (r repo) object(kind, id string) []byte {
	return []byte(r.git("cat-file", kind, id))
}

func TestVerifyCommit(t *testing.T) {
	r := newRepo(t)
	keys := t.TempDir()
	alice, alicePub := fixture.SSHKey(t, "alice")
	_, bobPub := fixture.SSHKey(t, "bob")
	mallory, _ := fixture.SSHKey(t, "mallory")
	signers, err := ParseAllowedSigners([]byte("# publishers\nalice@example.com,release@example.com namespaces=\"git\" " + alicePub + "\n\nbob@example.com " + bobPub + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	byAlice := r.commit("a", alice)
	byMallory := r.commit("b", mallory)
	unsigned := r.commit("c", "")

	got := signers.VerifyCommit(r.object("commit", byAlice))
	if got.State != Verified || strings.Join(got.Principals, ",") != "alice@example.com,release@example.com" || !strings.HasPrefix(got.Key, "SHA256:") {
		t.Errorf("alice's commit: %+v", got)
	}
	if got := signers.VerifyCommit(r.object("commit", byMallory)); got.State != UnknownSigner || got.Key == "" {
		t.Errorf("mallory's commit: %+v", got)
	}
	if got := signers.VerifyCommit(r.object("commit", unsigned)); got.State != Unsigned {
		t.Errorf("an unsigned commit: %+v", got)
	}
	// What git itself says about the same commits, with the same list.
	allowed := filepath.Join(keys, "allowed")
	os.WriteFile(allowed, []byte("alice@example.com "+alicePub+"\n"), 0o644)
	for id, want := range map[string]bool{byAlice: true, byMallory: false, unsigned: false} {
		cmd := exec.Command("git", "-c", "gpg.ssh.allowedSignersFile="+allowed, "verify-commit", id)
		cmd.Dir = r.dir
		if ok := cmd.Run() == nil; ok != want {
			t.Errorf("git verify-commit %s: %v, want %v", id, ok, want)
		}
	}
	// A changed object no longer matches its signature; nor does a
	// changed signature.
	raw := r.object("commit", byAlice)
	for what, changed := range map[string][]byte{
		"message":   bytes.Replace(raw, []byte("add a"), []byte("add A"), 1),
		"author":    bytes.Replace(raw, []byte("author A <a@"), []byte("author M <a@"), 1),
		"signature": tamperSignature(t, raw),
	} {
		if got := signers.VerifyCommit(changed); got.State != Broken {
			t.Errorf("a changed %s: %+v, want broken", what, got)
		}
	}
	// Only the git namespace counts, and a key past its validity does not.
	other, _ := ParseAllowedSigners([]byte("alice@example.com namespaces=\"file\" " + alicePub + "\n"))
	if got := other.VerifyCommit(raw); got.State != UnknownSigner {
		t.Errorf("a key for another namespace: %+v", got)
	}
	expired, _ := ParseAllowedSigners([]byte("alice@example.com valid-before=\"20200101\" " + alicePub + "\n"))
	if got := expired.VerifyCommit(raw); got.State != UnknownSigner {
		t.Errorf("a key valid before 2020: %+v", got)
	}
	var none *Signers
	if got := none.VerifyCommit(raw); got.State != UnknownSigner {
		t.Errorf("no list at all: %+v", got)
	}
}

// tamperSignature flips a bit inside the signature's base64 body.
func tamperSignature(t *testing.T, raw []byte) []byte {
	t.Helper()
	i := bytes.Index(raw, []byte("-----BEGIN SSH SIGNATURE-----\n"))
	if i < 0 {
		t.Fatal("no signature")
	}
	out := bytes.Clone(raw)
	j := i + len("-----BEGIN SSH SIGNATURE-----\n") + 1 + 200 // well inside, past the key
	if out[j] == 'A' {
		out[j] = 'B'
	} else {
		out[j] = 'A'
	}
	return out
}

func TestVerifyTag(t *testing.T) {
	r := newRepo(t)
	alice, alicePub := fixture.SSHKey(t, "alice")
	r.commit("a", "")
	r.git("-c", "gpg.format=ssh", "-c", "user.signingkey="+alice, "tag", "-s", "-m", "v1", "v1")
	r.git("tag", "-a", "-m", "v2", "v2")
	signers, _ := ParseAllowedSigners([]byte("alice@example.com " + alicePub))
	if got := signers.VerifyTag(r.object("tag", "v1")); got.State != Verified {
		t.Errorf("a tag alice signed: %+v", got)
	}
	if got := signers.VerifyTag(r.object("tag", "v2")); got.State != Unsigned {
		t.Errorf("an unsigned tag: %+v", got)
	}
	if got := signers.VerifyTag(bytes.Replace(r.object("tag", "v1"), []byte("\nv1\n"), []byte("\nv9\n"), 1)); got.State != Broken {
		t.Errorf("a changed tag: %+v", got)
	}
}

func TestOtherFormats(t *testing.T) {
	commit := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nmessage\n"
	if got := (&Signers{}).VerifyCommit([]byte(commit)); got.State != Unsupported || got.Format != "openpgp" {
		t.Errorf("an OpenPGP signature: %+v", got)
	}
	garbage := strings.Replace(commit, "PGP SIGNATURE", "SSH SIGNATURE", 2)
	if got := (&Signers{}).VerifyCommit([]byte(garbage)); got.State != Broken {
		t.Errorf("an SSH signature that does not parse: %+v", got)
	}
}

func TestParseAllowedSigners(t *testing.T) {
	const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
	if s, err := ParseAllowedSigners([]byte("a@x,b@x valid-after=\"20240101\" " + key + " comment here\n")); err != nil || len(s.entries) != 1 || len(s.entries[0].principals) != 2 {
		t.Errorf("a line with options and a comment: %v", err)
	}
	for _, bad := range []string{"a@x", "a@x not-a-key", "a@x cert-authority " + key, "a@x valid-after=\"yesterday\" " + key, "a@x foo=1 " + key} {
		if _, err := ParseAllowedSigners([]byte(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%q: %v, want an error naming line 1", bad, err)
		}
	}
}

func FuzzVerifyCommit(f *testing.F) {
	f.Add([]byte("tree x\ngpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lHAAAAAQ==\n -----END SSH SIGNATURE-----\n\nm\n"))
	f.Add([]byte("object x\ntype commit\ntag v1\n\nv1\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"))
	s, _ := ParseAllowedSigners(nil)
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, got := range []Signature{s.VerifyCommit(raw), s.VerifyTag(raw)} {
			if got.State == Verified {
				t.Fatalf("an empty list verified %q", raw)
			}
		}
	})
}

// A signature made for another purpose (ssh-keygen's namespace) over the
// same bytes does not sign a commit.
func TestOtherNamespace(t *testing.T) {
	r := newRepo(t)
	keys := t.TempDir()
	alice, alicePub := fixture.SSHKey(t, "alice")
	payload := r.object("commit", r.commit("a", ""))
	file := filepath.Join(keys, "payload")
	os.WriteFile(file, payload, 0o644)
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-n", "file", "-f", alice, file).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v %s", err, out)
	}
	sig, err := os.ReadFile(file + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	header := "gpgsig " + strings.ReplaceAll(strings.TrimSpace(string(sig)), "\n", "\n ") + "\n"
	i := bytes.Index(payload, []byte("\n\n")) + 1
	signed := append(append(bytes.Clone(payload[:i]), header...), payload[i:]...)
	signers, _ := ParseAllowedSigners([]byte("alice@example.com " + alicePub))
	if got := signers.VerifyCommit(signed); got.State != Broken || !strings.Contains(got.Reason, "not for git") {
		t.Errorf("a signature in the file namespace: %+v", got)
	}
}
