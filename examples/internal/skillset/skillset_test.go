package skillset

import (
	"context"
	"strings"
	"testing"
)

func TestLoadExamples(t *testing.T) {
	set, err := Load(context.Background(), "../../skills")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	var names []string
	for _, tool := range set.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "read_skill,read_skill_file,execute_skill,skill_manage" {
		t.Errorf("tools %v", names)
	}
	if !strings.Contains(set.Catalog, `<skill name="word-stats" type="compute-entry"`) || len(set.Diagnostics) != 0 {
		t.Errorf("catalog %q diagnostics %v", set.Catalog, set.Diagnostics)
	}
	if _, err := Load(context.Background(), "../../skills/word-stats/SKILL.md"); err == nil {
		t.Error("a file is not a skills folder")
	}
}
