package tools_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// Past MaxNameEnum names, the schema lists none of them (a tool definition
// stays small whatever the number of skills), a right name still works and
// a wrong one is answered with the closest names and search_skills, not
// with every name.
func TestManyNames(t *testing.T) {
	for _, n := range []int{tools.MaxNameEnum, tools.MaxNameEnum + 1} {
		fsys := fstest.MapFS{}
		lookup := mapLookup{}
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("skill-%05d", i)
			fsys[names[i]+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + names[i] + "\ndescription: Skill " + names[i] + ".\n---\nBody of " + names[i] + ".\n")}
		}
		for _, name := range []string{names[0], names[n-1]} {
			s, diags := skill.Load(fsys, name, nil)
			if s == nil {
				t.Fatal(diags)
			}
			lookup[name] = s
		}
		read, err := tools.ReadSkill(lookup, names, nil)
		if err != nil {
			t.Fatal(err)
		}
		listed := strings.Contains(string(read.InputSchema), names[n/2])
		if listed != (n <= tools.MaxNameEnum) {
			t.Errorf("%d names: the schema lists them: %v (%d bytes)", n, listed, len(read.InputSchema))
		}
		res, err := read.Invoke(context.Background(), []byte(`{"name":"`+names[n-1]+`"}`))
		if err != nil || res.IsError || !strings.Contains(res.Text, "Body of "+names[n-1]) {
			t.Fatalf("%d names: a right name: %+v %v", n, res, err)
		}
		res, err = read.Invoke(context.Background(), []byte(`{"name":"skill-0042"}`))
		if err != nil || !res.IsError {
			t.Fatalf("%d names: a wrong name: %+v %v", n, res, err)
		}
		if n > tools.MaxNameEnum {
			if strings.Contains(res.Text, names[n/2]) || !strings.Contains(res.Text, "search_skills") || !strings.Contains(res.Text, "skill-00420") {
				t.Errorf("%d names: the answer to a wrong name: %s", n, res.Text)
			}
			if len(res.Text) > 1000 {
				t.Errorf("%d names: the answer to a wrong name is %d bytes", n, len(res.Text))
			}
		}
	}
}
