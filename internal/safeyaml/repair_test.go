package safeyaml

import "testing"

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
		{"urls untouched", "homepage: https://x.y/z\n", "homepage: https://x.y/z\n", false},
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
