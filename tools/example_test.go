package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/tools"
)

func ExampleResolver_Resolve() {
	ctx := context.Background()
	skills := fstest.MapFS{
		"notes/SKILL.md":               {Data: []byte("---\nname: notes\ndescription: Take meeting notes.\n---\nUse references/template.md.\n")},
		"notes/references/template.md": {Data: []byte("# Meeting\n## Decisions\n")},
	}
	l, err := loader.New(ctx, []loader.Source{{Name: "bundled", FS: skills}}, nil)
	if err != nil {
		panic(err)
	}
	ts, err := (&tools.Resolver{Loader: l}).Resolve(ctx, tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		panic(err)
	}
	for _, t := range ts.Tools {
		fmt.Println(t.Name)
	}
	readFile, _ := ts.Tool("read_skill_file")
	res, _ := readFile.Invoke(ctx, json.RawMessage(`{"name":"notes","path":"references/template.md"}`))
	fmt.Print(res.Text)
	// Output:
	// read_skill
	// read_skill_file
	// # Meeting
	// ## Decisions
}
