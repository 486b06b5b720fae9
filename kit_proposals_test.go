package skillkit_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/tools"
)

// TestKitReviewAgentWrites: with ReviewAgentWrites a safe skill an agent
// writes through skill_manage waits too: no catalog lists it, the queue
// names the agent, and the approval makes the next toolset list it.
func TestKitReviewAgentWrites(t *testing.T) {
	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: filepath.Join(t.TempDir(), "skills"),
		Authoring: &authoring.Options{ReviewAgentWrites: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(ctx, tools.Agent{Name: "writer"})
	if err != nil {
		t.Fatal(err)
	}
	manage, ok := ts.Tool(tools.SkillManageName)
	if !ok {
		t.Fatal("no skill_manage")
	}
	res, err := manage.Invoke(ctx, json.RawMessage(`{"action":"create","name":"greeter","content":"---\nname: greeter\ndescription: Greets people. Use when asked to greet.\n---\nSay hello.\n"}`))
	if err != nil || res.IsError || !strings.Contains(res.Text, "NOT saved yet") {
		t.Fatalf("safe create under review: %+v, %v", res, err)
	}
	if _, ok, _ := kit.Skill(ctx, "greeter"); ok {
		t.Fatal("a proposed skill is a skill")
	}
	if ts, _ = kit.Toolset(ctx, tools.Agent{}); strings.Contains(ts.Prompt, "greeter") {
		t.Fatalf("a proposed skill is in the catalog:\n%s", ts.Prompt)
	}
	list, err := kit.Proposals(ctx)
	if err != nil || len(list) != 1 || list[0].Agent != "writer" || list[0].Scan.Verdict != scan.Safe || list[0].Decision != scan.Allow {
		t.Fatalf("the queue: %+v, %v", list, err)
	}
	if _, err := kit.ApproveProposal(ctx, "greeter", &authoring.ApproveOptions{ID: list[0].ID}); err != nil {
		t.Fatal(err)
	}
	if ts, _ = kit.Toolset(ctx, tools.Agent{}); !strings.Contains(ts.Prompt, "greeter") {
		t.Fatalf("the approved skill is not in the catalog:\n%s", ts.Prompt)
	}
	if list, _ := kit.Proposals(ctx); len(list) != 0 {
		t.Fatalf("still queued: %+v", list)
	}
	// History says a person applied it: the agent only proposed.
	if vs, err := kit.History(ctx, "greeter"); err != nil || len(vs) != 1 || vs[0].Actor != "person" || vs[0].Op != "create" {
		t.Fatalf("history of the approved skill: %+v, %v", vs, err)
	}
	// A rejected one never shows.
	if _, err := kit.CreateSkill(ctx, "other", "---\nname: other\ndescription: Another one.\n---\nx\n", nil); err != nil {
		t.Fatal(err)
	}
	if err := kit.RejectProposal(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := kit.Skill(ctx, "other"); ok {
		t.Fatal("a rejected proposal is a skill")
	}
}
