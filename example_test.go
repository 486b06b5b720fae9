package skillkit_test

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

// bundled stands for skills compiled into the host with embed.FS.
var bundled = fstest.MapFS{
	"meeting-notes/SKILL.md": {Data: []byte(`---
name: meeting-notes
description: Turn a meeting transcript into notes with decisions and action items.
---
List decisions first, then action items with owners.
`)},
}

func ExampleOpen() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "skills")
	defer os.RemoveAll(dir)

	kit, err := skillkit.Open(ctx, skillkit.Options{
		Dir:     dir, // installs, the registry and sealed secrets live here
		Sources: []loader.Source{{Name: "bundled", FS: bundled}},
	})
	if err != nil {
		panic(err)
	}
	defer kit.Close()
	for _, s := range kit.Loader().Snapshot().Skills() {
		fmt.Println(s.Name, s.Source, s.Class)
	}
	fmt.Println(len(kit.Doctor(ctx)), "diagnostics")
	// Output:
	// meeting-notes bundled prompt
	// 0 diagnostics
}

func ExampleKit_Toolset() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "skills")
	defer os.RemoveAll(dir)
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Sources: []loader.Source{{Name: "bundled", FS: bundled}}})
	if err != nil {
		panic(err)
	}
	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		panic(err)
	}
	// ts.Prompt goes into the system prompt; each tool goes to the model.
	for _, t := range ts.Tools {
		fmt.Println(t.Name)
	}
	// When the model calls a tool, pass its arguments to Invoke.
	read, _ := ts.Tool("read_skill")
	res, _ := read.Invoke(ctx, json.RawMessage(`{"name":"meeting-notes"}`))
	fmt.Println(res.Text)
	// Output:
	// read_skill
	// read_skill_file
	// skill_manage
	// <skill_content name="meeting-notes">
	// List decisions first, then action items with owners.
	// </skill_content>
}
