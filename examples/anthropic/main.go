// Command anthropic gives a Claude model the skill tools of one folder
// through the Messages API.
//
// Usage:
//
//	anthropic [-skills DIR] [-model MODEL] [-prompt TEXT] [-max-turns N]
//
// With ANTHROPIC_API_KEY set it sends the catalog as the system prompt and
// TEXT as the user's message, runs the tools the model uses, and prints the
// model's final answer (tool calls are logged to standard error).
// ANTHROPIC_BASE_URL points it at another server. Without a key it makes no
// request: it prints the tool definitions it would send, as JSON, and exits 0.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	anthropictools "github.com/skillkit-go/skillkit/adapters/anthropic"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/examples/internal/skillset"
)

// defaultPrompt asks for something a bundled compute skill answers.
const defaultPrompt = "Which words occur most often in this sentence: " +
	"'the cat saw the dog and the dog saw the cat run'? Use a skill."

// maxTokens bounds each of the model's replies.
const maxTokens = 4096

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "anthropic:", err)
		stop()
		os.Exit(1)
	}
}

// run parses args, builds the tools and either talks to the model (when
// getenv gives an API key) or prints the tool definitions to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	flags := flag.NewFlagSet("anthropic", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("skills", "../skills", "the skills folder")
	model := flags.String("model", orDefault(getenv("ANTHROPIC_MODEL"), string(anthropic.ModelClaudeSonnet5_5)), "the model (default $ANTHROPIC_MODEL, else claude-sonnet-5-5)")
	prompt := flags.String("prompt", defaultPrompt, "the user's message")
	maxTurns := flags.Int("max-turns", 8, "the most model requests to make")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	if *maxTurns < 1 {
		return errors.New("-max-turns must be at least 1")
	}
	set, err := skillset.Load(ctx, *dir)
	if err != nil {
		return err
	}
	defer set.Close()
	for _, d := range set.Diagnostics.AtLeast(diagnostics.Warning) {
		fmt.Fprintln(stderr, d)
	}
	ts, err := anthropictools.New(set.Tools, nil)
	if err != nil {
		return err
	}

	key := getenv("ANTHROPIC_API_KEY")
	if key == "" {
		fmt.Fprintln(stderr, "ANTHROPIC_API_KEY is not set: printing the tool definitions instead of calling the model")
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ts.Tools())
	}
	opts := []option.RequestOption{option.WithAPIKey(key)}
	if base := getenv("ANTHROPIC_BASE_URL"); base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	client := anthropic.NewClient(opts...)
	answer, err := converse(ctx, &client, ts, *model, set.Catalog, *prompt, *maxTurns, stderr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, answer)
	return err
}

// converse is the agent loop: ask the model, run the tools it uses, give it
// the results, until it answers without using a tool.
func converse(ctx context.Context, client *anthropic.Client, ts *anthropictools.Toolset, model, catalog, prompt string, maxTurns int, log io.Writer) (string, error) {
	system := []anthropic.TextBlockParam{{Text: "You are a helpful assistant.\n\n" + catalog}}
	messages := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}
	for range maxTurns {
		// The LLM call.
		msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{
			Model:     anthropic.Model(model),
			MaxTokens: maxTokens,
			System:    system,
			Messages:  messages,
			Tools:     ts.Tools(),
		})
		if err != nil {
			return "", err
		}
		var text []string
		for _, block := range msg.Content {
			switch block.Type {
			case "text":
				text = append(text, block.Text)
			case "tool_use":
				fmt.Fprintf(log, "tool call: %s %s\n", block.Name, block.Input)
			}
		}
		results, err := ts.ToolResults(ctx, msg)
		if err != nil {
			return "", err
		}
		if len(results) == 0 {
			return strings.Join(text, "\n"), nil
		}
		messages = append(messages, msg.ToParam(), anthropic.NewUserMessage(results...))
	}
	return "", fmt.Errorf("no final answer after %d model requests", maxTurns)
}

func orDefault(s, fallback string) string {
	if s != "" {
		return s
	}
	return fallback
}
