package diagnostics_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
)

func TestLevelText(t *testing.T) {
	for _, l := range []diagnostics.Level{diagnostics.Info, diagnostics.Warning, diagnostics.Error} {
		text, err := l.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back diagnostics.Level
		if err := back.UnmarshalText(text); err != nil || back != l {
			t.Errorf("%s round trip = %v, %v", text, back, err)
		}
	}
	if _, err := diagnostics.Level(0).MarshalText(); err == nil {
		t.Error("level 0 marshalled")
	}
	if _, err := diagnostics.ParseLevel("fatal"); err == nil {
		t.Error("unknown level parsed")
	}
	if !(diagnostics.Info < diagnostics.Warning && diagnostics.Warning < diagnostics.Error) {
		t.Error("levels are not ordered")
	}
}

func TestJSONShape(t *testing.T) {
	d := diagnostics.New(diagnostics.NameInvalid, "pdf", "skills/pdf/SKILL.md", "bad %s", "name").With("field", "name")
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"level":"warning","code":"NAME_INVALID","skill":"pdf","message":"bad name","path":"skills/pdf/SKILL.md","detail":{"field":"name"}}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	var back diagnostics.Diagnostic
	if err := json.Unmarshal(data, &back); err != nil || back.Level != diagnostics.Warning || back.Detail["field"] != "name" {
		t.Errorf("decode: %+v %v", back, err)
	}
	var nilList diagnostics.List
	if data, _ := json.Marshal(nilList); string(data) != "[]" {
		t.Errorf("nil list = %s", data)
	}
}

func TestListFiltersAndSort(t *testing.T) {
	l := diagnostics.List{
		diagnostics.New(diagnostics.FieldUnknown, "b", "b/SKILL.md", "x"),
		diagnostics.New(diagnostics.DescMissing, "a", "a/SKILL.md", "y"),
		diagnostics.New(diagnostics.NameInvalid, "a", "a/SKILL.md", "z"),
		diagnostics.New(diagnostics.NameMismatch, "b", "b/SKILL.md", "w"),
	}
	if got := len(l.AtLeast(diagnostics.Warning)); got != 3 {
		t.Errorf("AtLeast(warning) = %d", got)
	}
	if got := len(l.AtLeast(diagnostics.Error)); got != 1 || !l.HasErrors() {
		t.Errorf("errors = %d", got)
	}
	if got := len(l.ForSkill("b")); got != 2 {
		t.Errorf("ForSkill(b) = %d", got)
	}
	if got := l.WithCode(diagnostics.NameInvalid, diagnostics.NameMismatch); len(got) != 2 {
		t.Errorf("WithCode = %v", got)
	}
	sorted := l.Sorted()
	var order []string
	for _, d := range sorted {
		order = append(order, d.Skill+":"+string(d.Code))
	}
	if got := strings.Join(order, " "); got != "a:DESC_MISSING a:NAME_INVALID b:NAME_MISMATCH b:FIELD_UNKNOWN" {
		t.Errorf("sorted = %s", got)
	}
	if l[0].Skill != "b" {
		t.Error("Sorted modified the receiver")
	}
	if l.Filter(func(diagnostics.Diagnostic) bool { return false }) != nil {
		t.Error("empty filter result is not nil")
	}
}

func TestEveryCodeDocumented(t *testing.T) {
	seen := map[diagnostics.Code]bool{}
	for _, info := range diagnostics.Codes() {
		if seen[info.Code] {
			t.Errorf("%s listed twice", info.Code)
		}
		seen[info.Code] = true
		if info.Meaning == "" || info.Level == 0 {
			t.Errorf("%s undocumented", info.Code)
		}
		if info.Code.Level() != info.Level {
			t.Errorf("%s level mismatch", info.Code)
		}
	}
	// The seed's eleven codes (seed 000 §6.2) with their levels.
	seed := map[diagnostics.Code]diagnostics.Level{
		"NAME_COLLISION": diagnostics.Warning, "NAME_INVALID": diagnostics.Warning, "NAME_MISMATCH": diagnostics.Warning,
		"DESC_MISSING": diagnostics.Error, "DESC_TOO_LONG": diagnostics.Warning, "FINGERPRINT_CHANGED": diagnostics.Info,
		"ENV_NOT_CONFIGURED": diagnostics.Warning, "RUNTIME_UNAVAILABLE": diagnostics.Error, "SYSTEM_DEP_MISSING": diagnostics.Warning,
		"VENV_MISSING": diagnostics.Warning, "CONFIG_PARSE_ERROR": diagnostics.Error,
	}
	for code, level := range seed {
		if !seen[code] || code.Level() != level {
			t.Errorf("seed code %s: documented %v, level %v want %v", code, seen[code], code.Level(), level)
		}
	}
}

func ExampleList_AtLeast() {
	diags := diagnostics.List{
		diagnostics.New(diagnostics.FieldUnknown, "pdf", "pdf/SKILL.md", "author: not a field of any supported dialect"),
		diagnostics.New(diagnostics.NameMismatch, "pdf-tools", "pdf/SKILL.md", `the name "pdf-tools" differs from its folder name "pdf"`),
	}
	for _, d := range diags.AtLeast(diagnostics.Warning) {
		fmt.Println(d)
	}
	// Output:
	// pdf/SKILL.md: warning NAME_MISMATCH pdf-tools: the name "pdf-tools" differs from its folder name "pdf"
}

func TestStringWithLine(t *testing.T) {
	d := diagnostics.New(diagnostics.FrontmatterInvalid, "pdf", "skills/pdf/SKILL.md", "broken").With("line", 4)
	if got, want := d.String(), "skills/pdf/SKILL.md:4: error FRONTMATTER_INVALID pdf: broken"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back diagnostics.Diagnostic
	if err := json.Unmarshal(data, &back); err != nil || back.Line() != 4 || back.String() != d.String() {
		t.Errorf("after JSON: line %d, %q, %v", back.Line(), back.String(), err)
	}
	if got := diagnostics.New(diagnostics.FrontmatterInvalid, "", "", "x").With("line", 4).String(); strings.Contains(got, ":4") {
		t.Errorf("a line without a path: %q", got)
	}
}
