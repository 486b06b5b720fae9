package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/tools"
)

func main() {
	dir := flag.String("skills", "examples/skills", "the skills folder")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, dir string) error {
	// 1. Open the skills folder: loader, registry, secrets, executor, tools.
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir})
	if err != nil {
		return err
	}
	defer kit.Close()

	// 2. What one agent gets: the catalog for its system prompt and its tools.
	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		return err
	}
	section(w, "The catalog (goes into the system prompt)")
	fmt.Fprintln(w, ts.Prompt)
	section(w, "The tools (go to the model)")
	for _, t := range ts.Tools {
		fmt.Fprintf(w, "%-16s %s\n", t.Name, t.Description)
	}

	// 3. The model activates a skill for a task: read_skill includes the
	// references the task needs.
	section(w, `The model calls read_skill {"name":"release-notes","task":"release notes with a breaking change"}`)
	if err := call(ctx, w, ts, "read_skill", `{"name":"release-notes","task":"release notes with a breaking change"}`); err != nil {
		return err
	}

	// 4. The model runs a compute skill: JSON in, JSON out, in a child
	// process with a whitelisted environment.
	section(w, `The model calls execute_skill {"name":"word-stats","input":{...}}`)
	if err := call(ctx, w, ts, "execute_skill", `{"name":"word-stats","input":{"text":"the quick brown fox jumps over the lazy dog the end","top":2}}`); err != nil {
		return err
	}
	section(w, "A model mistake is an error result it can act on")
	if err := call(ctx, w, ts, "execute_skill", `{"name":"word-stats","input":{"top":2}}`); err != nil {
		return err
	}

	// 5. What a host shows its operators.
	section(w, "Diagnostics")
	diags, err := kit.Doctor(ctx)
	if err != nil {
		return err
	}
	for _, d := range diags {
		fmt.Fprintln(w, d)
	}
	l, err := kit.Loader(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d skills, %d diagnostics\n", len(l.Snapshot().Skills()), len(diags))
	return nil
}

func call(ctx context.Context, w io.Writer, ts tools.Toolset, name, args string) error {
	tool, ok := ts.Tool(name)
	if !ok {
		return fmt.Errorf("no %s tool", name)
	}
	res, err := tool.Invoke(ctx, json.RawMessage(args))
	if err != nil {
		return err
	}
	if res.IsError {
		fmt.Fprint(w, "(error) ")
	}
	fmt.Fprintln(w, res.Text)
	return nil
}

func section(w io.Writer, title string) {
	fmt.Fprintf(w, "\n=== %s\n\n", title)
}
