package installer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/provenance"
	"github.com/skillkit-go/skillkit/scan"
)

var publisherKey = fixture.SSHKey

// signedCommit commits everything in r, signed by the key file ("" for an
// unsigned commit).
func signedCommit(r *fixture.Repo, key, msg string) string {
	r.Git("add", "-A")
	if key == "" {
		r.Git("commit", "-q", "--allow-empty", "-m", msg)
	} else {
		r.Git("-c", "gpg.format=ssh", "-c", "user.signingkey="+key, "commit", "-q", "--allow-empty", "-S", "-m", msg)
	}
	return r.Git("rev-parse", "HEAD")
}

// tamper rewrites HEAD's commit message, keeping its signature, and moves
// main to the forged commit.
func tamper(t *testing.T, r *fixture.Repo) string {
	t.Helper()
	raw := r.Git("cat-file", "commit", "HEAD") + "\n"
	forged := strings.Replace(raw, "\n\n", "\n\nforged: ", 1)
	p := filepath.Join(t.TempDir(), "commit")
	if err := os.WriteFile(p, []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	id := r.Git("hash-object", "-t", "commit", "-w", p)
	r.Git("update-ref", "refs/heads/main", id)
	return id
}

// publishers lists alice as a publisher.
func publishers(t *testing.T, lines ...string) *provenance.Signers {
	t.Helper()
	s, err := provenance.ParseAllowedSigners([]byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPublisherSignatureIsATrustInput: a skill the scan rates caution needs
// a person's yes from a community origin; signed by a listed publisher it
// is trusted and installs, and the record names the signer; signed by
// another key or unsigned it stays community; a tampered signature is
// refused, confirmed or not.
func TestPublisherSignatureIsATrustInput(t *testing.T) {
	alice, alicePub := publisherKey(t, "alice")
	mallory, _ := publisherKey(t, "mallory")
	opts := &Options{Publishers: publishers(t, "alice@example.com "+alicePub)}
	files := map[string]string{"SKILL.md": skillMD("piped", pipedInstaller)}

	byAlice := newRepo(t)
	byAlice.Write(files)
	c := signedCommit(byAlice, alice, "v1")
	in, _ := newTestInstaller(t, opts)
	res, err := in.Install(t.Context(), Source{Git: byAlice.URL()}, nil)
	if err != nil {
		t.Fatalf("a caution skill signed by a listed publisher: %v", err)
	}
	s := res.Record.Signer
	if !s.Verified() || s.Object != "commit "+c || strings.Join(s.Principals, ",") != "alice@example.com" || !strings.HasPrefix(s.Key, "SHA256:") {
		t.Errorf("signer %+v", s)
	}

	for name, key := range map[string]string{"unknown-signer": mallory, "unsigned": ""} {
		r := newRepo(t)
		r.Write(files)
		signedCommit(r, key, "v1")
		in, _ := newTestInstaller(t, opts)
		var se *ScanError
		_, err := in.Install(t.Context(), Source{Git: r.URL()}, nil)
		if !errors.Is(err, ErrNeedsConfirmation) || !errors.As(err, &se) || se.Trust != scan.TrustCommunity {
			t.Fatalf("%s: %v, want a community skill needing confirmation", name, err)
		}
		res, err := in.Install(t.Context(), Source{Git: r.URL()}, &InstallOptions{Confirmed: true})
		if err != nil || res.Record.Signer == nil || res.Record.Signer.State != name {
			t.Fatalf("%s, confirmed: %+v, %v", name, res, err)
		}
	}

	forged := newRepo(t)
	forged.Write(files)
	signedCommit(forged, alice, "v1")
	id := tamper(t, forged)
	for _, p := range []*Options{opts, nil} {
		in, dir := newTestInstaller(t, p)
		_, err := in.Install(t.Context(), Source{Git: forged.URL()}, &InstallOptions{Confirmed: true, Force: true})
		if !errors.Is(err, ErrBadSignature) || !strings.Contains(err.Error(), "commit "+id) {
			t.Fatalf("a tampered signature: %v, want ErrBadSignature naming commit %s", err, id)
		}
		if _, err := os.Stat(filepath.Join(dir, "piped")); !os.IsNotExist(err) {
			t.Fatal("a skill with a broken signature was installed")
		}
	}
}

// TestSignedAnnotatedTag: a ref that is an annotated tag signed by a listed
// publisher makes the skill trusted even when the commit is unsigned, and
// the record names the tag; a tag whose signature is broken is refused.
func TestSignedAnnotatedTag(t *testing.T) {
	alice, alicePub := publisherKey(t, "alice")
	opts := &Options{Publishers: publishers(t, "alice@example.com "+alicePub)}
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("piped", pipedInstaller)})
	signedCommit(r, "", "v1")
	r.Git("-c", "gpg.format=ssh", "-c", "user.signingkey="+alice, "tag", "-s", "-m", "release", "v1")
	r.Git("tag", "-a", "-m", "plain", "v1-plain")

	in, _ := newTestInstaller(t, opts)
	res, err := in.Install(t.Context(), Source{Git: r.URL(), Ref: "v1"}, nil)
	if err != nil || !res.Record.Signer.Verified() || res.Record.Signer.Object != "tag v1" {
		t.Fatalf("a signed tag: %+v, %v", res, err)
	}
	in, _ = newTestInstaller(t, opts)
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Ref: "v1-plain"}, nil); !errors.Is(err, ErrNeedsConfirmation) {
		t.Fatalf("an unsigned tag of an unsigned commit: %v, want ErrNeedsConfirmation", err)
	}

	// A forged tag: the signed tag's message changed, its signature kept.
	raw := r.Git("cat-file", "tag", "v1") + "\n"
	p := filepath.Join(t.TempDir(), "tag")
	if err := os.WriteFile(p, []byte(strings.Replace(raw, "\n\nrelease", "\n\nforged", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Git("update-ref", "refs/tags/v1", r.Git("hash-object", "-t", "tag", "-w", p))
	in, _ = newTestInstaller(t, opts)
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Ref: "v1"}, &InstallOptions{Confirmed: true}); !errors.Is(err, ErrBadSignature) || !strings.Contains(err.Error(), "tag v1") {
		t.Fatalf("a forged tag: %v, want ErrBadSignature naming the tag", err)
	}
}

// TestRequireSigned: an origin the host requires signatures of installs
// only when a listed publisher signed it; other origins are not affected.
func TestRequireSigned(t *testing.T) {
	alice, alicePub := publisherKey(t, "alice")
	mallory, _ := publisherKey(t, "mallory")
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("notes", "Take notes.")})
	signedCommit(r, mallory, "v1")
	opts := &Options{Publishers: publishers(t, "alice@example.com "+alicePub), RequireSigned: []string{r.URL()}}
	in, dir := newTestInstaller(t, opts)
	_, err := in.Install(t.Context(), Source{Git: r.URL()}, &InstallOptions{Confirmed: true, Force: true})
	if !errors.Is(err, ErrUnsigned) || !strings.Contains(err.Error(), "unknown-signer") {
		t.Fatalf("signed by an unlisted key: %v, want ErrUnsigned", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes")); !os.IsNotExist(err) {
		t.Fatal("refused, yet installed")
	}
	local := skillFolder(t, "notes", "Take notes.", nil)
	if _, err := newOnly(t, &Options{RequireSigned: []string{local}}).Install(t.Context(), Source{Dir: local}, nil); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("a required folder: %v, want ErrUnsigned", err)
	}
	if _, err := newOnly(t, &Options{RequireSigned: []string{"github.com/acme"}}).Install(t.Context(), Source{Git: r.URL()}, nil); err != nil {
		t.Fatalf("another origin: %v", err)
	}

	signedCommit(r, alice, "v2")
	res, err := in.Install(t.Context(), Source{Git: r.URL()}, nil)
	if err != nil || !res.Record.Signer.Verified() {
		t.Fatalf("signed by a publisher: %+v, %v", res, err)
	}
	signedCommit(r, "", "v3")
	if _, err := in.Update(t.Context(), "notes", &UpdateOptions{Confirmed: true}); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("an unsigned update: %v, want ErrUnsigned", err)
	}
}

// newOnly is an Installer on a new skills folder.
func newOnly(t *testing.T, opts *Options) *Installer {
	in, _ := newTestInstaller(t, opts)
	return in
}

// TestUpdateByAnotherPublisherAsksAgain: an update signed by another key
// than the installed version, or unsigned, needs a person's yes, and the
// error says how the signer changed; the same publisher's update goes
// through.
func TestUpdateByAnotherPublisherAsksAgain(t *testing.T) {
	alice, alicePub := publisherKey(t, "alice")
	bob, bobPub := publisherKey(t, "bob")
	opts := &Options{Publishers: publishers(t, "alice@example.com "+alicePub, "bob@example.com "+bobPub)}
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("notes", "v1")})
	signedCommit(r, alice, "v1")
	in, dir := newTestInstaller(t, opts)
	if _, err := in.Install(t.Context(), Source{Git: r.URL()}, nil); err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{"SKILL.md": skillMD("notes", "v2")})
	c2 := signedCommit(r, alice, "v2")
	res, err := in.Update(t.Context(), "notes", nil)
	if err != nil || res.Record.Commit != c2 {
		t.Fatalf("the same publisher's update: %+v, %v", res, err)
	}

	for _, key := range []string{bob, ""} {
		r.Write(map[string]string{"SKILL.md": skillMD("notes", "v3 "+key)})
		signedCommit(r, key, "v3")
		var se *ScanError
		_, err := in.Update(t.Context(), "notes", nil)
		if !errors.Is(err, ErrNeedsConfirmation) || !errors.As(err, &se) || !strings.Contains(se.Republished, "alice@example.com") {
			t.Fatalf("an update signed by %q: %v, want a question naming the change", key, err)
		}
		if strings.Contains(readFile(t, filepath.Join(dir, "notes", "SKILL.md")), "v3") {
			t.Fatal("updated without a yes")
		}
	}
	res, err = in.Update(t.Context(), "notes", &UpdateOptions{Confirmed: true})
	if err != nil || res.Record.Signer == nil || res.Record.Signer.State != "unsigned" {
		t.Fatalf("the confirmed update: %+v, %v", res, err)
	}
}

// TestApprovedEditLosesItsSigner: the publisher signed the files fetched;
// approving an edit of them is a community skill's approval, and the
// record no longer names the signer.
func TestApprovedEditLosesItsSigner(t *testing.T) {
	alice, alicePub := publisherKey(t, "alice")
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("piped", pipedInstaller)})
	signedCommit(r, alice, "v1")
	in, dir := newTestInstaller(t, &Options{Publishers: publishers(t, "alice@example.com "+alicePub)})
	if _, err := in.Install(t.Context(), Source{Git: r.URL()}, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "piped", "notes.md"), []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var se *ScanError
	if _, err := in.Approve(t.Context(), "piped", nil); !errors.As(err, &se) || se.Trust != scan.TrustCommunity {
		t.Fatalf("approving an edit: %v, want a community skill's question", err)
	}
	if _, err := in.Approve(t.Context(), "piped", &ApproveOptions{Confirmed: true}); err != nil {
		t.Fatal(err)
	}
	rec, err := in.dir.Record(t.Context(), "piped")
	if err != nil || rec == nil || rec.Signer != nil {
		t.Fatalf("record after the approval: %+v, %v", rec, err)
	}
}
