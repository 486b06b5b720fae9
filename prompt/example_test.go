package prompt_test

import (
	"fmt"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
)

func ExampleCatalog() {
	fsys := fstest.MapFS{
		"ocr/SKILL.md":          {Data: []byte("---\nname: ocr\ndescription: Read text in images.\n---\n")},
		"ocr/skill.config.yaml": {Data: []byte("entrypoint: ocr.py\ninterface:\n  input:\n    image_path: {type: string, required: true}\n")},
		"ocr/ocr.py":            {Data: []byte("")},
	}
	s, _ := skill.Load(fsys, "ocr", nil)
	res := prompt.Catalog([]*skill.Skill{s}, &prompt.Options{Texts: &prompt.Texts{
		Guidance:        "Skills you can use:",
		GuidanceExecute: "Run compute-entry skills with execute_skill.",
	}})
	fmt.Println(res.Text)
	// Output:
	// Skills you can use:
	// Run compute-entry skills with execute_skill.
	//
	// <available_skills>
	//   <skill name="ocr" type="compute-entry">
	//     Read text in images. (call it with execute_skill)
	//     Input: image_path (string, required)
	//   </skill>
	// </available_skills>
}

func ExampleActivate() {
	fsys := fstest.MapFS{
		"docs/SKILL.md": {Data: []byte(`---
name: docs
description: Write documents.
metadata:
  references:
    required: [references/format.md]
    routes:
      - match: [create]
        required_refs: [references/create.md]
---
Follow references/format.md.
`)},
		"docs/references/format.md": {Data: []byte("Use headings.\n")},
		"docs/references/create.md": {Data: []byte("Start from the template.\n")},
	}
	s, _ := skill.Load(fsys, "docs", nil)
	act, _ := prompt.Activate(s, &prompt.ActivateOptions{Task: "create a guide"})
	fmt.Println(act.Text)
	// Output:
	// <skill_content name="docs">
	// Follow references/format.md.
	//
	// <skill_task_references>
	// These references apply to the task "create a guide" and are included here, so you need not read them again:
	// <skill_reference path="references/create.md">
	// Start from the template.
	// </skill_reference>
	// </skill_task_references>
	//
	// <skill_required_references>
	// Before you act on this skill you must read each of these files with read_skill_file:
	// - references/format.md
	// Acting without reading them leads to mistakes.
	// </skill_required_references>
	// </skill_content>
}
