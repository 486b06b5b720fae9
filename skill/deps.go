package skill

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
)

// Ecosystem names the package manager family an install spec's Kind
// belongs to, for the dependencies installed into the skill's own folder:
// "python" for uv, pip and python, "node" for node and npm, "" for the
// rest (brew, go, download, ...), which install elsewhere.
func (spec InstallSpec) Ecosystem() string {
	switch strings.ToLower(spec.Kind) {
	case "uv", "pip", "python":
		return "python"
	case "node", "npm":
		return "node"
	}
	return ""
}

// AppliesHere reports whether the spec is for this operating system: it
// names none, or this one.
func (spec InstallSpec) AppliesHere() bool {
	return len(spec.OS) == 0 || slices.Contains(spec.OS, runtime.GOOS)
}

// maxPackageJSON bounds the package.json DeclaredDeps reads.
const maxPackageJSON = 1 << 20

// DeclaredDeps reports, without checking them, whether s declares Python
// packages (installed into its .venv) and npm packages (into its
// node_modules): skill.config.yaml's dependencies, the frontmatter's install
// specs of those kinds for this OS, or a top-level package.json that lists
// dependencies. A package.json that cannot be read as a package counts as
// declaring some: installing it is what reports its fault. The executor
// refuses to run a skill whose declared packages are missing, and the
// dependency checker reports them, by this one rule.
func (s *Skill) DeclaredDeps() (python, node bool) {
	if s.Config != nil {
		python = s.Config.Dependencies.Python != nil
		node = s.Config.Dependencies.Node != nil && len(s.Config.Dependencies.Node.Packages) > 0
	}
	for _, spec := range s.Frontmatter.Install {
		if !spec.AppliesHere() || spec.Package == "" {
			continue
		}
		python = python || spec.Ecosystem() == "python"
		node = node || spec.Ecosystem() == "node"
	}
	if !node {
		if data, err := s.ReadFileLimit("package.json", maxPackageJSON); err == nil {
			node = packageJSONDeclares(data)
		}
	}
	return python, node
}

// packageJSONDeclares reports whether a package.json lists packages npm
// installs (devDependencies are omitted), or cannot be read as a package.
func packageJSONDeclares(data []byte) bool {
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return true
	}
	if _, ok := doc["workspaces"]; ok {
		return true
	}
	for _, sec := range [...]string{"dependencies", "optionalDependencies", "peerDependencies"} {
		raw, ok := doc[sec]
		if !ok {
			continue
		}
		var deps map[string]json.RawMessage
		if json.Unmarshal(raw, &deps) != nil || len(deps) > 0 {
			return true
		}
	}
	return false
}
