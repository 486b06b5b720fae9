package installer

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

// The fixtures every test of the skills folder uses.
var (
	assertNoLeftovers = fixture.AssertNoLeftovers
	skillMD           = fixture.SkillMD
	writeTree         = fixture.WriteTree
	skillFolder       = fixture.SkillFolder
	zipOf             = fixture.ZipOf
	writeZip          = fixture.WriteZip
	newRepo           = fixture.NewRepo
	readFile          = fixture.ReadFile
	treeState         = fixture.TreeState
)

// newTestInstaller opens an Installer on a new skills folder with file://
// URLs allowed.
func newTestInstaller(t testing.TB, opts *Options) (*Installer, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "skills")
	return openTestInstaller(t, dir, opts), dir
}

func openTestInstaller(t testing.TB, dir string, opts *Options) *Installer {
	t.Helper()
	return openTestInstallerWith(t, dir, nil, nil, opts)
}

// openTestInstallerWith opens the skills folder dir with a registry and the
// folder's options (a purge hook, a logger), and settles what crashed
// operations left, as the first operation would.
func openTestInstallerWith(t testing.TB, dir string, reg registry.Store, dopts *skillsdir.Options, opts *Options) *Installer {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	opts.AllowFileURLs = true
	d, err := skillsdir.Open(dir, reg, dopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	in := New(d, opts)
	if err := d.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	return in
}

// openFolder opens an Installer on dir with the defaults, for benchmarks and
// child processes.
func openFolder(dir string) (*Installer, error) {
	d, err := skillsdir.Open(dir, nil, nil)
	if err != nil {
		return nil, err
	}
	return New(d, nil), nil
}

// fingerprintDir fingerprints an installed skill, "" when it is missing.
func fingerprintDir(t testing.TB, dir string) string { return fixture.Fingerprint(t, dir) }

var failRunner = fixture.FailRunner
