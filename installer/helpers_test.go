package installer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/registry"
)

// skillMD is a minimal valid SKILL.md.
func skillMD(name, body string) string {
	return "---\nname: " + name + "\ndescription: The " + name + " test skill.\n---\n" + body + "\n"
}

// writeTree writes files (slash paths to contents) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// skillFolder makes a local skill folder and returns its path.
func skillFolder(t testing.TB, name, body string, extra map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	files := map[string]string{"SKILL.md": skillMD(name, body)}
	for k, v := range extra {
		files[k] = v
	}
	writeTree(t, dir, files)
	return dir
}

// zipOf builds a ZIP archive of files.
func zipOf(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(files[n]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeZip(t testing.TB, files map[string]string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "skill.zip")
	if err := os.WriteFile(p, zipOf(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// repo is a git repository made with the git binary.
type repo struct {
	t   testing.TB
	dir string
}

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed; CI must install it")
		}
		t.Skip("git is not installed")
	}
}

func newRepo(t testing.TB) *repo {
	t.Helper()
	needGit(t)
	r := &repo{t: t, dir: filepath.Join(t.TempDir(), "repo")}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("init", "-q", "-b", "main")
	return r
}

// git runs git in the repository with a clean environment.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + r.dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(files map[string]string) { writeTree(r.t, r.dir, files) }

// commit commits everything and returns the commit id.
func (r *repo) commit(msg string) string {
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func (r *repo) url() string { return "file://" + filepath.ToSlash(r.dir) }

// newTestInstaller opens an Installer on a new skills folder with file://
// URLs allowed.
func newTestInstaller(t testing.TB, opts *Options) (*Installer, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "skills")
	return openTestInstaller(t, dir, opts), dir
}

func openTestInstaller(t testing.TB, dir string, opts *Options) *Installer {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	opts.AllowFileURLs = true
	in, err := New(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// fingerprintDir fingerprints an installed skill, "" when it is missing.
func fingerprintDir(t testing.TB, dir string) string {
	t.Helper()
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	fp, err := registry.Fingerprint(t.Context(), os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// assertNoLeftovers checks that no operation left anything in staging or
// trash (lock files of finished operations aside).
func assertNoLeftovers(t testing.TB, skillsDir string) {
	t.Helper()
	for _, d := range []string{stagingDir, trashDir} {
		entries, err := os.ReadDir(filepath.Join(skillsDir, filepath.FromSlash(d)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != ".lock" {
				t.Errorf("left over in %s: %s", d, e.Name())
			}
		}
	}
}

// readFile reads a file of an installed skill.
func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// treeState lists every path under dir with its size and mode, for "nothing
// else was touched" checks.
func treeState(t testing.TB, dir string, skip func(rel string) bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if skip != nil && skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		state := info.Mode().String()
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			state += " " + string(data)
		}
		out[rel] = state
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// failRunner is a Runner that must not be called.
func failRunner(t testing.TB) executor.Runner {
	return executor.RunnerFunc(func(ctx context.Context, c executor.Command) (executor.Result, error) {
		t.Errorf("unexpected command %s %v", c.Path, c.Args)
		return executor.Result{}, errors.New("no commands here")
	})
}
