package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
)

// The commands that list skills open a Kit whose loader keeps nothing for
// a rescan: what stays live is the skills themselves. The budget is the
// loader's for a one-shot scan of the same skills (loader's
// TestOneShotRetainsOnlyTheSkills); a Kit that kept its rescan state
// would hold about 1,300 bytes more per skill.
func TestListCommandsKeepOnlyTheSkills(t *testing.T) {
	const n = 1000
	dir := t.TempDir()
	if err := testcorpus.Generate(dir, n); err != nil {
		t.Fatal(err)
	}
	c := &cli{stdout: io.Discard, stderr: io.Discard, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	flags := &loaderFlags{maxSkills: loader.Unlimited, maxDirs: loader.Unlimited, maxDepth: loader.DefaultMaxDepth, maxFileBytes: loader.DefaultMaxFileBytes}
	before := testcorpus.LiveHeap()
	kit, err := openKit(t.Context(), c, []string{dir}, flags)
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	after := testcorpus.LiveHeap()
	runtime.KeepAlive(kit)
	perSkill := float64(int64(after)-int64(before)) / n
	t.Logf("%.0f bytes retained per skill", perSkill)
	const budget = 2150
	if perSkill > budget {
		t.Errorf("the Kit of list, prompt, doctor and read keeps %.0f bytes per skill, over the budget of %d", perSkill, budget)
	}
}

// largestWrite records the largest single write.
type largestWrite struct {
	bytes.Buffer
	largest int
}

func (w *largestWrite) Write(p []byte) (int, error) {
	w.largest = max(w.largest, len(p))
	return w.Buffer.Write(p)
}

// list --json writes as it goes: the whole document is never one buffer.
func TestListJSONIsWrittenAsItGoes(t *testing.T) {
	const n = 500
	dir := t.TempDir()
	if err := testcorpus.Generate(dir, n); err != nil {
		t.Fatal(err)
	}
	var stdout largestWrite
	c := &cli{stdout: &stdout, stderr: io.Discard, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	if code := run(t.Context(), []string{"list", "--json", "--max-skills", "1000", dir}, c); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var out struct {
		Skills []listedSkill `json:"skills"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || len(out.Skills) != n {
		t.Fatalf("%d skills listed: %v", len(out.Skills), err)
	}
	if stdout.Len() < 100<<10 || stdout.largest > 4096 {
		t.Errorf("%d bytes written, the largest write %d bytes: want the listing written a piece at a time", stdout.Len(), stdout.largest)
	}
}

// jsonObject writes what writeJSON writes, byte for byte.
func TestJSONObjectWritesAsWriteJSON(t *testing.T) {
	type item struct {
		Name  string         `json:"name"`
		Text  string         `json:"text"`
		Tags  []string       `json:"tags"`
		Extra map[string]any `json:"extra,omitempty"`
	}
	items := []item{
		{Name: "a", Text: "<b> & \"c\"\n\tü \u2028", Tags: []string{}},
		{Name: "b", Tags: []string{"x", "y"}, Extra: map[string]any{"z": []any{1, map[string]any{}}, "a": nil}},
	}
	for _, tc := range []struct {
		name  string
		items []item
		more  []string
	}{
		{"lists", items, []string{"one", "two"}},
		{"empty", []item{}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want, got bytes.Buffer
			c := &cli{stdout: &want, stderr: io.Discard}
			whole := struct {
				Items []item   `json:"items"`
				Count int      `json:"count"`
				More  []string `json:"more"`
			}{tc.items, len(tc.items), tc.more}
			if err := writeJSON(c, whole); err != nil {
				t.Fatal(err)
			}
			c.stdout = &got
			o := newJSONObject(c)
			jsonList(o, "items", tc.items, nil)
			o.member("count", len(tc.items))
			jsonList(o, "more", tc.more, func(s string) any { return s })
			if err := o.close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("(-writeJSON +jsonObject):\n%s", diff)
			}
		})
	}
}

// A table of thousands of rows costs a few allocations in all, not a few
// per row: rows are made on demand and written through one buffer.
func TestWriteRowsAllocatesPerTableNotPerRow(t *testing.T) {
	names := make([]string, 2000)
	for i := range names {
		names[i] = fmt.Sprintf("skill-%04d", i)
	}
	row := make([]string, 3)
	allocs := testing.AllocsPerRun(5, func() {
		err := writeRows(io.Discard, 80, len(names), func(i int) []string {
			row[0], row[1], row[2] = names[i], "prompt", "A skill that does one thing, said on one line."
			return row
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 10 {
		t.Errorf("%v allocations for a table of %d rows", allocs, len(names))
	}
}

func TestOneLine(t *testing.T) {
	for _, s := range []string{"", "one line", " leading", "trailing ", "two  spaces", "a\nb", "a\tb", "é è", "a\u00a0b", "a\u2028b", "\n"} {
		if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { oneLine("A skill, described on one line.") }); n != 0 {
		t.Errorf("oneLine copies a line that is already one: %v allocations", n)
	}
}
