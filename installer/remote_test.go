package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/registry"
)

// fakeRemote stands in for a discovery index or an MCP server, to test
// what the installer does around a Remote; the real ones are tested in
// their packages.
type fakeRemote struct {
	mu      sync.Mutex
	files   fstest.MapFS
	fsys    fs.FS // returned instead of files when set
	version string
	fetches int
	err     error // returned by Fetch
}

func (r *fakeRemote) Origin() registry.Record {
	return registry.Record{Source: registry.SourceWellKnown, URL: "https://example.com/.well-known/agent-skills/index.json", Subdir: "demo"}
}

func (r *fakeRemote) Version(context.Context) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version, nil
}

func (r *fakeRemote) Fetch(_ context.Context, _ *Limits) (fs.FS, string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fetches++
	if r.fsys != nil {
		return r.fsys, r.version, r.err
	}
	return r.files, r.version, r.err
}

func (r *fakeRemote) set(body, version string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files = fstest.MapFS{"SKILL.md": {Data: []byte(skillMD("demo", body))}, "references/a.md": {Data: []byte("a")}}
	r.version = version
}

func TestInstallFromRemote(t *testing.T) {
	remote := &fakeRemote{}
	remote.set("v1", "sha256:1")
	in, dir := newTestInstaller(t, &Options{Remote: func(rec registry.Record) (Remote, error) {
		if rec.Source != registry.SourceWellKnown || rec.Subdir != "demo" {
			return nil, fmt.Errorf("unexpected record %+v", rec)
		}
		return remote, nil
	}})
	ctx := t.Context()
	res, err := in.Install(ctx, Source{Remote: remote}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Source != registry.SourceWellKnown || res.Record.URL != remote.Origin().URL || res.Record.Subdir != "demo" || res.Record.Commit != "sha256:1" {
		t.Errorf("record %+v", res.Record)
	}
	if got := readFile(t, filepath.Join(dir, "demo", "references", "a.md")); got != "a" {
		t.Errorf("a.md = %q", got)
	}

	// Same version: up to date without a fetch.
	res, err = in.Update(ctx, "demo", nil)
	if err != nil || !res.UpToDate || remote.fetches != 1 {
		t.Fatalf("update at the same version: %+v %v, %d fetches", res, err, remote.fetches)
	}
	st, err := in.CheckUpdates(ctx)
	if err != nil || len(st) != 1 || !st[0].Checked || st[0].HasUpdate {
		t.Fatalf("check at the same version: %+v %v", st, err)
	}

	// A new version: CheckUpdates sees it, Update installs it.
	remote.set("v2", "sha256:2")
	st, err = in.CheckUpdates(ctx)
	if err != nil || !st[0].HasUpdate || st[0].Latest != "sha256:2" || st[0].Current != "sha256:1" {
		t.Fatalf("check at a new version: %+v %v", st, err)
	}
	res, err = in.Update(ctx, "demo", nil)
	if err != nil || res.UpToDate || res.Record.Commit != "sha256:2" {
		t.Fatalf("update: %+v %v", res, err)
	}
	if got := readFile(t, filepath.Join(dir, "demo", "SKILL.md")); got != skillMD("demo", "v2") {
		t.Errorf("SKILL.md = %q", got)
	}
	assertNoLeftovers(t, dir)
}

// Without Options.Remote a skill installed from a Remote cannot be
// updated, and CheckUpdates leaves it unchecked.
func TestRemoteWithoutOpener(t *testing.T) {
	remote := &fakeRemote{}
	remote.set("v1", "sha256:1")
	in, _ := newTestInstaller(t, nil)
	if _, err := in.Install(t.Context(), Source{Remote: remote}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Update(t.Context(), "demo", nil); !errors.Is(err, ErrNotUpdatable) {
		t.Errorf("update: %v, want ErrNotUpdatable", err)
	}
	st, err := in.CheckUpdates(t.Context())
	if err != nil || st[0].Checked {
		t.Errorf("check: %+v %v", st, err)
	}
}

// What a remote hands over passes the same checks as a folder, and a read
// that fails verification fails the install, leaving nothing.
func TestRemoteRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		files fstest.MapFS
		err   error
		want  error
	}{
		"link":     {files: fstest.MapFS{"SKILL.md": {Data: []byte(skillMD("demo", ""))}, "x": {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink}}, want: ErrRejected},
		"git":      {files: fstest.MapFS{"SKILL.md": {Data: []byte(skillMD("demo", ""))}, ".git/config": {Data: []byte("x")}}, want: ErrRejected},
		"no skill": {files: fstest.MapFS{"a.md": {Data: []byte("a")}}, want: ErrRejected},
		"fetch":    {err: fmt.Errorf("wellknown: %w", ErrDigestMismatch), want: ErrDigestMismatch},
	} {
		t.Run(name, func(t *testing.T) {
			in, dir := newTestInstaller(t, nil)
			_, err := in.Install(t.Context(), Source{Remote: &fakeRemote{files: tc.files, version: "v", err: tc.err}}, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "demo")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("demo was installed: %v", err)
			}
			assertNoLeftovers(t, dir)
		})
	}
	t.Run("read", func(t *testing.T) {
		in, dir := newTestInstaller(t, nil)
		files := failingFS{MapFS: fstest.MapFS{"SKILL.md": {Data: []byte(skillMD("demo", ""))}, "b.md": {Data: []byte("b")}}, fail: "b.md"}
		_, err := in.Install(t.Context(), Source{Remote: &fakeRemote{version: "v", fsys: files}}, nil)
		if !errors.Is(err, ErrDigestMismatch) {
			t.Fatalf("err = %v, want ErrDigestMismatch", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "demo")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("demo was installed: %v", err)
		}
		assertNoLeftovers(t, dir)
	})
}

// A Remote's origin must be one of the sources the registry knows for it.
func TestRemoteOriginChecked(t *testing.T) {
	in, _ := newTestInstaller(t, nil)
	_, err := in.Install(t.Context(), Source{Remote: badOrigin{&fakeRemote{}}}, nil)
	if !errors.Is(err, ErrInvalidSource) {
		t.Errorf("err = %v, want ErrInvalidSource", err)
	}
	if _, err := in.Install(t.Context(), Source{Remote: &fakeRemote{}, Dir: "x"}, nil); !errors.Is(err, ErrInvalidSource) {
		t.Errorf("two kinds: %v", err)
	}
}

type badOrigin struct{ *fakeRemote }

func (badOrigin) Origin() registry.Record {
	return registry.Record{Source: registry.SourceGit, URL: "x", Subdir: "y"}
}

// failingFS fails the reads of one file as a remote that served bytes not
// matching their digest does.
type failingFS struct {
	fstest.MapFS
	fail string
}

func (f failingFS) Open(name string) (fs.File, error) {
	file, err := f.MapFS.Open(name)
	if err != nil || name != f.fail {
		return file, err
	}
	return failingFile{file}, nil
}

type failingFile struct{ fs.File }

func (failingFile) Read([]byte) (int, error) {
	return 0, fmt.Errorf("mcpskills: b.md: %w", ErrDigestMismatch)
}
