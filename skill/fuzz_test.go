package skill_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"

	"github.com/skillkit-go/skillkit/skill"
)

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"---\nname: a\ndescription: b\n---\nbody",
		"\xef\xbb\xbf---\r\nname: a\r\ndescription: Use when: x\r\n---\r\n",
		"---\nmetadata:\n  openclaw: '{\"requires\":{\"bins\":[\"x\"]}}'\n  hermes: {tags: [a]}\n---\n",
		"---\nname: &a x\ndescription: *a\nmetadata: {<<: {k: v}}\n---\n",
		"---\n\tname: x\n---\n",
		"---\nname: a\nname: b\n---\n",
		"---\n" + aliasBomb + "---\n",
		"---\nrequired_environment_variables: [{name: A, required: false}, B]\nplatforms: macos\n---",
		brokenField,
		"---\nname: a\ndescription: b\nx: [1\n\"y\": 'z\n- q\n---\n",
		"---\nname: a\ndescription: Ranks posts.\n  Use for:\n\n  - digests\nauthor: @ada\nsummary: `x`\n---\n",
		"---\rname: a\rdescription: b\r---\rbody\r",
		"\xff\xfe-\x00-\x00-\x00\n\x00",
		"---\nname: a\ndescription: caf\xe9\n---\n",
		"---\nname: a\ndescription: d\nmetadata: '{\"a\": 1}'\n---\n",
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		doc, diags := skill.Parse(data, &skill.ParseOptions{Strict: strict})
		for _, d := range diags {
			if d.Code == "" || d.Message == "" || d.Level == 0 {
				t.Fatalf("incomplete diagnostic %#v", d)
			}
		}
		if doc == nil {
			if !diags.HasErrors() {
				t.Fatalf("document refused without an error diagnostic: %v", diags)
			}
			return
		}
		if _, err := json.Marshal(doc.Frontmatter); err != nil {
			t.Fatalf("frontmatter does not marshal: %v", err)
		}
		doc2, diags2 := skill.Parse(data, &skill.ParseOptions{Strict: strict})
		if !reflect.DeepEqual(doc, doc2) || !reflect.DeepEqual(diags, diags2) {
			t.Fatal("Parse is not deterministic")
		}
		if bytes.HasPrefix(bytes.TrimLeft([]byte(doc.Body), "\n"), []byte("---\n")) && bytes.Contains([]byte(doc.Frontmatter.Raw), []byte("\n---\n")) {
			t.Fatalf("frontmatter closed late: raw %q", doc.Frontmatter.Raw)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(seedConfig))
	for _, seed := range []string{
		"entrypoint: a.py\ninterface:\n  input:\n    type: object\n    properties: {a: {type: string}}\n",
		"runtime: bash\nsetup: {posix: ../x}\n",
		"timeout: 1e400\n",
		"interface:\n  input: &x {a: *x}\n",
		"dependencies:\n  system: [a, {name: b, check: 'b --version'}]\n",
		"permissions: {network: ['a.test:443', '*.b.test', '[::1]'], read: ['~/x', /y, z], write: [.]}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, diags := skill.ParseConfig(data)
		if cfg == nil {
			if !diags.HasErrors() {
				t.Fatalf("config refused without an error: %v", diags)
			}
			return
		}
		if diags.HasErrors() {
			t.Fatalf("config returned with errors: %v", diags)
		}
		for _, p := range append(cfg.Permissions.Read, cfg.Permissions.Write...) {
			if canon, err := skill.CanonicalGrantPath(p); err != nil || canon != p {
				t.Fatalf("permission path %q accepted but not canonical (%q, %v)", p, canon, err)
			}
		}
		for _, h := range cfg.Permissions.Network.Hosts {
			if canon, err := skill.CanonicalHost(h); err != nil || canon != h {
				t.Fatalf("permission host %q accepted but not canonical (%q, %v)", h, canon, err)
			}
		}
		for _, p := range []string{cfg.Entrypoint, cfg.Setup.Posix, cfg.Setup.Win32} {
			if p == "" {
				continue
			}
			if clean, err := skill.CleanRelPath(p); err != nil || clean != p {
				t.Fatalf("path %q accepted but unsafe or unclean: %v", p, err)
			}
		}
		for _, schema := range []json.RawMessage{cfg.Interface.Input, cfg.Interface.Output} {
			if schema == nil {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(schema, &m); err != nil || m["type"] != "object" {
				t.Fatalf("schema %s: %v", schema, err)
			}
		}
		if cfg.Timeout <= 0 {
			t.Fatalf("timeout %v", cfg.Timeout)
		}
	})
}

// FuzzRecoverFields checks field-by-field recovery: whatever a valid
// frontmatter holds, one broken field added to it costs that field alone;
// strict mode never recovers; every line reported lies in the file.
func FuzzRecoverFields(f *testing.F) {
	for _, seed := range []string{
		"name: a\ndescription: b\n",
		"name: a\ndescription: |\n  long\n  text\nmetadata:\n  k: [1, 2]\n",
		"description: >-\n  folded\nname: 'x'\nlicense: MIT\n",
		"name: a\ndescription: b\ntags:\n- x\n- y\n",
	} {
		f.Add(seed, "broken: \"unterminated\n")
		f.Add(seed, "broken: [a, b\n")
	}
	f.Fuzz(func(t *testing.T, front, broken string) {
		if strings.Contains(front+broken, "---") || strings.ContainsAny(front+broken, "\r\ufeff") ||
			broken == "" || !('a' <= broken[0] && broken[0] <= 'z') {
			return // the added text must open a field of its own, not continue the last one
		}
		whole, _ := skill.Parse([]byte("---\n"+front+"---\n"), nil)
		if whole == nil || whole.Recovered || whole.Frontmatter.Description == "" {
			return // only valid frontmatter is the starting point
		}
		if !strings.HasSuffix(front, "\n") {
			front += "\n"
		}
		data := "---\n" + front + broken + "---\n"
		lines := strings.Count(data, "\n")
		doc, diags := skill.Parse([]byte(data), nil)
		for _, d := range diags {
			if l := d.Line(); l != 0 && (l < 2 || l > lines) {
				t.Fatalf("line %d outside the frontmatter (%d lines): %v", l, lines, d)
			}
		}
		if !diags.Has(diagnostics.FrontmatterRecovered) {
			return // the added text parsed: nothing to recover
		}
		if doc == nil {
			t.Fatalf("valid fields lost to a broken one: %v", diags)
		}
		if doc.Frontmatter.Name != whole.Frontmatter.Name || doc.Frontmatter.Description != whole.Frontmatter.Description {
			t.Fatalf("recovered name %q description %q, want %q %q", doc.Frontmatter.Name, doc.Frontmatter.Description,
				whole.Frontmatter.Name, whole.Frontmatter.Description)
		}
		if strictDoc, strictDiags := skill.Parse([]byte(data), &skill.ParseOptions{Strict: true}); strictDoc != nil && !strictDiags.HasErrors() {
			t.Fatalf("strict mode accepted what lenient mode had to recover: %v", strictDiags)
		}
	})
}
