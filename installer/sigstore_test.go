package installer

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/sigstoretest"
	"github.com/skillkit-go/skillkit/provenance"
	"github.com/skillkit-go/skillkit/scan"
)

const (
	releaser = "release@example.com"
	oidc     = "https://issuer.example.com"
)

// sigstorePublishers trusts the identity releaser of oidc against vs's root.
func sigstorePublishers(t *testing.T, vs *sigstoretest.Sigstore) *provenance.Signers {
	t.Helper()
	s, err := (*provenance.Signers)(nil).WithSigstore(vs.TrustedRoot(t), []provenance.Identity{{SAN: releaser, Issuer: oidc}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// signZip writes a ZIP of files and, signed by identity, its bundle beside
// it; it returns the archive's path.
func signZip(t *testing.T, vs *sigstoretest.Sigstore, identity string, files map[string]string) string {
	t.Helper()
	p := fixture.WriteZip(t, files)
	writeBundle(t, p, vs.Bundle(t, identity, oidc, fixture.ZipOf(t, files)))
	return p
}

func writeBundle(t *testing.T, zip string, bundle []byte) {
	t.Helper()
	if err := os.WriteFile(zip+provenance.BundleSuffix, bundle, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestZipSigstoreBundleIsATrustInput: a ZIP archive whose bundle, beside
// it, was made by a listed identity installs as trusted (a caution skill
// without a question) and the record names the identity, issuer and
// digest; an identity not listed, and no bundle, leave it community; a
// bundle for other bytes is refused, publishers or not; an in-memory
// archive takes its bundle from Source.Bundle.
func TestZipSigstoreBundleIsATrustInput(t *testing.T) {
	vs := sigstoretest.New(t)
	opts := &Options{Publishers: sigstorePublishers(t, vs)}
	files := map[string]string{"SKILL.md": skillMD("piped", pipedInstaller)}

	in, _ := newTestInstaller(t, opts)
	zip := signZip(t, vs, releaser, files)
	res, err := in.Install(t.Context(), Source{ZipFile: zip}, nil)
	if err != nil {
		t.Fatalf("a caution skill in an archive signed by a listed identity: %v", err)
	}
	s := res.Record.Signer
	if !s.Verified() || s.Format != "sigstore" || s.Key != releaser || s.Issuer != oidc || s.Object != "archive skill.zip" ||
		!strings.HasPrefix(s.Digest, "sha256:") || strings.Join(s.Principals, ",") != releaser {
		t.Errorf("signer %+v", s)
	}

	for name, zip := range map[string]string{
		"unknown-signer": signZip(t, vs, "someone@example.com", files),
		"no bundle":      fixture.WriteZip(t, files),
	} {
		in, _ := newTestInstaller(t, opts)
		var se *ScanError
		if _, err := in.Install(t.Context(), Source{ZipFile: zip}, nil); !errors.Is(err, ErrNeedsConfirmation) || !errors.As(err, &se) || se.Trust != scan.TrustCommunity {
			t.Fatalf("%s: %v, want a community skill needing confirmation", name, err)
		}
	}

	other := fixture.WriteZip(t, files)
	writeBundle(t, other, vs.Bundle(t, releaser, oidc, []byte("other bytes")))
	for _, p := range []*Options{opts, nil} {
		in, dir := newTestInstaller(t, p)
		_, err := in.Install(t.Context(), Source{ZipFile: other}, &InstallOptions{Confirmed: true})
		if !errors.Is(err, ErrBadSignature) || !strings.Contains(err.Error(), other) {
			t.Fatalf("a bundle for other bytes: %v, want ErrBadSignature naming the archive", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "piped")); !os.IsNotExist(err) {
			t.Fatal("a skill with a broken bundle was installed")
		}
	}

	upload := fixture.ZipOf(t, files)
	in, _ = newTestInstaller(t, opts)
	mem := Source{Zip: bytes.NewReader(upload), ZipSize: int64(len(upload)), Bundle: string(vs.Bundle(t, releaser, oidc, upload))}
	if res, err := in.Install(t.Context(), mem, nil); err != nil || !res.Record.Signer.Verified() || res.Record.Signer.Object != "archive" {
		t.Fatalf("an in-memory archive with its bundle: %+v, %v", res, err)
	}
	if _, err := planFetch(Source{Dir: t.TempDir(), Bundle: "{}"}, nil, false); !errors.Is(err, ErrInvalidSource) {
		t.Errorf("a bundle with a folder: %v, want ErrInvalidSource", err)
	}
}

// TestZipRequireSigned: a required archive installs only with a bundle
// from a listed identity.
func TestZipRequireSigned(t *testing.T) {
	vs := sigstoretest.New(t)
	files := map[string]string{"SKILL.md": skillMD("notes", "Take notes.")}
	unsigned := fixture.WriteZip(t, files)
	stranger := signZip(t, vs, "someone@example.com", files)
	signed := signZip(t, vs, releaser, files)
	for name, c := range map[string]struct {
		zip  string
		want string
	}{
		"unsigned": {unsigned, "no Sigstore bundle"},
		"stranger": {stranger, "unknown-signer"},
	} {
		in, dir := newTestInstaller(t, &Options{Publishers: sigstorePublishers(t, vs), RequireSigned: []string{filepath.Dir(c.zip)}})
		_, err := in.Install(t.Context(), Source{ZipFile: c.zip}, &InstallOptions{Confirmed: true})
		if !errors.Is(err, ErrUnsigned) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: %v, want ErrUnsigned saying %q", name, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "notes")); !os.IsNotExist(err) {
			t.Fatal("refused, yet installed")
		}
	}
	in, _ := newTestInstaller(t, &Options{Publishers: sigstorePublishers(t, vs), RequireSigned: []string{filepath.Dir(signed)}})
	if _, err := in.Install(t.Context(), Source{ZipFile: signed}, nil); err != nil {
		t.Fatalf("signed by a listed identity: %v", err)
	}
}

// TestZipUpdateByAnotherIdentityAsksAgain: the archive on disk replaced
// by one whose bundle another identity made (or with no bundle) needs a
// person's yes on update, and the error names the installed identity; the
// same identity's new archive goes through.
func TestZipUpdateByAnotherIdentityAsksAgain(t *testing.T) {
	vs := sigstoretest.New(t)
	in, dir := newTestInstaller(t, &Options{Publishers: sigstorePublishers(t, vs)})
	zip := signZip(t, vs, releaser, map[string]string{"SKILL.md": skillMD("notes", "v1")})
	if _, err := in.Install(t.Context(), Source{ZipFile: zip}, nil); err != nil {
		t.Fatal(err)
	}
	replace := func(version, identity, issuer string) {
		t.Helper()
		files := map[string]string{"SKILL.md": skillMD("notes", version)}
		if err := os.WriteFile(zip, fixture.ZipOf(t, files), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(zip + provenance.BundleSuffix); err != nil {
			t.Fatal(err)
		}
		if identity != "" {
			writeBundle(t, zip, vs.Bundle(t, identity, issuer, fixture.ZipOf(t, files)))
		}
	}
	replace("v2", releaser, oidc)
	if res, err := in.Update(t.Context(), "notes", nil); err != nil || !res.Record.Signer.Verified() {
		t.Fatalf("the same identity's update: %+v, %v", res, err)
	}
	for _, id := range [][2]string{{"someone@example.com", oidc}, {releaser, "https://other.example.com"}, {"", ""}} {
		replace("v3 "+id[0]+id[1], id[0], id[1])
		var se *ScanError
		_, err := in.Update(t.Context(), "notes", nil)
		if !errors.Is(err, ErrNeedsConfirmation) || !errors.As(err, &se) || !strings.Contains(se.Republished, releaser) {
			t.Fatalf("an update signed by %q of %q: %v, want a question naming the change", id[0], id[1], err)
		}
		if strings.Contains(readFile(t, filepath.Join(dir, "notes", "SKILL.md")), "v3") {
			t.Fatal("updated without a yes")
		}
	}
	if res, err := in.Update(t.Context(), "notes", &UpdateOptions{Confirmed: true}); err != nil || res.Record.Signer != nil {
		t.Fatalf("the confirmed update of an archive without a bundle: %+v, %v", res, err)
	}
}
