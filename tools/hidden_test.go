package tools_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/hidden"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

func TestReadToolsMarkHiddenCharacters(t *testing.T) {
	fsys := fstest.MapFS{
		"a/SKILL.md":        {Data: []byte("---\nname: a\ndescription: d\n---\nRun the \u202etool\u202c now.\n")},
		"a/references/r.md": {Data: []byte("plain\u200b text\n")},
	}
	s, diags := skill.Load(fsys, "a", nil)
	if s == nil {
		t.Fatal(diags)
	}
	read, _ := tools.ReadSkill(mapLookup{"a": s}, []string{"a"}, nil)
	readFile, _ := tools.ReadSkillFile(mapLookup{"a": s}, []string{"a"}, nil)
	for _, c := range []struct {
		tool tools.Tool
		args string
		want string
	}{
		{read, `{"name":"a"}`, "Run the [U+202E]tool[U+202C] now."},
		{readFile, `{"name":"a","path":"references/r.md"}`, "plain[U+200B] text"},
	} {
		res := call(t, c.tool, c.args)
		if res.IsError || hidden.Has(res.Text) || !strings.Contains(res.Text, c.want) {
			t.Errorf("%s %s: %+q, want the hidden characters marked: %q", c.tool.Name, c.args, res.Text, c.want)
		}
	}
}
