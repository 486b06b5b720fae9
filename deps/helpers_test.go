package deps

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// needTool skips the test when a tool it runs for real is missing, except
// under CI (CI set), where .ci/run installs it and the test fails instead.
func needTool(t testing.TB, what string, probe ...string) {
	t.Helper()
	cmd := exec.Command(probe[0], probe[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := fmt.Sprintf("%s is not usable (%s: %v %s)", what, strings.Join(probe, " "), err, bytes.TrimSpace(out))
		if os.Getenv("CI") != "" {
			t.Fatal(msg + "; CI must install it")
		}
		t.Skip(msg)
	}
}

// needVenv needs python3 with the venv module and ensurepip (Debian's
// python3-venv).
func needVenv(t testing.TB) {
	needTool(t, "python3 with venv", defaultPython(), "-c", "import ensurepip, venv")
}

func needNpm(t testing.TB) {
	needTool(t, "node", "node", "--version")
	needTool(t, "npm", "npm", "--version")
}

// buildWheel writes a pure-Python wheel of package name (one module,
// name/__init__.py holding code) into dir by hand: a wheel is a ZIP with
// METADATA, WHEEL and RECORD, so no setuptools or network is needed.
func buildWheel(t testing.TB, dir, name, version, code string) string {
	t.Helper()
	info := name + "-" + version + ".dist-info"
	files := [][2]string{
		{name + "/__init__.py", code},
		{info + "/METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n"},
		{info + "/WHEEL", "Wheel-Version: 1.0\nGenerator: skillkit-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
	}
	var record strings.Builder
	for _, f := range files {
		sum := sha256.Sum256([]byte(f[1]))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", f[0], base64.RawURLEncoding.EncodeToString(sum[:]), len(f[1]))
	}
	record.WriteString(info + "/RECORD,,\n")
	files = append(files, [2]string{info + "/RECORD", record.String()})
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.Create(f[0])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+"-"+version+"-py3-none-any.whl")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// npmPack makes an npm package of one index.js with npm pack and returns
// the tarball's bytes.
func npmPack(t testing.TB, name, version, code string) []byte {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"package.json": fmt.Sprintf(`{"name":%q,"version":%q,"main":"index.js","license":"MIT"}`, name, version),
		"index.js":     code,
	})
	cmd := exec.Command("npm", "pack", "--silent")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "npm_config_update_notifier=false"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm pack: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, name+"-"+version+".tgz"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// npmRegistry serves packages (name to tarball, version 1.0.0) the way the
// npm registry does, on the loopback interface, and records what was asked.
type npmRegistry struct {
	*httptest.Server
	mu   sync.Mutex
	hits []string
	deps map[string]map[string]string // a package's dependencies, as its metadata lists them
}

func newNpmRegistry(t testing.TB, pkgs map[string][]byte) *npmRegistry {
	t.Helper()
	r := &npmRegistry{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits = append(r.hits, req.URL.Path)
		r.mu.Unlock()
		name := strings.TrimPrefix(req.URL.Path, "/")
		if pkg, file, ok := strings.Cut(name, "/-/"); ok {
			if data, ok := pkgs[pkg]; ok && file == pkg+"-1.0.0.tgz" {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Write(data)
				return
			}
			http.NotFound(w, req)
			return
		}
		data, ok := pkgs[name]
		if !ok {
			http.NotFound(w, req)
			return
		}
		sha := sha1.Sum(data)
		r.mu.Lock()
		deps := r.deps[name]
		r.mu.Unlock()
		doc := map[string]any{
			"name":      name,
			"dist-tags": map[string]string{"latest": "1.0.0"},
			"versions": map[string]any{"1.0.0": map[string]any{
				"name": name, "version": "1.0.0", "dependencies": deps,
				"dist": map[string]string{
					"tarball":   r.URL + "/" + name + "/-/" + name + "-1.0.0.tgz",
					"shasum":    hex.EncodeToString(sha[:]),
					"integrity": npmIntegrity(data),
				},
			}},
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(doc)
	}))
	t.Cleanup(r.Close)
	return r
}

// npmIntegrity is the integrity string npm records for a tarball.
func npmIntegrity(data []byte) string {
	sha5 := sha512.Sum512(data)
	return "sha512-" + base64.StdEncoding.EncodeToString(sha5[:])
}

func (r *npmRegistry) asked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.hits)
}

// skillsLookup loads skills from a skills folder for the executor, each
// time anew (so a rebuilt .venv is seen).
type skillsLookup struct{ dir string }

func (l skillsLookup) Get(name string) (*skill.Skill, bool) {
	s, _ := skill.Load(os.DirFS(l.dir), name, &skill.LoadOptions{DiskRoot: l.dir})
	return s, s != nil
}

// events collects progress events.
type events struct {
	mu  sync.Mutex
	all []Event
}

func (e *events) add(ev Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
}

func (e *events) messages(op Op) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.all {
		if ev.Op == op {
			out = append(out, ev.Message)
		}
	}
	return out
}

func (e *events) last() Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.all[len(e.all)-1]
}

// The fixtures every test of the skills folder uses.
var (
	newRepo           = fixture.NewRepo
	readFile          = fixture.ReadFile
	assertNoLeftovers = fixture.AssertNoLeftovers
	skillMD           = fixture.SkillMD
	writeTree         = fixture.WriteTree
	skillFolder       = fixture.SkillFolder
	writeZip          = fixture.WriteZip
	failRunner        = fixture.FailRunner
)

// folder is a skills folder under test: skills are installed into it with
// the installer package, their dependencies with the Installer under test,
// both on one skillsdir.Dir as the Kit wires them.
type folder struct {
	*Installer
	dir     *skillsdir.Dir
	install *installer.Installer
}

// newTestInstaller opens a folder on a new skills folder.
func newTestInstaller(t testing.TB, opts *Options) (*folder, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "skills")
	return openTestInstaller(t, dir, opts), dir
}

// openTestInstaller opens the skills folder dir and settles what crashed
// operations left, as the first operation would.
func openTestInstaller(t testing.TB, dir string, opts *Options) *folder {
	t.Helper()
	d, err := skillsdir.Open(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.Recover(t.Context()); err != nil {
		t.Fatal(err)
	}
	return &folder{Installer: New(d, opts), dir: d, install: installer.New(d, nil)}
}

// add installs a skill from src.
func (f *folder) add(ctx context.Context, src installer.Source) (*installer.Result, error) {
	return f.install.Install(ctx, src, nil)
}

// Registry is the folder's registry.
func (f *folder) Registry() registry.Store { return f.dir.Registry() }
