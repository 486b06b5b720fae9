package skillset_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/examples/openai/internal/skillset"
)

func toolNames(set *skillset.Set) []string {
	var names []string
	for _, t := range set.Tools {
		names = append(names, t.Name)
	}
	return names
}

func TestLoadExamples(t *testing.T) {
	set, err := skillset.Load("../../../skills")
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(set); !slices.Equal(got, []string{"read_skill", "read_skill_file", "execute_skill"}) {
		t.Errorf("tools %v", got)
	}
	var schema struct {
		Properties struct {
			Name struct {
				Enum []string `json:"enum"`
			} `json:"name"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(set.Tools[2].InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	if got := schema.Properties.Name.Enum; !slices.Equal(got, []string{"date-diff", "word-stats"}) {
		t.Errorf("execute_skill runs %v, want the two compute-entry skills", got)
	}
	for _, name := range []string{"csv-tools", "date-diff", "release-notes", "word-stats"} {
		if !strings.Contains(set.Catalog, `name="`+name+`"`) {
			t.Errorf("the catalog does not list %s", name)
		}
	}
	if errs := set.Diagnostics.AtLeast(diagnostics.Error); len(errs) > 0 {
		t.Errorf("the example skills have errors: %v", errs)
	}
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadSkipsAndReports(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"notes/SKILL.md":         "---\nname: notes\ndescription: Takes notes.\n---\nWrite notes.\n",
		"broken/SKILL.md":        "---\nname: broken\n---\nno description\n",
		".hidden/SKILL.md":       "---\nname: hidden\ndescription: Never loaded.\n---\n",
		"README.md":              "not a skill",
		"notes/references/a.md":  "A",
		"broken/references/b.md": "B",
	})
	set, err := skillset.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(set); !slices.Equal(got, []string{"read_skill", "read_skill_file"}) {
		t.Errorf("without a compute-entry skill there is no execute_skill; tools %v", got)
	}
	if !strings.Contains(set.Catalog, `name="notes"`) || strings.Contains(set.Catalog, "broken") || strings.Contains(set.Catalog, "hidden") {
		t.Errorf("catalog:\n%s", set.Catalog)
	}
	if len(set.Diagnostics.ForSkill("broken").AtLeast(diagnostics.Error)) == 0 {
		t.Errorf("the skill left out must have an error diagnostic; got %v", set.Diagnostics)
	}
}

func TestLoadFails(t *testing.T) {
	dup := t.TempDir()
	write(t, dup, map[string]string{
		"one/SKILL.md": "---\nname: same\ndescription: First.\n---\n",
		"two/SKILL.md": "---\nname: same\ndescription: Second.\n---\n",
	})
	for name, c := range map[string]struct{ dir, want string }{
		"missing":   {filepath.Join(t.TempDir(), "nope"), "skills folder"},
		"empty":     {t.TempDir(), "no skill could be loaded"},
		"duplicate": {dup, `named "same"`},
	} {
		if _, err := skillset.Load(c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error mentioning %q, got %v", name, c.want, err)
		}
	}
}
