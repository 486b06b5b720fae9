package loader_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// fidelityTree writes a source with every kind of skill file that used to
// vanish: nested skills, skills under dot folders (conventional roots and
// others), mixed-case file names and frontmatter with one broken field.
func fidelityTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeSkill(t, root, "plain", "plain")
	writeSkill(t, root, "outer", "outer")
	writeSkill(t, root, "outer/skills/inner", "inner")
	writeSkill(t, root, "outer/skills/inner/deeper", "deeper")
	writeSkill(t, root, ".claude/skills/claude-one", "claude-one")
	writeSkill(t, root, ".agents/skills/group/agents-one", "agents-one")
	writeSkill(t, root, "team/.github/skills/copilot-one", "copilot-one")
	writeSkill(t, root, ".claude/commands/not-a-root", "not-a-root")
	writeSkill(t, root, ".hidden/secret", "secret")
	writeSkill(t, root, ".hidden/.deeper/.claude/skills/still-hidden", "still-hidden")
	writeFile(t, filepath.Join(root, "mixed", "Skill.md"), skillMD("mixed"))
	writeFile(t, filepath.Join(root, "upper", "SKILL.MD"), skillMD("upper"))
	writeFile(t, filepath.Join(root, "ui-component", "SKILL.md"), "---\nname: \"ui-component\"\nsummary: \"UI组件代码生成。UI component generator:\nlicense: \"MIT\"\ndescription: |-\n  Generates UI components.\n---\n")
	writeFile(t, filepath.Join(root, "broken-list", "SKILL.md"), "---\nname: broken-list\ndescription: Lists.\nmetadata:\n  tags: [a, b\n---\n")
	// Never searched: dependencies and version control.
	writeSkill(t, root, "node_modules/pkg", "pkg")
	writeSkill(t, root, ".git/x", "x")
	writeSkill(t, root, "plain/node_modules/dep", "dep")
	return root
}

// skillFiles lists every spelling of SKILL.md under root, except inside
// node_modules and .git, which discovery never searches.
func skillFiles(t *testing.T, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if !d.IsDir() && skill.IsSkillFileName(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEverySkillFileLoadedOrNamed(t *testing.T) {
	root := fidelityTree(t)
	for _, nested := range []bool{false, true} {
		l := newLoader(t, &loader.Options{NestedSkills: nested}, loader.Source{Name: "src", Dir: root})
		snap := l.Snapshot()
		loaded := map[string]string{}
		for _, s := range snap.Skills() {
			loaded[filepath.Join(s.DiskDir, s.File)] = s.Name
		}
		named := map[string]diagnostics.Code{}
		for _, d := range snap.Diagnostics() {
			named[d.Path] = d.Code
		}
		for _, f := range skillFiles(t, root) {
			_, isLoaded := loaded[f]
			_, isNamed := named[f]
			if !isLoaded && !isNamed {
				t.Errorf("nested %v: %s is neither loaded nor named", nested, f)
			}
		}
		for p := range named {
			if strings.Contains(p, "node_modules") || strings.Contains(p, string(filepath.Separator)+".git"+string(filepath.Separator)) {
				t.Errorf("searched inside %s", p)
			}
		}
		want := []string{"agents-one", "broken-list", "claude-one", "copilot-one", "mixed", "outer", "plain", "ui-component", "upper"}
		if nested {
			want = append(want, "deeper", "inner")
			slices.Sort(want)
		}
		if got := skillNames(snap.Skills()); !slices.Equal(got, want) {
			t.Errorf("nested %v: loaded %v, want %v", nested, got, want)
		}
		for file, code := range map[string]diagnostics.Code{
			".claude/commands/not-a-root/SKILL.md":                 diagnostics.SkillInDotFolder,
			".hidden/secret/SKILL.md":                              diagnostics.SkillInDotFolder,
			".hidden/.deeper/.claude/skills/still-hidden/SKILL.md": diagnostics.SkillInDotFolder,
			"outer/skills/inner/SKILL.md":                          diagnostics.NestedSkill,
			"mixed/Skill.md":                                       diagnostics.SkillFileLowercase,
		} {
			if got := named[filepath.Join(root, filepath.FromSlash(file))]; got != code {
				t.Errorf("nested %v: %s named %q, want %s", nested, file, got, code)
			}
		}
		rec := snap.Diagnostics().WithCode(diagnostics.FrontmatterRecovered)
		if len(rec) != 2 {
			t.Errorf("want the two broken fields named: %v", rec)
		}
	}
}

// Dot folders are searched after everything else, so they never take the
// folder budget from skills that load.
func TestDotFoldersSearchedLast(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a", "b", "c", "d"} {
		writeSkill(t, filepath.Join(root, ".cache"), d, "cached-"+d)
	}
	writeSkill(t, root, "z-last", "z-last")
	l := newLoader(t, &loader.Options{MaxDirs: 3}, loader.Source{Name: "src", Dir: root})
	if got := skillNames(l.Snapshot().Skills()); !slices.Equal(got, []string{"z-last"}) {
		t.Errorf("loaded %v", got)
	}
	cut := only(t, l.Snapshot().Diagnostics(), diagnostics.LimitReached, 1)
	if len(cut) == 1 && !strings.Contains(cut[0].Message, ".cache") {
		t.Errorf("the folders left unsearched are not named: %v", cut[0])
	}
}

// A conventional root that is a link to the source's own skills is the same
// folder: loaded once, not a collision with itself.
func TestConventionalRootLinkedToSource(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "skills/one", "one")
	symlink(t, filepath.Join("..", "skills"), filepath.Join(root, ".claude", "skills"))
	outside := t.TempDir()
	writeSkill(t, outside, "far", "far")
	symlink(t, outside, filepath.Join(root, ".agents", "skills"))
	l := newLoader(t, nil, loader.Source{Name: "src", Dir: root})
	snap := l.Snapshot()
	wantNames(t, names(snap), "one@src:skills/one")
	only(t, snap.Diagnostics(), diagnostics.NameCollision, 0)
	esc := only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 1)
	if len(esc) == 1 && esc[0].Path != filepath.Join(root, ".agents", "skills") {
		t.Errorf("escape named at %s", esc[0].Path)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude", "skills", "one", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
}

func TestNotLoaded(t *testing.T) {
	root := fidelityTree(t)
	writeFile(t, filepath.Join(root, "no-desc", "SKILL.md"), "---\nname: no-desc\n---\n")
	writeSkill(t, root, "zz/plain", "plain") // collides with plain
	writeSkill(t, root, "zzz/over", "over")
	// Conventional roots come last in their folder: claude-one is the
	// tenth skill, past the limit.
	l := newLoader(t, &loader.Options{MaxSkills: 9}, loader.Source{Name: "src", Dir: root})
	got := map[string]diagnostics.Code{}
	for _, n := range l.Snapshot().NotLoaded() {
		rel, _ := filepath.Rel(root, n.Path)
		got[filepath.ToSlash(rel)] = n.Code
		if n.Source != "src" || n.Reason == "" {
			t.Errorf("%+v", n)
		}
	}
	want := map[string]diagnostics.Code{
		".claude/commands/not-a-root":                 diagnostics.SkillInDotFolder,
		".hidden/secret":                              diagnostics.SkillInDotFolder,
		".hidden/.deeper/.claude/skills/still-hidden": diagnostics.SkillInDotFolder,
		"outer/skills/inner":                          diagnostics.NestedSkill,
		"no-desc":                                     diagnostics.DescMissing,
		"zz/plain":                                    diagnostics.NameCollision,
		"outer/skills/inner/deeper":                   diagnostics.NestedSkill,
		".claude/skills/claude-one":                   diagnostics.LimitReached,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("not loaded (-want +got):\n%s", diff)
	}
}
