package prompt_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
)

// A skill served by someone else than the host (an MCP server) is named as
// such wherever it reaches the model: both catalog formats and read_skill's
// answer carry its origin; the host's own skills carry none.
func TestOriginReachesTheModel(t *testing.T) {
	fsys := fstest.MapFS{
		"remote/SKILL.md": {Data: []byte("---\nname: remote\ndescription: Served by a server.\n---\nDo it.\n")},
		"local/SKILL.md":  {Data: []byte("---\nname: local\ndescription: The host's own.\n---\nDo it.\n")},
	}
	remote, _ := skill.Load(fsys, "remote", nil)
	local, _ := skill.Load(fsys, "local", nil)
	remote.Origin = `mcp:docs-server"<x>`
	for _, f := range []prompt.Format{prompt.FormatSkillkit, prompt.FormatAgentSkills} {
		text := prompt.Catalog([]*skill.Skill{local, remote}, &prompt.Options{Format: f}).Text
		if strings.Count(text, "mcp:docs-server&quot;&lt;x&gt;") != 1 {
			t.Errorf("%s catalog: the origin is not shown once, escaped:\n%s", f, text)
		}
	}
	a, err := prompt.Activate(remote, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Text, `<skill_content name="remote" origin="mcp:docs-server&quot;&lt;x&gt;">`) {
		t.Errorf("read_skill: %s", a.Text)
	}
	if a, _ := prompt.Activate(local, nil); strings.Contains(a.Text, "origin") {
		t.Errorf("the host's own skill has an origin: %s", a.Text)
	}
}
