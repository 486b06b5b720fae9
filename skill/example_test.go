package skill_test

import (
	"fmt"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/skill"
)

func ExampleLoad() {
	fsys := fstest.MapFS{
		"skills/pdf-tools/SKILL.md": {Data: []byte(`---
name: pdf-tools
description: Use this skill when: the user hands you a PDF
metadata:
  emoji: "📄"
  references:
    required: [references/forms.md]
---
Read references/forms.md first.
`)},
		"skills/pdf-tools/references/forms.md": {Data: []byte("# Forms")},
	}
	s, diags := skill.Load(fsys, "skills/pdf-tools", nil)
	for _, d := range diags {
		fmt.Println(d.Level, d.Code)
	}
	fmt.Println(s.Name, s.Class, s.Frontmatter.Emoji)
	fmt.Println("required:", s.References.Required)
	// Output:
	// warning FRONTMATTER_RECOVERED
	// pdf-tools prompt 📄
	// required: [references/forms.md]
}

func ExampleParseConfig() {
	cfg, _ := skill.ParseConfig([]byte(`
runtime: python
entrypoint: src/ocr.py
interface:
  input:
    image_path: { type: string, required: true }
    language: { type: string, default: auto }
`))
	fmt.Println(cfg.Class(), cfg.Timeout)
	fmt.Println(string(cfg.Interface.Input))
	// Output:
	// compute-entry 30s
	// {"properties":{"image_path":{"type":"string"},"language":{"default":"auto","type":"string"}},"required":["image_path"],"type":"object"}
}

func ExampleValidateName() {
	for _, name := range []string{"pdf-tools", "PDF_Tools", "pdf--tools"} {
		fmt.Println(name, skill.ValidateName(name))
	}
	// Output:
	// pdf-tools <nil>
	// PDF_Tools skill: invalid skill name: "PDF_Tools" has upper-case letters; use a-z, 0-9 and hyphens
	// pdf--tools skill: invalid skill name: "pdf--tools" has consecutive hyphens
}
