package deps

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

var (
	needVenv       = fixture.NeedVenv
	needNpm        = fixture.NeedNpm
	buildWheel     = fixture.BuildWheel
	npmPack        = fixture.NpmPack
	newNpmRegistry = fixture.NewNpmRegistry
)

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

// add installs src as a person who read the scan's findings would: these
// tests are about what the dependency builder refuses on its own.
func (f *folder) add(ctx context.Context, src installer.Source) (*installer.Result, error) {
	return f.install.Install(ctx, src, &installer.InstallOptions{Confirmed: true})
}

// Registry is the folder's registry.
func (f *folder) Registry() registry.Store { return f.dir.Registry() }
