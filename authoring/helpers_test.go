package authoring

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

// The fixtures every test of the skills folder uses.
var (
	skillFolder       = fixture.SkillFolder
	writeTree         = fixture.WriteTree
	skillMD           = fixture.SkillMD
	readFile          = fixture.ReadFile
	assertNoLeftovers = fixture.AssertNoLeftovers
	fingerprintDir    = fixture.Fingerprint
)

// folder is a skills folder under test: agents write into it with the
// Writer under test, people install with the installer package, both on one
// skillsdir.Dir as the Kit wires them.
type folder struct {
	*Writer
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
	return &folder{Writer: New(d, opts), dir: d, install: installer.New(d, &installer.Options{AllowFileURLs: true})}
}

// add installs a skill from src, as a person would.
func (f *folder) add(ctx context.Context, src installer.Source) (*installer.Result, error) {
	return f.install.Install(ctx, src, nil)
}

// Registry is the folder's registry.
func (f *folder) Registry() registry.Store { return f.dir.Registry() }

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

func (e *events) last() Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.all[len(e.all)-1]
}
