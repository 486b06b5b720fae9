package loader_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
)

// Real folders: a loop, a link leaving the root, a skill reached twice, a
// SKILL.md leading outside, a broken link.
func TestSymlinksOnDisk(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeSkill(t, root, "real/pdf", "pdf")
	writeSkill(t, outside, "stolen", "stolen")
	writeFile(t, filepath.Join(outside, "secret.md"), skillMD("secret"))
	symlink(t, filepath.Join(root, "real"), filepath.Join(root, "real", "loop"))     // loop to its own folder
	symlink(t, "..", filepath.Join(root, "real", "up"))                              // loop to the root
	symlink(t, filepath.Join(root, "real", "pdf"), filepath.Join(root, "z-dup-pdf")) // the same skill again
	symlink(t, filepath.Join(outside, "stolen"), filepath.Join(root, "escape"))      // leaves the root
	symlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "sneaky", "SKILL.md"))
	symlink(t, filepath.Join(root, "nowhere"), filepath.Join(root, "broken"))
	writeSkill(t, root, "inside-link-target", "linked")
	symlink(t, "inside-link-target", filepath.Join(root, "a-alias"))

	l := newLoader(t, nil, loader.Source{Name: "disk", Dir: root})
	snap := l.Snapshot()
	// a-alias sorts before inside-link-target, so the skill is found there.
	wantNames(t, names(snap), "linked@disk:a-alias", "pdf@disk:real/pdf")
	diags := snap.Diagnostics()
	esc := only(t, diags, diagnostics.SymlinkEscape, 2)
	paths := map[string]bool{}
	for _, d := range esc {
		paths[d.Path] = true
	}
	if !paths[filepath.Join(root, "escape")] || !paths[filepath.Join(root, "sneaky", "SKILL.md")] {
		t.Errorf("escapes at %v", paths)
	}
	only(t, diags, diagnostics.ReadError, 1) // the broken link
	only(t, diags, diagnostics.NameCollision, 0)
	// The skill reached through a link resolves by either path.
	linked, _ := l.Get("linked")
	for _, p := range []string{filepath.Join(root, "a-alias", "SKILL.md"), filepath.Join(root, "inside-link-target", "x")} {
		if got, ok := snap.ResolveByPath(p); !ok || got != linked {
			t.Errorf("ResolveByPath(%s) = %v %v", p, got, ok)
		}
	}
}

// A source root that is itself a link is followed, and its skills resolve by
// the real path too.
func TestSourceDirIsALink(t *testing.T) {
	real := t.TempDir()
	writeSkill(t, real, "pdf", "pdf")
	link := filepath.Join(t.TempDir(), "skills")
	symlink(t, real, link)
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: link})
	pdf, ok := l.Get("pdf")
	if !ok || pdf.DiskDir != filepath.Join(link, "pdf") {
		t.Fatalf("%+v", pdf)
	}
	realPDF, _ := filepath.EvalSymlinks(filepath.Join(real, "pdf"))
	if got, ok := l.ResolveByPath(filepath.Join(realPDF, "scripts")); !ok || got != pdf {
		t.Errorf("by real path: %v %v", got, ok)
	}
}

// One physical folder reached from two sources loads once, silently, in the
// first source.
func TestSameFolderInTwoSources(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "team/pdf", "pdf")
	l := newLoader(t, nil,
		loader.Source{Name: "team", Dir: filepath.Join(root, "team")},
		loader.Source{Name: "all", Dir: root})
	wantNames(t, names(l.Snapshot()), "pdf@team:pdf")
	only(t, l.Snapshot().Diagnostics(), diagnostics.NameCollision, 0)
}

// The same rules inside an fs.FS that is not on disk.
func TestSymlinksInMapFS(t *testing.T) {
	m := mapSkills("real/pdf", "other/doc")
	link := func(target string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
	}
	m["real/loop"] = link("..")                // back to the root
	m["real/self"] = link(".")                 // itself
	m["alias"] = link("real/pdf")              // the same skill again
	m["escape"] = link("../outside")           // climbs above the root
	m["absolute"] = link("/etc")               // absolute
	m["chain"] = link("chain2")                // a chain of links to a folder
	m["chain2"] = link("other")                //
	m["sneaky/SKILL.md"] = link("/etc/passwd") // a skill file leading out
	l := newLoader(t, nil, loader.Source{Name: "mem", FS: m})
	snap := l.Snapshot()
	// "alias" sorts first, so pdf is found there; "chain" reaches other/doc first.
	wantNames(t, names(snap), "doc@mem:chain/doc", "pdf@mem:alias")
	only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 3)
	only(t, snap.Diagnostics(), diagnostics.NameCollision, 0)
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "b/two", "two")
	writeSkill(t, root, "a/one", "one")
	found, diags := loader.Discover(t.Context(), loader.Source{Name: "x", Dir: root}, nil)
	if len(found) != 2 || found[0].Dir != "a/one" || found[1].DiskDir != filepath.Join(root, "b", "two") || diags != nil {
		t.Fatalf("%+v %v", found, diags)
	}
	found, diags = loader.Discover(t.Context(), loader.Source{Name: "x", Dir: root}, &loader.Options{MaxDirs: 2})
	if len(found) != 0 || !diags.Has(diagnostics.LimitReached) {
		t.Fatalf("%+v %v", found, diags)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
}

// A link to the source root's own parent leaves the root: its target is
// "..", the one relative path that climbs without a separator after it.
func TestLinkToRootParentEscapes(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "skills")
	writeSkill(t, root, "pdf", "pdf")
	writeSkill(t, parent, "neighbour", "neighbour")
	symlink(t, "..", filepath.Join(root, "up"))
	l := newLoader(t, nil, loader.Source{Name: "disk", Dir: root})
	wantNames(t, names(l.Snapshot()), "pdf@disk:pdf")
	esc := only(t, l.Snapshot().Diagnostics(), diagnostics.SymlinkEscape, 1)
	if esc[0].Path != filepath.Join(root, "up") {
		t.Errorf("SYMLINK_ESCAPE at %s", esc[0].Path)
	}
}
