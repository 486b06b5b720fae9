package safeyaml

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestRepair(t *testing.T) {
	tests := []struct {
		name, in, want string
		changed        bool
	}{
		{"colon in value", "name: a\ndescription: Use when: the user asks\n",
			"name: a\ndescription: >-\n  Use when: the user asks\n", true},
		{"trailing colon", "description: Steps:\n", "description: >-\n  Steps:\n", true},
		{"continuation lines kept", "description: Use when: x\n    and more: y\nname: a",
			"description: >-\n    Use when: x\n    and more: y\nname: a", true},
		{"nested value", "metadata:\n  note: see: here\n", "metadata:\n  note: >-\n    see: here\n", true},
		{"list item", "items:\n  - k: a: b\n", "items:\n  - k: >-\n      a: b\n", true},
		{"quoted values untouched", "description: \"a: b\"\n", "description: \"a: b\"\n", false},
		{"block scalar untouched", "description: >\n  a: b\n", "description: >\n  a: b\n", false},
		{"block scalar text untouched", "a: |\n  note: see: here\nb: c: d\n", "a: |\n  note: see: here\nb: >-\n  c: d\n", true},
		{"urls untouched", "homepage: https://x.y/z\n", "homepage: https://x.y/z\n", false},
		{"colon ending a continuation line", "description: Reads feeds and\n  ranks them. Use for:\n\n  - daily digests\nname: a\n",
			"description: >-\n  Reads feeds and\n  ranks them. Use for:\n\n  - daily digests\nname: a\n", true},
		{"colon inside a continuation line", "description: Reads feeds\n  when: asked\n", "description: >-\n  Reads feeds\n  when: asked\n", true},
		{"comment after a plain value untouched", "description: Reads feeds\n  # note: kept\n", "description: Reads feeds\n  # note: kept\n", false},
		{"plain multi-line untouched", "description: Reads feeds\n  and - ranks them\n", "description: Reads feeds\n  and - ranks them\n", false},
		{"backtick start", "description: `gh` helper\n", "description: >-\n  `gh` helper\n", true},
		{"at sign start", "author: @someone\n", "author: >-\n  @someone\n", true},
		{"percent start", "description: %d placeholders\n", "description: >-\n  %d placeholders\n", true},
		{"tab indentation", "metadata:\n\tkey: v\n", "metadata:\n  key: v\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := Repair(tt.in)
			if got != tt.want || changed != tt.changed {
				t.Errorf("Repair(%q) = %q, %v; want %q, %v", tt.in, got, changed, tt.want, tt.changed)
			}
		})
	}
}

// FuzzRepair holds Repair to the parser: a mapping that parses is left as
// it is (Repair changes only shapes that are not YAML, apart from tabs).
func FuzzRepair(f *testing.F) {
	for _, seed := range []string{
		"name: a\ndescription: Use when: x\n",
		"description: Reads feeds and\n  ranks them. Use for:\n\n  - daily digests\n",
		"description: `gh` helper\nauthor: @me\n",
		"metadata:\n  note: see: here\n  - k: a: b\n",
		"description: a\n  # c: d\n  e\n",
		"description: >\n  a: b\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fixed, changed := Repair(text)
		// Tabs are the one change made to YAML that parses; line ends
		// reach Repair as LF only.
		if strings.ContainsAny(text, "\t\r") {
			return
		}
		if _, err := Parse([]byte(text)); err == nil && changed {
			t.Fatalf("Repair changed YAML that parses:\n%q\n->\n%q", text, fixed)
		}
	})
}

// TestRepairOneLineValues: every one-line value Repair changes parses
// afterwards to the text it was written as.
func TestRepairOneLineValues(t *testing.T) {
	for _, v := range []string{"Use when: x", "Steps:", "`gh` helper", "@someone", "%d placeholders", "a:\tb", "`x`: y"} {
		fixed, changed := Repair("k: " + v + "\n")
		var got map[string]string
		if err := yaml.Unmarshal([]byte(fixed), &got); err != nil || !changed || got["k"] != v {
			t.Errorf("Repair(k: %s) = %q, %v: %v %q", v, fixed, changed, err, got["k"])
		}
	}
}
