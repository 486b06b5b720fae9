package loader

import (
	"os"
	"path/filepath"
	"slices"
)

// agentSkillDirs are the skills folders agents keep in a project, and most
// of them in the user's home too: ".agents/skills", shared by several agents
// and the folder the `npx skills` installer copies skills into, then one
// folder per agent, which that installer fills with links into
// .agents/skills. docs/dialects.md lists them with their agents.
var agentSkillDirs = []string{
	".agents/skills",
	".adal/skills", ".agent/skills", ".augment/skills", ".claude/skills", ".cline/skills",
	".codebuddy/skills", ".codex/skills", ".commandcode/skills", ".continue/skills", ".crush/skills",
	".cursor/skills", ".factory/skills", ".gemini/skills", ".github/skills", ".goose/skills",
	".iflow/skills", ".junie/skills", ".kilocode/skills", ".kiro/skills", ".kode/skills",
	".mcpjam/skills", ".mux/skills", ".neovate/skills", ".opencode/skills", ".openhands/skills",
	".pi/skills", ".pochi/skills", ".qoder/skills", ".qwen/skills", ".roo/skills", ".trae/skills",
	".vibe/skills", ".windsurf/skills", ".zencoder/skills",
}

// AgentSkillDirs returns the skills folders agents keep in a project, as
// slash paths relative to the project's root: ".agents/skills" first, then
// ".claude/skills", ".cursor/skills" and the others, in byte order. The same
// folders under the user's home hold the user's skills. Discovery searches
// them below a source like any folder ([ConventionalRoots]), and symbolic
// links in a source may lead into them (see [Source]).
func AgentSkillDirs() []string { return slices.Clone(agentSkillDirs) }

// agentDotDir reports whether name is the dot folder of one of the agent
// skills folders (".claude" for ".claude/skills").
func agentDotDir(name string) bool {
	return slices.Contains(agentSkillDirs, name+"/skills")
}

// AgentProject returns the project an agent skills folder belongs to:
// /p for /p/.claude/skills (or a folder inside it), "" when dir is in no
// agent skills folder ([AgentSkillDirs]). Links from such a source may lead
// anywhere in the project, and the `npx skills` installer keeps the
// project's lock file there.
func AgentProject(dir string) string { return projectOf(dir) }

// projectOf returns the project folder of a source at dir when dir is, or
// lies in, an agent skills folder (/p/.claude/skills gives /p); "" otherwise.
func projectOf(dir string) string {
	for d := filepath.Clean(dir); ; {
		parent := filepath.Dir(d)
		if filepath.Base(d) == "skills" && agentDotDir(filepath.Base(parent)) {
			return filepath.Dir(parent)
		}
		if parent == d {
			return ""
		}
		d = parent
	}
}

// linkRoots returns the folders, besides the source's own, that links in a
// source may lead into: its LinkRoots, then unless NoAgentLinks the project
// Dir belongs to (when Dir is, or lies in, an agent skills folder of a
// project) and the agent skills folders of the user's home. When that
// project is the home itself, only its agent skills folders count.
func (src Source) linkRoots() []string {
	roots := slices.Clone(src.LinkRoots)
	if src.NoAgentLinks || src.Dir == "" {
		return roots
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	if p := projectOf(src.Dir); p != "" && p != filepath.Clean(home) {
		roots = append(roots, p)
	}
	if home != "" {
		for _, d := range agentSkillDirs {
			roots = append(roots, filepath.Join(home, filepath.FromSlash(d)))
		}
	}
	return roots
}

// realRoots resolves the folders of linkRoots that exist, for comparing
// link targets with.
func realRoots(roots []string) []string {
	var out []string
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			continue
		}
		if real, err := filepath.EvalSymlinks(r); err == nil && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// withinAny reports whether target lies in one of roots.
func withinAny(roots []string, target string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return within(r, target) })
}
