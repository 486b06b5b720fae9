package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSearchCommand(t *testing.T) {
	dir := t.TempDir()
	for name, front := range map[string]string{
		"pdf-forms":    "description: Fill in and flatten PDF forms.",
		"csv-clean":    "description: Clean CSV files, fix delimiters and encodings.",
		"ocr-zh":       "description: 识别图片中的中文文字。",
		"browse-forms": "description: Fill web forms in a browser.\nmetadata:\n  conditions:\n    requires_tools: [browser]",
	} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte("---\nname: "+name+"\n"+front+"\n---\nBody.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "search", "--dir", dir, "--json", "fill", "in", "a", "form")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Query  string
		Skills []struct{ Name, Class string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got.Skills {
		names = append(names, s.Name)
	}
	if got.Query != "fill in a form" || !slices.Equal(names, []string{"pdf-forms", "browse-forms"}) {
		t.Errorf("query %q found %v", got.Query, names)
	}
	// An agent without the browser tool does not find browse-forms.
	_, out, _ = runCLI(t, "search", "--dir", dir, "--tools", "bash", "--limit", "1", "web form browser")
	if strings.Contains(out, "browse-forms") {
		t.Errorf("--tools bash found a skill that needs a browser:\n%s", out)
	}
	if _, out, _ = runCLI(t, "search", "--dir", dir, "把图片里的文字识别出来"); !strings.Contains(out, "ocr-zh") || !strings.Contains(out, "SCORE") {
		t.Errorf("a Chinese query:\n%s", out)
	}
	if code, _, errOut := runCLI(t, "search", "--dir", dir, "quantum chromodynamics"); code != exitOK || !strings.Contains(errOut, "no skill of 4 skills matches") {
		t.Errorf("no match: exit %d, %s", code, errOut)
	}
	for _, args := range [][]string{{"search", "--dir", dir}, {"search", "--dir", dir, "--limit", "0", "pdf"}} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

// Issue 32: two runs of a skill are two uses; the skills never used are
// named; nothing of the input is kept.
func TestUsageCommand(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../examples/skills")); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if code, _, errOut := runCLI(t, "run", "word-stats", "--dir", dir, "--input", `{"text":"private words"}`); code != exitOK {
			t.Fatalf("run: %s", errOut)
		}
	}
	if code, _, _ := runCLI(t, "run", "word-stats", "--dir", dir, "--input", `{}`); code != exitFailure {
		t.Fatal("a run with a bad input succeeded")
	}
	code, out, errOut := runCLI(t, "usage", "--dir", dir, "--json")
	if code != exitOK {
		t.Fatalf("usage: %s", errOut)
	}
	var got struct {
		Skills []struct {
			Skill     string
			Uses      int
			Failures  int
			Installed bool
			ByTool    map[string]int `json:"by_tool"`
		}
		NeverUsed []string `json:"never_used"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Skills) != 1 || got.Skills[0].Skill != "word-stats" || got.Skills[0].Uses != 3 || got.Skills[0].Failures != 1 ||
		!got.Skills[0].Installed || got.Skills[0].ByTool["execute_skill"] != 3 {
		t.Errorf("usage %s", out)
	}
	if !slices.Contains(got.NeverUsed, "date-diff") || slices.Contains(got.NeverUsed, "word-stats") {
		t.Errorf("never used: %v", got.NeverUsed)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".skillhub", "usage.json"))
	if err != nil || strings.Contains(string(data), "private") {
		t.Errorf("usage file %s: %v", data, err)
	}
	_, out, _ = runCLI(t, "usage", "--dir", dir)
	if !strings.Contains(out, "word-stats") || !strings.Contains(out, "Never used (3): csv-tools, date-diff, release-notes") {
		t.Errorf("usage:\n%s", out)
	}
	// With --db the uses go to the database, which starts empty.
	db := "sqlite:" + filepath.Join(t.TempDir(), "fleet.db")
	if code, _, errOut := runCLI(t, "run", "word-stats", "--dir", dir, "--db", db, "--input", `{"text":"a"}`); code != exitOK {
		t.Fatalf("run --db: %s", errOut)
	}
	_, out, _ = runCLI(t, "usage", "--dir", dir, "--db", db, "--json")
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Skills) != 1 || got.Skills[0].Uses != 1 {
		t.Errorf("usage --db: %s", out)
	}
}
