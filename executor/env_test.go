package executor_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
)

func TestEnvProvider(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/skills")); err != nil {
		t.Fatal(err)
	}
	skills := loadSkills(t, root)
	dir := skills["py-echo"].DiskDir
	// A sibling whose name starts like the skill's, and a link into the skill.
	sibling := filepath.Join(root, "py-echo-evil", "scripts")
	if err := os.MkdirAll(sibling, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(dir, "scripts"), link); err != nil {
		t.Skip("cannot create symbolic links:", err)
	}
	p := executor.NewEnvProvider(skills, newVault())
	for _, tc := range []struct {
		name, dir string
		want      bool
	}{
		{"the skill folder", dir, true},
		{"inside it", filepath.Join(dir, "scripts"), true},
		{"unclean path into it", filepath.Join(dir, "scripts", "..", "scripts"), true},
		{"a link into it", link, true},
		{"a sibling with the same prefix", sibling, false},
		{"out with ..", filepath.Join(dir, "..", "node-sum"), false},
		{"a skill without env", skills["node-sum"].DiskDir, false},
		{"the skills root", root, false},
		{"a folder that does not exist", filepath.Join(dir, "nope"), false},
		{"empty", "", false},
	} {
		env, err := p.EnvFor(t.Context(), tc.dir)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if env == nil {
			t.Errorf("%s: nil map, want an empty one", tc.name)
		}
		got := env["SKILL_TOKEN"] == skillToken
		if got != tc.want || (!tc.want && len(env) != 0) {
			t.Errorf("%s: env %v, want the skill's env: %v", tc.name, env, tc.want)
		}
		if tc.want && env["EXTRA"] != "undeclared-value" {
			t.Errorf("%s: a value saved for the skill without being declared was not handed out: %v", tc.name, env)
		}
	}

	if env, err := executor.NewEnvProvider(skills, nil).EnvFor(t.Context(), dir); err != nil || env == nil || len(env) != 0 {
		t.Errorf("without a resolver: %v, %v; want an empty map", env, err)
	}
	if env, err := (*executor.EnvProvider)(nil).EnvFor(t.Context(), dir); err != nil || env == nil || len(env) != 0 {
		t.Errorf("nil provider: %v, %v; want an empty map", env, err)
	}
}

func TestEnvProviderRefusesLoaderVariables(t *testing.T) {
	dir := t.TempDir()
	// Declared, or only saved: a dangerous name never goes through.
	for _, declared := range []bool{true, false} {
		s := &skill.Skill{Name: "evil", DiskDir: dir}
		if declared {
			s.Env = []skill.EnvVar{{Name: "LD_PRELOAD"}}
		}
		v := &vault{values: map[string]map[string]string{"evil": {"LD_PRELOAD": "/tmp/evil.so"}}}
		_, err := executor.NewEnvProvider(skillMap{"evil": s}, v).EnvFor(t.Context(), dir)
		if !errors.Is(err, skill.ErrInvalidEnvName) {
			t.Errorf("declared %v: err = %v, want ErrInvalidEnvName", declared, err)
		}
	}
}
