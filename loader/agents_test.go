package loader_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
)

// npxProject lays out a project as the `npx skills` installer does: the
// skill's files in .agents/skills, relative links to it from
// .claude/skills and .cursor/skills.
func npxProject(t *testing.T) string {
	t.Helper()
	project := t.TempDir()
	writeSkill(t, project, ".agents/skills/pdf", "pdf")
	writeSkill(t, project, "tools/skills/lint", "lint")
	for _, agent := range []string{".claude", ".cursor"} {
		symlink(t, "../../.agents/skills/pdf", filepath.Join(project, agent, "skills", "pdf"))
	}
	symlink(t, "../../tools/skills/lint", filepath.Join(project, ".claude", "skills", "lint"))
	return project
}

// TestNpxSkillsLayout: a project laid out by `npx skills` loads its skill
// through any agent's folder, once.
func TestNpxSkillsLayout(t *testing.T) {
	project := npxProject(t)
	claude := filepath.Join(project, ".claude", "skills")
	agents := filepath.Join(project, ".agents", "skills")

	t.Run("the agent's folder alone", func(t *testing.T) {
		snap := newLoader(t, nil, loader.Source{Name: "claude", Dir: claude}).Snapshot()
		wantNames(t, names(snap), "lint@claude:lint", "pdf@claude:pdf")
		only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 0)
	})
	t.Run("both folders", func(t *testing.T) {
		snap := newLoader(t, nil, loader.Source{Name: "claude", Dir: claude}, loader.Source{Name: "agents", Dir: agents}).Snapshot()
		wantNames(t, names(snap), "lint@claude:lint", "pdf@claude:pdf")
		only(t, snap.Diagnostics(), diagnostics.NameCollision, 0)
		if nl := snap.NotLoaded(); len(nl) != 0 {
			t.Errorf("not loaded: %+v", nl)
		}
	})
	t.Run("the project", func(t *testing.T) {
		snap := newLoader(t, nil, loader.Source{Name: "p", Dir: project}).Snapshot()
		wantNames(t, names(snap), "lint@p:tools/skills/lint", "pdf@p:.agents/skills/pdf")
		only(t, snap.Diagnostics(), diagnostics.NameCollision, 0)
	})
	t.Run("NoAgentLinks", func(t *testing.T) {
		snap := newLoader(t, nil, loader.Source{Name: "claude", Dir: claude, NoAgentLinks: true}).Snapshot()
		wantNames(t, names(snap))
		only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 2)
	})
	t.Run("LinkRoots", func(t *testing.T) {
		snap := newLoader(t, nil, loader.Source{Name: "claude", Dir: claude, NoAgentLinks: true, LinkRoots: []string{agents}}).Snapshot()
		wantNames(t, names(snap), "pdf@claude:pdf")
		only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 1)
	})
}

// TestAgentLinksStayInTheProject: a link from an agent's folder out of the
// project, or from a folder that is no agent's, is still refused.
func TestAgentLinksStayInTheProject(t *testing.T) {
	project, outside := npxProject(t), t.TempDir()
	writeSkill(t, outside, "stolen", "stolen")
	claude := filepath.Join(project, ".claude", "skills")
	symlink(t, filepath.Join(outside, "stolen"), filepath.Join(claude, "stolen"))
	plain := filepath.Join(project, "skills")
	symlink(t, "../.agents/skills/pdf", filepath.Join(plain, "pdf"))

	snap := newLoader(t, nil, loader.Source{Name: "claude", Dir: claude}).Snapshot()
	wantNames(t, names(snap), "lint@claude:lint", "pdf@claude:pdf")
	esc := only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 1)
	if len(esc) == 1 && esc[0].Path != filepath.Join(claude, "stolen") {
		t.Errorf("%v", esc)
	}
	// ./skills is no agent's folder: its links stay inside it.
	snap = newLoader(t, nil, loader.Source{Name: "plain", Dir: plain}).Snapshot()
	wantNames(t, names(snap))
	only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 1)
}

func TestAgentSkillDirs(t *testing.T) {
	dirs := loader.AgentSkillDirs()
	if dirs[0] != ".agents/skills" || !slices.Contains(dirs, ".claude/skills") || !slices.Equal(dirs, loader.ConventionalRoots()) {
		t.Errorf("%v", dirs)
	}
	dirs[0] = "changed"
	if loader.AgentSkillDirs()[0] != ".agents/skills" {
		t.Error("the list is shared with callers")
	}
}

// TestHomeAgentLinks: links into the user's agent skills folders are
// followed from any source; links elsewhere in the home are not, even from
// the home's own agent folders.
func TestHomeAgentLinks(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	writeSkill(t, home, ".agents/skills/global", "global")
	writeSkill(t, home, "notes/private", "private")
	symlink(t, "../../.agents/skills/global", filepath.Join(home, ".claude", "skills", "global"))
	symlink(t, "../../notes/private", filepath.Join(home, ".claude", "skills", "private"))
	host := filepath.Join(t.TempDir(), "skills")
	symlink(t, filepath.Join(home, ".agents", "skills", "global"), filepath.Join(host, "global"))

	snap := newLoader(t, nil, loader.Source{Name: "user", Dir: filepath.Join(home, ".claude", "skills")}).Snapshot()
	wantNames(t, names(snap), "global@user:global")
	only(t, snap.Diagnostics(), diagnostics.SymlinkEscape, 1)
	snap = newLoader(t, nil, loader.Source{Name: "host", Dir: host}).Snapshot()
	wantNames(t, names(snap), "global@host:global")
}
