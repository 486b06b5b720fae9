// Command openai gives an OpenAI model the skill tools of one folder through
// the Chat Completions API.
//
// Usage:
//
//	openai [-skills DIR] [-model MODEL] [-prompt TEXT] [-max-turns N]
//
// With OPENAI_API_KEY set it sends the catalog as the system prompt and TEXT
// as the user's message, runs the tool calls the model makes, and prints the
// model's final answer (tool calls are logged to standard error).
// OPENAI_BASE_URL points it at another OpenAI-compatible server. Without a
// key it makes no request: it prints the tool definitions it would send, as
// JSON, and exits 0.
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
	"syscall"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	openaitools "github.com/skillkit-go/skillkit/adapters/openai"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/examples/internal/skillset"
)

// defaultPrompt asks for something a bundled compute skill answers.
const defaultPrompt = "Which words occur most often in this sentence: " +
	"'the cat saw the dog and the dog saw the cat run'? Use a skill."

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "openai:", err)
		stop()
		os.Exit(1)
	}
}

// run parses args, builds the tools and either talks to the model (when
// getenv gives an API key) or prints the tool definitions to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	flags := flag.NewFlagSet("openai", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("skills", "../skills", "the skills folder")
	model := flags.String("model", orDefault(getenv("OPENAI_MODEL"), openai.ChatModelGPT5_4Mini), "the model (default $OPENAI_MODEL, else gpt-5.4-mini)")
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
	ts, err := openaitools.New(set.Tools, nil)
	if err != nil {
		return err
	}

	key := getenv("OPENAI_API_KEY")
	if key == "" {
		fmt.Fprintln(stderr, "OPENAI_API_KEY is not set: printing the tool definitions instead of calling the model")
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ts.ChatTools())
	}
	opts := []option.RequestOption{option.WithAPIKey(key)}
	if base := getenv("OPENAI_BASE_URL"); base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	client := openai.NewClient(opts...)
	answer, err := converse(ctx, &client, ts, *model, set.Catalog, *prompt, *maxTurns, stderr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, answer)
	return err
}

// converse is the agent loop: ask the model, run the tools it calls, give
// it the results, until it answers without calling a tool.
func converse(ctx context.Context, client *openai.Client, ts *openaitools.Toolset, model, catalog, prompt string, maxTurns int, log io.Writer) (string, error) {
	messages := []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You are a helpful assistant.\n\n" + catalog),
		openai.UserMessage(prompt),
	}
	for range maxTurns {
		// The LLM call.
		completion, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model:    model,
			Messages: messages,
			Tools:    ts.ChatTools(),
		})
		if err != nil {
			return "", err
		}
		if len(completion.Choices) == 0 {
			return "", errors.New("the model returned no choice")
		}
		msg := completion.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		messages = append(messages, msg.ToParam())
		for _, call := range msg.ToolCalls {
			fmt.Fprintf(log, "tool call: %s %s\n", call.Function.Name, call.Function.Arguments)
		}
		results, err := ts.ChatToolMessages(ctx, msg)
		if err != nil {
			return "", err
		}
		messages = append(messages, results...)
	}
	return "", fmt.Errorf("no final answer after %d model requests", maxTurns)
}

func orDefault(s, fallback string) string {
	if s != "" {
		return s
	}
	return fallback
}
