package openaitools_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	openaitools "github.com/skillkit-go/skillkit/adapters/openai"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// Issue 32: a Toolset whose catalog leaves skills out offers
// search_skills through the framework's tool types, and the model's call
// with a task finds a left-out skill, which it then loads by name.
func TestSearchFindsALeftOutSkill(t *testing.T) {
	dir := t.TempDir()
	write := func(name, desc string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		md := fmt.Sprintf("---\nname: %s\ndescription: %s\n---\nSteps for %s.\n", name, desc, name)
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	areas := []string{"calendar invites", "git rebases", "docker volumes", "unit conversions", "weather reports"}
	for i := range 120 {
		write(fmt.Sprintf("helper-%03d", i), fmt.Sprintf("Helps with %s, case %d.", areas[i%len(areas)], i))
	}
	write("tax-receipts", "Sort scanned receipts by expense category and total them for a tax return.")
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = kit.Close() })
	// The catalog keeps every skill but tax-receipts before it.
	last := func(s *skill.Skill) float64 {
		if s.Name == "tax-receipts" {
			return -1
		}
		return 0
	}
	ts, err := kit.Toolset(t.Context(), tools.Agent{Catalog: &prompt.Options{MaxChars: 2000, Priority: last}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ts.Catalog.Omitted, "tax-receipts") {
		t.Fatalf("the catalog lists tax-receipts; the test needs it left out")
	}
	set, err := openaitools.New(ts.Tools, nil)
	if err != nil {
		t.Fatal(err)
	}
	var offered []string
	for _, tool := range set.ChatTools() {
		offered = append(offered, tool.OfFunction.Function.Name)
	}
	if !slices.Contains(offered, tools.SearchSkillsName) {
		t.Fatalf("the chat tools are %v, without search_skills", offered)
	}
	msg := assistant(t, `[
		{"id":"call_1","type":"function","function":{"name":"search_skills","arguments":"{\"query\":\"add up my receipts for this year's taxes\",\"limit\":3}"}},
		{"id":"call_2","type":"function","function":{"name":"read_skill","arguments":"{\"name\":\"tax-receipts\"}"}}
	]`)
	msgs, err := set.ChatToolMessages(t.Context(), msg)
	if err != nil {
		t.Fatal(err)
	}
	found := roundTrip(t, msgs[0]).(map[string]any)["content"].(string)
	if !strings.HasPrefix(found, "Skills for") || !strings.Contains(strings.SplitN(found, "\n", 3)[1], "- tax-receipts (prompt)") {
		t.Errorf("search_skills answered:\n%s", found)
	}
	if read := roundTrip(t, msgs[1]).(map[string]any)["content"].(string); !strings.Contains(read, "Steps for tax-receipts.") {
		t.Errorf("read_skill answered:\n%s", read)
	}
}
