package loader_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// TestNothingSilent: every skill file under a source is loaded or named in
// NotLoaded, whatever rule leaves it out: a broken skill around it, a skill
// that lost its name around it, a loaded skill around it, the depth limit
// (plain folders and a conventional root past it), a dot folder.
func TestNothingSilent(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "broken", "SKILL.md"), "---\nname: broken\ndescription: [unclosed\n---\n")
	writeSkill(t, root, "broken/sub/under-broken", "under-broken")
	writeFile(t, filepath.Join(root, "nodesc", "SKILL.md"), "---\nname: nodesc\n---\n")
	writeSkill(t, root, "nodesc/under-nodesc", "under-nodesc")
	writeSkill(t, root, "a-first", "twin")
	writeSkill(t, root, "b-second", "twin")
	writeSkill(t, root, "b-second/under-loser", "under-loser")
	writeSkill(t, root, "outer", "outer")
	writeSkill(t, root, "outer/inner", "inner")
	writeSkill(t, root, "1/2/3/4/5/6/seven", "seven")
	writeSkill(t, root, "1/2/3/4/5/6/7/8/nine", "nine")
	writeSkill(t, root, "1/2/3/4/5/.claude/skills/in-deep-root", "in-deep-root")
	writeSkill(t, root, "top/.cache/stash", "stash")
	writeSkill(t, root, "ok", "ok")

	l := newLoader(t, &loader.Options{MaxDepth: 5}, loader.Source{Name: "w", Dir: root})
	snap := l.Snapshot()
	accounted := map[string]string{}
	for _, s := range snap.Skills() {
		accounted[s.DiskDir] = "loaded"
	}
	for _, n := range snap.NotLoaded() {
		accounted[n.Path] = string(n.Code)
	}
	var all []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && skill.IsSkillFileName(d.Name()) {
			all = append(all, filepath.Dir(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"broken": "FRONTMATTER_INVALID", "broken/sub/under-broken": "NESTED_SKILL",
		"nodesc": "DESC_MISSING", "nodesc/under-nodesc": "NESTED_SKILL",
		"a-first": "loaded", "b-second": "NAME_COLLISION", "b-second/under-loser": "NESTED_SKILL",
		"outer": "loaded", "outer/inner": "NESTED_SKILL",
		"1/2/3/4/5/6/seven": "LIMIT_REACHED", "1/2/3/4/5/6/7/8/nine": "LIMIT_REACHED",
		"1/2/3/4/5/.claude/skills/in-deep-root": "LIMIT_REACHED",
		"top/.cache/stash":                      "SKILL_IN_DOT_FOLDER",
		"ok":                                    "loaded",
	}
	if len(all) != len(want) {
		t.Errorf("%d skill files on disk, %d expected", len(all), len(want))
	}
	for _, dir := range all {
		rel := filepath.ToSlash(strings.TrimPrefix(dir, root+string(os.PathSeparator)))
		if got := accounted[dir]; got != want[rel] {
			t.Errorf("%s: %q, want %q", rel, got, want[rel])
		}
	}
	cut := snap.Diagnostics().WithCode(diagnostics.LimitReached)
	if len(cut) != 1 || !slices.Equal(cut[0].Detail["skipped"].([]string), []string{
		"1/2/3/4/5/.claude/skills/in-deep-root/SKILL.md", "1/2/3/4/5/6/7/8/nine/SKILL.md", "1/2/3/4/5/6/seven/SKILL.md"}) {
		t.Errorf("depth diagnostic: %v", cut)
	}
}
