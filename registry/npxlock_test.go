package registry_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/registry"
)

func TestReadNpxLock(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, registry.NpxProjectLock)
	os.WriteFile(project, []byte(`{"version":1,"skills":{"pdf":{"source":"acme/skills","sourceType":"github","ref":"v2","skillPath":"skills/pdf/SKILL.md","computedHash":"abc"}}}`), 0o644)
	l, err := registry.ReadNpxLock(project)
	if err != nil {
		t.Fatal(err)
	}
	want := registry.NpxEntry{Source: "acme/skills", SourceType: "github", Ref: "v2", SkillPath: "skills/pdf/SKILL.md", Hash: "abc"}
	if diff := cmp.Diff(want, l.Skills["pdf"]); diff != "" || l.Version != 1 || l.Path != project || !cmp.Equal(l.Names(), []string{"pdf"}) {
		t.Errorf("%+v (-want +got):\n%s", l, diff)
	}
	global := filepath.Join(dir, "global.json")
	os.WriteFile(global, []byte(`{"version":3,"skills":{"find-skills":{"source":"vercel-labs/skills","sourceType":"github","sourceUrl":"https://github.com/vercel-labs/skills.git","skillPath":"skills/find-skills/SKILL.md","skillFolderHash":"f00","installedAt":"2026-01-02T03:04:05.000Z","updatedAt":"2026-01-02T03:04:05.000Z"}},"dismissed":{"findSkillsPrompt":true}}`), 0o644)
	if l, err := registry.ReadNpxLock(global); err != nil || l.Skills["find-skills"].Hash != "f00" || l.Skills["find-skills"].SourceURL == "" {
		t.Errorf("%+v %v", l, err)
	}
	if _, err := registry.ReadNpxLock(filepath.Join(dir, "none.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	for name, bad := range map[string]string{
		"not JSON":       `{`,
		"no skills":      `{"version":1}`,
		"bad name":       `{"skills":{"../x":{"source":"a/b"}}}`,
		"no source":      `{"skills":{"pdf":{"sourceType":"github"}}}`,
		"wrong type":     `{"skills":{"pdf":{"source":7}}}`,
		"skills a list":  `{"skills":[]}`,
		"entry a string": `{"skills":{"pdf":"acme/skills"}}`,
	} {
		if _, err := registry.ParseNpxLock([]byte(bad)); !errors.Is(err, registry.ErrInvalidNpxLock) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestNpxLockPaths(t *testing.T) {
	home := "/home/ada"
	got := registry.NpxLockPaths("/work/app/.claude/skills", "/work/app", home)
	if !cmp.Equal(got, []string{"/work/app/skills-lock.json"}) {
		t.Errorf("project: %v", got)
	}
	got = registry.NpxLockPaths("/home/ada/.claude/skills", "/home/ada", home)
	if !cmp.Equal(got, []string{"/home/ada/.agents/.skill-lock.json"}) {
		t.Errorf("home: %v", got)
	}
	got = registry.NpxLockPaths("/home/ada/code/app/.agents/skills", "/home/ada/code/app", home)
	if !cmp.Equal(got, []string{"/home/ada/code/app/skills-lock.json", "/home/ada/.agents/.skill-lock.json"}) {
		t.Errorf("project in home: %v", got)
	}
	if got := registry.NpxLockPaths("/srv/skills", "", home); len(got) != 0 {
		t.Errorf("elsewhere: %v", got)
	}
}

func FuzzParseNpxLock(f *testing.F) {
	f.Add([]byte(`{"version":1,"skills":{"pdf":{"source":"acme/skills","sourceType":"github","computedHash":"abc"}}}`))
	f.Add([]byte(`{"version":3,"skills":{"a":{"source":"x","skillFolderHash":"h","sourceUrl":"u"}},"lastSelectedAgents":["claude-code"]}`))
	f.Add([]byte(`{"skills":{"":{}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := registry.ParseNpxLock(data)
		if err != nil {
			if !errors.Is(err, registry.ErrInvalidNpxLock) {
				t.Fatalf("error does not wrap ErrInvalidNpxLock: %v", err)
			}
			return
		}
		for _, name := range l.Names() {
			if l.Skills[name].Source == "" {
				t.Fatalf("%q has no source", name)
			}
		}
	})
}
