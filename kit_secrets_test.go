package skillkit_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/tools"
)

const ghConfig = "runtime: bash\nentrypoint: run.sh\nenv:\n  - {name: GH_TOKEN, required: true}\n"
const ghRun = `printf '{"token":"%s"}' "${GH_TOKEN:-}"` + "\n"

// TestSecretBelongsToOneInstall: a skill's saved secret never reaches a
// later skill of the same name — uninstalled with the defaults (which
// purge), or with its secrets kept — whether the new one is written by an
// agent or installed from another folder, or forced over it from another
// folder; an update keeps it.
func TestSecretBelongsToOneInstall(t *testing.T) {
	for _, keep := range []bool{false, true} {
		for _, next := range []string{"skill_manage", "another folder", "forced over it"} {
			t.Run(fmt.Sprintf("keep=%v/%s", keep, next), func(t *testing.T) {
				ctx := t.Context()
				dir := t.TempDir()
				first := t.TempDir()
				write(t, first, "SKILL.md", "---\nname: gh\ndescription: GitHub.\n---\nx\n")
				write(t, first, "skill.config.yaml", ghConfig)
				write(t, first, "run.sh", ghRun)
				kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
				if err != nil {
					t.Fatal(err)
				}
				defer kit.Close()
				if _, err := kit.Install(ctx, installer.Source{Dir: first}, nil); err != nil {
					t.Fatal(err)
				}
				if err := kit.Vault().Save(ctx, "gh", map[string]string{"GH_TOKEN": "ghp_secret"}); err != nil {
					t.Fatal(err)
				}
				// An update from the same origin keeps the secret.
				write(t, first, "SKILL.md", "---\nname: gh\ndescription: GitHub, v2.\n---\nx\n")
				if res, err := kit.Update(ctx, "gh", nil); err != nil || res.UpToDate {
					t.Fatalf("update: %+v, %v", res, err)
				}
				if env, err := kit.EnvFor(ctx, filepath.Join(dir, "gh")); err != nil || env["GH_TOKEN"] != "ghp_secret" {
					t.Fatalf("after an update: %v, %v", env, err)
				}
				if next != "forced over it" {
					if err := kit.Uninstall(ctx, "gh", &installer.UninstallOptions{KeepSecrets: keep}); err != nil {
						t.Fatal(err)
					}
				}
				switch next {
				case "skill_manage":
					ts, err := kit.Toolset(ctx, tools.Agent{})
					if err != nil {
						t.Fatal(err)
					}
					manage, _ := ts.Tool(tools.SkillManageName)
					res, err := manage.Invoke(ctx, json.RawMessage(`{"action":"create","name":"gh","content":"---\nname: gh\ndescription: Mine now.\nmetadata:\n  env:\n    - {name: GH_TOKEN}\n---\nx\n"}`))
					if err != nil || res.IsError {
						t.Fatalf("skill_manage create: %+v, %v", res, err)
					}
				case "another folder", "forced over it":
					other := t.TempDir()
					write(t, other, "SKILL.md", "---\nname: gh\ndescription: Another author's gh.\n---\nx\n")
					write(t, other, "skill.config.yaml", ghConfig)
					write(t, other, "run.sh", ghRun)
					if _, err := kit.Install(ctx, installer.Source{Dir: other}, &installer.InstallOptions{Force: true}); err != nil {
						t.Fatal(err)
					}
				}
				env, err := kit.EnvFor(ctx, filepath.Join(dir, "gh"))
				if err != nil || env["GH_TOKEN"] != "" {
					t.Fatalf("the new gh gets %v, %v", env, err)
				}
				st, err := kit.Vault().Configured(ctx, "gh", nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range st {
					if s.HasValue {
						t.Errorf("secrets list shows a value for the new gh: %+v", s)
					}
				}
				if next != "skill_manage" {
					ex, err := kit.Executor(ctx)
					if err != nil {
						t.Fatal(err)
					}
					out, err := ex.Execute(ctx, "gh", json.RawMessage(`{}`))
					if strings.Contains(string(out.Output), "ghp_secret") || strings.Contains(out.Error, "ghp_secret") {
						t.Fatalf("execute_skill gave the new gh the old token: %s %v", out.Output, err)
					}
				}
			})
		}
	}
}
