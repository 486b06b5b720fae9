package skill_test

import (
	"runtime"
	"testing"
)

func TestDeclaredDeps(t *testing.T) {
	const plain = "---\nname: d\ndescription: x\n---\n"
	other := "plan9"
	if runtime.GOOS == other {
		other = "linux"
	}
	for _, tc := range []struct {
		name         string
		md           string
		files        []string
		python, node bool
	}{
		{"nothing", plain, nil, false, false},
		{"config python", plain, []string{"skill.config.yaml", "runtime: python\nentrypoint: a.py\ndependencies:\n  python:\n    inline: [requests]\n"}, true, false},
		{"config node", plain, []string{"skill.config.yaml", "runtime: node\nentrypoint: a.js\ndependencies:\n  node:\n    packages: [left-pad]\n"}, false, true},
		{"config node without packages", plain, []string{"skill.config.yaml", "runtime: node\nentrypoint: a.js\ndependencies:\n  node:\n    packages: []\n"}, false, false},
		{"install spec uv", "---\nname: d\ndescription: x\nmetadata:\n  install:\n    - {kind: uv, package: requests}\n---\n", nil, true, false},
		{"install spec npm", "---\nname: d\ndescription: x\nmetadata:\n  install:\n    - {kind: NPM, package: left-pad}\n---\n", nil, false, true},
		{"install spec for another OS", "---\nname: d\ndescription: x\nmetadata:\n  install:\n    - {kind: node, package: left-pad, os: [" + other + "]}\n---\n", nil, false, false},
		{"install spec brew", "---\nname: d\ndescription: x\nmetadata:\n  install:\n    - {kind: brew, formula: jq}\n---\n", nil, false, false},
		{"package.json dependencies", plain, []string{"package.json", `{"dependencies":{"left-pad":"1.3.0"}}`}, false, true},
		{"package.json peer", plain, []string{"package.json", `{"peerDependencies":{"react":"*"}}`}, false, true},
		{"package.json dev only", plain, []string{"package.json", `{"devDependencies":{"jest":"*"}}`}, false, false},
		{"package.json empty", plain, []string{"package.json", `{"name":"x","dependencies":{}}`}, false, false},
		{"package.json broken", plain, []string{"package.json", `{"dependencies":`}, false, true},
		{"package.json workspaces", plain, []string{"package.json", `{"workspaces":["a"]}`}, false, true},
		{"package.json not an object of deps", plain, []string{"package.json", `{"dependencies":["left-pad"]}`}, false, true},
		{"nested package.json", plain, []string{"assets/package.json", `{"dependencies":{"left-pad":"1.3.0"}}`}, false, false},
	} {
		s, diags := load(t, "d", tc.md, false, tc.files...)
		if s == nil {
			t.Fatalf("%s: not loaded: %v", tc.name, diags)
		}
		if python, node := s.DeclaredDeps(); python != tc.python || node != tc.node {
			t.Errorf("%s: DeclaredDeps = %v, %v; want %v, %v", tc.name, python, node, tc.python, tc.node)
		}
	}
}
