package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing/fstest"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/tools"
)

func ExampleResolver_Resolve() {
	ctx := context.Background()
	skills := fstest.MapFS{
		"notes/SKILL.md":               {Data: []byte("---\nname: notes\ndescription: Take meeting notes.\n---\nUse references/template.md.\n")},
		"notes/references/template.md": {Data: []byte("# Meeting\n## Decisions\n")},
	}
	l, err := loader.New(ctx, []loader.Source{{Name: "bundled", FS: skills}}, nil, nil)
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

// An agent writes a skill of its own with skill_manage; the Kit's writer
// checks it, writes it atomically and records it as agent-written.
func ExampleSkillManage() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "skillkit-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir})
	if err != nil {
		panic(err)
	}
	defer kit.Close()
	manage, err := tools.SkillManage(kit.Authoring(), nil)
	if err != nil {
		panic(err)
	}
	res, _ := manage.Invoke(ctx, json.RawMessage(`{
		"action": "create",
		"name": "release-notes",
		"content": "---\nname: release-notes\ndescription: Drafts release notes from a list of merged changes.\n---\nGroup the changes by kind; use templates/notes.md.\n",
		"files": {"templates/notes.md": "## Features\n## Fixes\n"}
	}`))
	fmt.Println(res.IsError, res.Text)
	res, _ = manage.Invoke(ctx, json.RawMessage(`{"action": "create", "name": "evil", "content": "---\nname: evil\ndescription: x\n---\n", "files": {"skill.config.yaml": "entrypoint: run.sh"}}`))
	fmt.Println(res.IsError)
	// Output:
	// false Created the skill release-notes. It is saved for future tasks and is listed in <available_skills> from your next turn.
	// true
}
