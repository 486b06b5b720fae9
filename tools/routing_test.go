package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
	"github.com/skillkit-go/skillkit/usage"
)

// manySkills writes n filler skills and three about invoices: one the
// agent sees, one hidden from the catalog (disable-model-invocation), one
// the agent lacks the tool for.
func manySkills(t *testing.T, n int) (*loader.Loader, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) { writeFile(t, dir, rel, content) }
	topics := []string{"weather forecasts", "git branches", "spreadsheet formulas", "docker images", "email drafts", "unit conversions"}
	for i := range n {
		write(fmt.Sprintf("helper-%03d/SKILL.md", i), fmt.Sprintf("---\nname: helper-%03d\ndescription: Works with %s, variant %d.\n---\nSteps.\n", i, topics[i%len(topics)], i))
	}
	write("invoice-parser/SKILL.md", "---\nname: invoice-parser\ndescription: Read supplier invoices (PDF or scans) and extract the totals, VAT and due dates.\n---\nSteps.\n")
	write("invoice-secret/SKILL.md", "---\nname: invoice-secret\ndescription: Reads supplier invoices and extracts totals and VAT.\ndisable-model-invocation: true\n---\n")
	write("invoice-browser/SKILL.md", "---\nname: invoice-browser\ndescription: Extract supplier invoice totals and VAT from a web portal.\nmetadata:\n  conditions:\n    requires_tools: [browser]\n---\n")
	l, err := loader.New(context.Background(), []loader.Source{{Name: "workspace", FS: os.DirFS(dir), Dir: dir}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l, dir
}

// writeFile writes content at rel under dir, making the folders.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// last ranks invoice-parser below every other skill, so a catalog that
// leaves skills out leaves it out.
func last(s *skill.Skill) float64 {
	if s.Name == "invoice-parser" {
		return -1
	}
	return 0
}

func searchFor(t *testing.T, ts tools.Toolset, query string) []string {
	t.Helper()
	find, ok := ts.Tool(tools.SearchSkillsName)
	if !ok {
		t.Fatalf("no search_skills in %v", toolNames(ts))
	}
	res := call(t, find, fmt.Sprintf(`{"query": %q, "limit": 20}`, query))
	if res.IsError {
		t.Fatalf("search_skills: %s", res.Text)
	}
	var out struct {
		Skills []struct{ Name string } `json:"skills"`
	}
	if err := json.Unmarshal(res.Structured, &out); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range out.Skills {
		names = append(names, s.Name)
		if !strings.Contains(res.Text, "- "+s.Name+" (") {
			t.Errorf("the text does not name %s:\n%s", s.Name, res.Text)
		}
	}
	return names
}

// Issue 32: a catalog that leaves skills out comes with search_skills and
// says so once; search_skills finds a left-out skill for a task, never a
// skill hidden from the agent.
func TestResolveRoutesToSearch(t *testing.T) {
	l, _ := manySkills(t, 60)
	r := &tools.Resolver{Loader: l}
	ctx := context.Background()
	ts, err := r.Resolve(ctx, tools.Agent{Catalog: &prompt.Options{MaxChars: 1500, Priority: last}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ts.Catalog.Omitted, "invoice-parser") {
		t.Fatalf("invoice-parser is listed; the test needs it left out: %v", ts.Catalog.Listed)
	}
	if got := toolNames(ts); !slices.Equal(got, []string{"read_skill", "read_skill_file", "search_skills"}) {
		t.Errorf("tools %v", got)
	}
	if n := strings.Count(ts.Prompt, "search_skills"); n != 1 {
		t.Errorf("the catalog names search_skills %d times:\n%s", n, ts.Prompt)
	}
	found := searchFor(t, ts, "pull the total amount and VAT out of a supplier's invoice")
	if len(found) == 0 || found[0] != "invoice-parser" {
		t.Errorf("found %v, want invoice-parser first", found)
	}
	for _, hidden := range []string{"invoice-secret", "invoice-browser"} {
		if slices.Contains(found, hidden) {
			t.Errorf("search_skills shows %s, which the agent may not see: %v", hidden, found)
		}
	}
	// An agent with the browser tool sees invoice-browser, and finds it.
	withBrowser, err := r.Resolve(ctx, tools.Agent{Tools: []string{"browser"}, Catalog: &prompt.Options{MaxChars: 1500, Priority: last}})
	if err != nil {
		t.Fatal(err)
	}
	if found := searchFor(t, withBrowser, "invoice totals from a web portal"); len(found) == 0 || found[0] != "invoice-browser" {
		t.Errorf("with the browser tool: %v", found)
	}
	if found := searchFor(t, ts, "quantum chromodynamics"); len(found) != 0 {
		t.Errorf("a task no skill fits found %v", found)
	}
	// DisableSearch: no tool, and the catalog does not name it.
	off, _ := r.Resolve(ctx, tools.Agent{DisableSearch: true, Catalog: &prompt.Options{MaxChars: 1500}})
	if _, ok := off.Tool(tools.SearchSkillsName); ok || strings.Contains(off.Prompt, "search_skills") || len(off.Catalog.Omitted) == 0 {
		t.Errorf("DisableSearch: tools %v, prompt mentions it: %v", toolNames(off), strings.Contains(off.Prompt, "search_skills"))
	}
	// A catalog that lists every skill: no search_skills, a prompt as before.
	few, _ := r.Resolve(ctx, tools.Agent{Skills: []string{"helper-001", "helper-002"}})
	if _, ok := few.Tool(tools.SearchSkillsName); ok || strings.Contains(few.Prompt, "search_skills") {
		t.Errorf("a full catalog: tools %v", toolNames(few))
	}
}

// The index follows the loader: a skill edited on disk is found by its
// new words after a rescan, and only that skill is indexed again.
func TestSearchFollowsRescans(t *testing.T) {
	l, dir := manySkills(t, 30)
	r := &tools.Resolver{Loader: l}
	ctx := context.Background()
	agent := tools.Agent{Catalog: &prompt.Options{MaxChars: 1200}}
	ts, _ := r.Resolve(ctx, agent)
	searchFor(t, ts, "weather") // builds the index
	// The index holds every skill of the snapshot; each search shows only
	// what the agent sees.
	if r.Search == nil || r.Search.Len() != 33 {
		t.Fatalf("the index was not built from the snapshot's 33 skills")
	}
	if err := os.WriteFile(filepath.Join(dir, "helper-007", "SKILL.md"), []byte("---\nname: helper-007\ndescription: Tune bagpipes and reeds.\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Rescan(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := r.Search.Follow(l.Snapshot())
	if err != nil || st.Updated != 1 || st.Added != 0 || st.Removed != 0 {
		t.Fatalf("sync after one edit: %+v, %v", st, err)
	}
	ts, _ = r.Resolve(ctx, agent)
	if found := searchFor(t, ts, "my bagpipe sounds off"); len(found) != 1 || found[0] != "helper-007" {
		t.Errorf("after the edit: %v", found)
	}
}

// Every call of read_skill, read_skill_file and execute_skill is counted
// for its skill and agent, a mistake as a failure; a call whose
// arguments name no known skill is not; a catalog that must leave skills
// out keeps the used ones.
func TestResolveRecordsUsage(t *testing.T) {
	l, _ := manySkills(t, 40)
	store := usage.NewMemory()
	r := &tools.Resolver{Loader: l, Usage: store}
	ctx := context.Background()
	ts, err := r.Resolve(ctx, tools.Agent{Name: "writer"})
	if err != nil {
		t.Fatal(err)
	}
	read, _ := ts.Tool(tools.ReadSkillName)
	readFile, _ := ts.Tool(tools.ReadSkillFileName)
	call(t, read, `{"name": "invoice-parser"}`)
	call(t, read, `{"name": "invoice-parser", "task": "a private task"}`)
	if res := call(t, readFile, `{"name": "invoice-parser", "path": "missing.md"}`); !res.IsError {
		t.Fatalf("reading a missing file: %+v", res)
	}
	call(t, read, `{"name": "no-such-skill"}`)
	stats, _ := store.Stats(ctx)
	sum := usage.Summarize(stats)
	if len(sum) != 1 || sum[0].Skill != "invoice-parser" || sum[0].Uses != 3 || sum[0].Failures != 1 ||
		sum[0].ByTool[tools.ReadSkillName] != 2 || !slices.Equal(sum[0].Agents, []string{"writer"}) {
		t.Fatalf("usage %+v", sum)
	}
	data, _ := json.Marshal(stats)
	if strings.Contains(string(data), "private") {
		t.Errorf("the task was stored: %s", data)
	}
	// Used skills are kept when skills must be left out, whatever the
	// spread of names would keep.
	for _, budget := range []int{900, 1200, 1500} {
		small, _ := r.Resolve(ctx, tools.Agent{Catalog: &prompt.Options{MaxChars: budget}})
		if len(small.Catalog.Omitted) == 0 || !slices.Contains(small.Catalog.Listed, "invoice-parser") {
			t.Errorf("budget %d: the used skill is left out (%d omitted)", budget, len(small.Catalog.Omitted))
		}
	}
}

// A store that cannot answer is reported, and the catalog still renders.
func TestUsageErrorsGoToTheHost(t *testing.T) {
	l, _ := manySkills(t, 40)
	var errs []error
	r := &tools.Resolver{Loader: l, Usage: brokenStore{}, OnUsageError: func(err error) { errs = append(errs, err) }}
	ts, err := r.Resolve(context.Background(), tools.Agent{Catalog: &prompt.Options{MaxChars: 900}})
	if err != nil || ts.Prompt == "" {
		t.Fatalf("%v", err)
	}
	read, _ := ts.Tool(tools.ReadSkillName)
	if res := call(t, read, `{"name": "invoice-parser"}`); res.IsError {
		t.Fatalf("a failing store broke the call: %s", res.Text)
	}
	if len(errs) != 2 {
		t.Errorf("errors told: %v", errs)
	}
}

type brokenStore struct{}

func (brokenStore) Record(context.Context, usage.Use) error { return fmt.Errorf("disk full") }
func (brokenStore) Stats(context.Context) ([]usage.Stat, error) {
	return nil, fmt.Errorf("disk full")
}
