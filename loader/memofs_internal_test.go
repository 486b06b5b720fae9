package loader

import (
	"path"
	"testing"
)

// is says what path.Join says, without joining.
func TestIsJoined(t *testing.T) {
	for _, c := range []struct{ name, dir, file string }{
		{"SKILL.md", ".", "SKILL.md"}, {"SKILL.md", "", "SKILL.md"}, {"a/SKILL.md", "a", "SKILL.md"},
		{"a/b/SKILL.md", "a/b", "SKILL.md"}, {"axSKILL.md", "a", "SKILL.md"}, {"a/SKILL.mdx", "a", "SKILL.md"},
		{"b/SKILL.md", "a", "SKILL.md"}, {"a/skill.md", "a", "SKILL.md"}, {"a//SKILL.md", "a", "SKILL.md"},
		{"./SKILL.md", ".", "SKILL.md"}, {"a/b/skill.config.yaml", "a/b", "skill.config.yaml"},
	} {
		if got, want := is(c.name, c.dir, c.file), c.name == path.Join(c.dir, c.file); got != want {
			t.Errorf("is(%q, %q, %q) = %v, want %v", c.name, c.dir, c.file, got, want)
		}
	}
}
