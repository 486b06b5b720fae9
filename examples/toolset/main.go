package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/tools"
)

func main() {
	dir := flag.String("skills", "examples/skills", "the skills folder")
	agentTools := flag.String("tools", "bash", "the agent's own tools, comma-separated")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *dir, strings.Split(*agentTools, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "toolset:", err)
		os.Exit(1)
	}
}

// view is one tool as the model sees it.
type view struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	ReadOnly    bool            `json:"read_only"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func run(ctx context.Context, w io.Writer, dir string, agentTools []string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	l, err := loader.New(ctx, []loader.Source{{Name: "examples", FS: os.DirFS(abs), Dir: abs}}, nil, nil)
	if err != nil {
		return err
	}
	r := &tools.Resolver{Loader: l, Executor: executor.New(l, nil, nil)}
	ts, err := r.Resolve(ctx, tools.Agent{Tools: agentTools})
	if err != nil {
		return err
	}
	out := struct {
		Prompt   string   `json:"prompt"`
		Tools    []view   `json:"tools"`
		Warnings []string `json:"warnings"`
	}{Prompt: ts.Prompt, Warnings: ts.Warnings}
	for _, t := range ts.Tools {
		out.Tools = append(out.Tools, view{t.Name, t.Description, t.ReadOnly, t.InputSchema})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
