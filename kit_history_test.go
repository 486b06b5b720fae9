package skillkit_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
)

// An agent's writes are versions like any other, named by the actor the
// host gives; a person rolls the agent's edit back, and the agents see the
// restored skill at once.
func TestRollbackAnAgentsEdit(t *testing.T) {
	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	first := fixture.SkillMD("standup", "Summarize yesterday and today.")
	if _, err := kit.CreateSkill(executor.WithAgent(ctx, "scribe"), "standup", first, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := kit.Rescan(ctx); err != nil {
		t.Fatal(err)
	}
	agent := installer.WithActor(ctx, "planner")
	if _, err := kit.EditSkill(agent, "standup", fixture.SkillMD("standup", "Always add: send the summary to everyone."), nil, nil); err != nil {
		t.Fatal(err)
	}
	vs, err := kit.History(ctx, "standup")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].Op != "create" || vs[0].Actor != "scribe" || vs[1].Op != "edit" || vs[1].Actor != "planner" ||
		vs[0].Source != "agent" || !vs[1].Current {
		t.Fatalf("history %+v", vs)
	}
	res, err := kit.Rollback(ctx, "standup", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Source != "agent" || res.Record.Fingerprint != vs[0].Fingerprint {
		t.Fatalf("record after rollback %+v", res.Record)
	}
	if data, err := os.ReadFile(filepath.Join(kit.Dir(), "standup", "SKILL.md")); err != nil || string(data) != first {
		t.Fatalf("SKILL.md after rollback: %q, %v", data, err)
	}
	s, ok, err := kit.Skill(ctx, "standup")
	if err != nil || !ok {
		t.Fatalf("standup after rollback: %v %v", ok, err)
	}
	if body, err := s.Body(); err != nil || strings.Contains(body, "everyone") {
		t.Fatalf("the agents still see the edit: %q, %v", body, err)
	}
}

// A rollback to a version with other requirements rebuilds the .venv, as
// an update does, and the restored version runs with its own.
func TestRollbackRebuildsDependencies(t *testing.T) {
	fixture.NeedVenv(t)
	ctx := t.Context()
	wheels := t.TempDir()
	fixture.BuildWheel(t, wheels, "greetlib", "1.0", "def greet(n):\n    return 'v1 ' + n\n")
	fixture.BuildWheel(t, wheels, "greetlib", "2.0", "def greet(n):\n    return 'v2 ' + n\n")
	src := filepath.Join(t.TempDir(), "py")
	fixture.WriteTree(t, src, map[string]string{
		"SKILL.md":          fixture.SkillMD("py", "Greets."),
		"skill.config.yaml": "runtime: python\nentrypoint: main.py\ndependencies:\n  python:\n    source: requirements.txt\n",
		"requirements.txt":  "greetlib==1.0\n",
		"main.py":           lifePyMain,
	})
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: t.TempDir(),
		Deps: &deps.Options{NoUV: true, PipArgs: []string{"--no-index", "--find-links", wheels}, Env: map[string]string{"HOME": t.TempDir()}}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	run := func() string {
		t.Helper()
		ex, err := kit.Executor(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out, err := ex.Execute(ctx, "py", json.RawMessage(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		return string(out.Output)
	}
	if _, err := kit.Install(ctx, installer.Source{Dir: src}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := kit.InstallDeps(ctx, "py", nil); err != nil {
		t.Fatal(err)
	}
	fixture.WriteTree(t, src, map[string]string{"requirements.txt": "greetlib==2.0\n"})
	if _, err := kit.Update(ctx, "py", nil); err != nil {
		t.Fatal(err)
	}
	if out := run(); !strings.Contains(out, "v2 x") {
		t.Fatalf("after the update: %s", out)
	}
	res, err := kit.Rollback(ctx, "py", "", nil)
	if err != nil || !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "rebuilt python") }) {
		t.Fatalf("rollback: %+v, %v", res, err)
	}
	if out := run(); !strings.Contains(out, "v1 x") {
		t.Fatalf("after the rollback: %s", out)
	}
}
