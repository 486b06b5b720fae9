package mcpskills_test

import (
	"fmt"
	"log"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/skill"
)

// The entry a server publishes for a skill: its URI, its frontmatter as
// JSON, and a digest and size for every file it serves. skill.config.yaml
// is infrastructure and is not served.
func ExampleEntry() {
	fsys := fstest.MapFS{
		"pdf/SKILL.md":            {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms.\n---\nSee references/forms.md.\n")},
		"pdf/references/forms.md": {Data: []byte("# Forms\n")},
		"pdf/skill.config.yaml":   {Data: []byte("runtime: python\n")},
	}
	s, diags := skill.Load(fsys, "pdf", nil)
	if s == nil {
		log.Fatal(diags)
	}
	e, err := mcpskills.Entry(s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.URI, e.Frontmatter["description"])
	for _, r := range e.Resources.Files {
		fmt.Println(r.URI, r.Size, r.Digest[:15])
	}
	// Output:
	// skill://pdf/SKILL.md Fill PDF forms.
	// skill://pdf/SKILL.md 72 sha256:2b575a59
	// skill://pdf/references/forms.md 8 sha256:111198a6
}

// The command of a server, as skillkit records it and reads it back.
func ExampleParseCommandURL() {
	u := mcpskills.CommandURL([]string{"skillkit-mcp", "--dir", "/srv/team skills"})
	fmt.Println(u)
	argv, err := mcpskills.ParseCommandURL(u)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", argv)
	// Output:
	// mcp+stdio:skillkit-mcp --dir '/srv/team skills'
	// ["skillkit-mcp" "--dir" "/srv/team skills"]
}
