package toolpolicy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/toolpolicy"
	"github.com/skillkit-go/skillkit/tools"
)

// skills is a tools.Lookup over the skills of testdata.
type skills map[string]*skill.Skill

func (m skills) Get(name string) (*skill.Skill, bool) { s, ok := m[name]; return s, ok }

// A host wires the policy to read_skill, then asks it before each call of
// its own tools.
func Example() {
	s, _ := skill.Load(os.DirFS("testdata/skills"), "git-release", nil)
	s.DiskDir, _ = filepath.Abs("testdata/skills/git-release")

	policy := &toolpolicy.Policy{Mode: toolpolicy.Restrict, Dir: "/work/project",
		Exempt: []string{tools.ReadSkillName, tools.ReadSkillFileName}}
	readSkill, _ := tools.ReadSkill(skills{s.Name: s}, []string{s.Name},
		&tools.ReadOptions{OnActivate: func(s *skill.Skill) { policy.Activate(s) }})

	// Before the model reads the skill, nothing is pre-approved or refused.
	d, _ := policy.Decide(toolpolicy.Call{Tool: "Bash", Command: "git tag v1.2.0"})
	fmt.Println("before:", d)

	readSkill.Invoke(context.Background(), []byte(`{"name":"git-release"}`))
	for _, c := range []toolpolicy.Call{
		{Tool: "Bash", Command: "git status"},
		{Tool: "Bash", Command: "git tag v1.2.0 && git push origin v1.2.0"},
		{Tool: "Bash", Command: "git push --force origin main"},
		{Tool: "Read", Path: "CHANGELOG.md"},
		{Tool: "Read", Path: "/home/user/.ssh/id_ed25519"},
		{Tool: tools.ReadSkillFileName},
	} {
		d, by := policy.Decide(c)
		if by != "" {
			by = " (" + by + ")"
		}
		fmt.Printf("%s %s%s: %s%s\n", c.Tool, c.Command, c.Path, d, by)
	}
	// Output:
	// before: ask
	// Bash git status: allow (git-release)
	// Bash git tag v1.2.0 && git push origin v1.2.0: allow (git-release)
	// Bash git push --force origin main: deny
	// Read CHANGELOG.md: allow (git-release)
	// Read /home/user/.ssh/id_ed25519: deny
	// read_skill_file : ask
}
