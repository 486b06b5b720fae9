package loader_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/loader"
)

func ExampleLoader() {
	ctx := context.Background()
	workspace := fstest.MapFS{
		"pdf/SKILL.md": {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms (workspace copy).\n---\nUse pdftk.\n")},
	}
	bundled := fstest.MapFS{
		"pdf/SKILL.md":       {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms.\n---\n")},
		"tools/csv/SKILL.md": {Data: []byte("---\nname: csv\ndescription: Summarise CSV files.\n---\n")},
	}
	l, err := loader.New(ctx, []loader.Source{
		{Name: "workspace", FS: workspace}, // in a host: {Name: "workspace", Dir: "./skills"}
		{Name: "bundled", FS: bundled},     // in a host: an embed.FS
	}, nil, nil)
	if err != nil {
		panic(err)
	}
	for _, s := range l.Snapshot().Skills() {
		fmt.Printf("%s from %s: %s\n", s.Name, s.Source, s.Description)
	}
	for _, d := range l.Snapshot().Diagnostics() {
		fmt.Println(d.Code, d.Detail["loser_source"], "lost to", d.Detail["winner_source"])
	}
	pdf, _ := l.Get("pdf")
	body, _ := pdf.Body()
	fmt.Println(body)
	// Output:
	// csv from bundled: Summarise CSV files.
	// pdf from workspace: Fill PDF forms (workspace copy).
	// NAME_COLLISION bundled lost to workspace
	// Use pdftk.
}

func ExampleSnapshot_Filter() {
	skills := fstest.MapFS{
		"search/SKILL.md": {Data: []byte("---\nname: search\ndescription: Search the web.\nmetadata:\n  conditions:\n    fallback_for_tools: [web_search]\n---\n")},
		"shell/SKILL.md":  {Data: []byte("---\nname: shell\ndescription: Run scripts.\nmetadata:\n  conditions:\n    requires_tools: [bash]\n---\n")},
	}
	l, _ := loader.New(context.Background(), []loader.Source{{Name: "skills", FS: skills}}, nil, nil)
	v, _ := l.Snapshot().Filter(context.Background(), loader.Env{Tools: []string{"bash", "web_search"}})
	for _, s := range v.Catalog {
		fmt.Println("offered:", s.Name)
	}
	for _, h := range v.Hidden {
		fmt.Println("hidden:", h.Name, "-", h.Reasons[0].Message)
	}
	// Output:
	// offered: shell
	// hidden: search - stands in for the tools web_search, which the agent has
}

// LoadAll checks every skill folder of a source, as a validator does: two
// folders with one name both load, and a broken skill is reported by its
// diagnostics instead of being left out of a snapshot.
func ExampleLoadAll() {
	skills := fstest.MapFS{
		"a/pdf/SKILL.md":  {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms.\n---\n")},
		"b/pdf/SKILL.md":  {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms, again.\n---\n")},
		"broken/SKILL.md": {Data: []byte("---\nname: broken\n---\n")},
	}
	found, loaded, diags := loader.LoadAll(context.Background(), loader.Source{Name: "skills", FS: skills}, &loader.Options{Strict: true})
	for i, f := range found {
		if loaded[i] == nil {
			fmt.Printf("%s: not loaded\n", f.Dir)
			continue
		}
		fmt.Printf("%s: %s\n", f.Dir, loaded[i].Description)
	}
	for _, d := range diags {
		fmt.Println(d.Code, d.Path)
	}
	// Output:
	// a/pdf: Fill PDF forms.
	// b/pdf: Fill PDF forms, again.
	// broken: not loaded
	// DESC_MISSING broken/SKILL.md
}

func ExampleLoader_Watch() {
	dir, err := os.MkdirTemp("", "skills-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, err := loader.New(ctx, []loader.Source{{Name: "user", Dir: dir}}, nil, nil)
	if err != nil {
		panic(err)
	}
	changes := make(chan loader.Changes, 1)
	go l.Watch(ctx, nil, func(c loader.Changes) { changes <- c })

	// A skill written by hand appears without a call to Rescan.
	md := "---\nname: notes\ndescription: Keep meeting notes.\n---\nWrite them down.\n"
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes", "SKILL.md"), []byte(md), 0o644); err != nil {
		panic(err)
	}
	c := <-changes
	fmt.Println("added:", c.Added)
	// Output:
	// added: [notes]
}
