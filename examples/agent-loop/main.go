package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/tools"
)

func main() {
	dir := flag.String("skills", "examples/skills", "the skills folder")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "agent-loop:", err)
		os.Exit(1)
	}
}

// Message is one entry of the conversation.
type Message struct {
	Role     string     // system, user, assistant or tool
	Text     string     // the text, or the tool's answer
	Calls    []ToolCall // the assistant's tool calls
	CallID   string     // for role tool: which call this answers
	IsError  bool       // for role tool: the tool reported a mistake
	ToolName string     // for role tool
}

// ToolCall is the model asking for a tool.
type ToolCall struct {
	ID   string
	Name string
	Args json.RawMessage
}

// Model produces the next assistant message. A real host implements it with
// its LLM client: send the system prompt, the messages and the tools (name,
// description, InputSchema of each tools.Tool, converted to the provider's
// format; see examples/openai and examples/anthropic), and turn the reply
// into text and tool calls.
type Model interface {
	Next(ctx context.Context, messages []Message, tools []tools.Tool) (Message, error)
}

// maxSteps bounds the turn, as any agent loop should.
const maxSteps = 10

// Turn runs one user request to the model's final answer, executing every
// tool call through the Toolset's tools, dispatched by a tools.Set (what the
// framework adapters under adapters/ build on).
func Turn(ctx context.Context, w io.Writer, model Model, ts tools.Toolset, request string) (string, error) {
	set, err := tools.NewSet(ts.Tools, nil)
	if err != nil {
		return "", err
	}
	messages := []Message{{Role: "system", Text: "You are a helpful assistant.\n\n" + ts.Prompt}, {Role: "user", Text: request}}
	fmt.Fprintf(w, "user: %s\n", request)
	for step := 0; step < maxSteps; step++ {
		reply, err := model.Next(ctx, messages, ts.Tools)
		if err != nil {
			return "", err
		}
		messages = append(messages, reply)
		if len(reply.Calls) == 0 {
			fmt.Fprintf(w, "assistant: %s\n", reply.Text)
			return reply.Text, nil
		}
		for _, call := range reply.Calls {
			fmt.Fprintf(w, "assistant calls %s %s\n", call.Name, call.Args)
			result := Message{Role: "tool", CallID: call.ID, ToolName: call.Name}
			res, err := set.Call(ctx, call.Name, call.Args)
			if err != nil {
				return "", err // the host's failure, not the model's
			}
			result.Text, result.IsError = res.Text, res.IsError
			fmt.Fprintf(w, "  -> %s\n", firstLine(result.Text))
			messages = append(messages, result)
		}
	}
	return "", fmt.Errorf("no answer after %d steps", maxSteps)
}

// scripted stands in for an LLM. It follows the catalog's guidance the way a
// model should: find the skills the request needs, read each before using
// it, read every reference listed as required, run compute skills with
// execute_skill, then answer from what the tools returned.
type scripted struct{}

var (
	skillTag    = regexp.MustCompile(`<skill name="([^"]+)" type="([^"]+)"`)
	requiredRef = regexp.MustCompile(`(?s)<skill_required_references>.*?</skill_required_references>`)
	listedPath  = regexp.MustCompile(`(?m)^- (\S+)`)
	dates       = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	skillFolder = regexp.MustCompile(`(?m)^Skill folder: (.+)$`)
	csvFile     = regexp.MustCompile(`\S+\.csv`)
)

func (scripted) Next(_ context.Context, messages []Message, _ []tools.Tool) (Message, error) {
	system, request := messages[0].Text, messages[1].Text
	done := map[string]string{} // tool call id -> answer
	for _, m := range messages {
		if m.Role == "tool" {
			done[m.CallID] = m.Text
		}
	}
	// The skills the request is about, from the catalog.
	var wanted []string
	for _, m := range skillTag.FindAllStringSubmatch(system, -1) {
		name := m[1]
		if strings.Contains(request, "release notes") && name == "release-notes" ||
			strings.Contains(request, "working days") && name == "date-diff" ||
			strings.Contains(request, ".csv") && name == "csv-tools" {
			wanted = append(wanted, name)
		}
	}
	call := func(id, name string, args any) (Message, error) {
		raw, err := json.Marshal(args)
		return Message{Role: "assistant", Calls: []ToolCall{{ID: id, Name: name, Args: raw}}}, err
	}
	for _, name := range wanted {
		id := "read:" + name
		answer, read := done[id]
		if !read {
			return call(id, "read_skill", map[string]string{"name": name, "task": request})
		}
		// Read every reference the skill says must be read first.
		for _, ref := range listedPath.FindAllStringSubmatch(requiredRef.FindString(answer), -1) {
			refID := "file:" + name + ":" + ref[1]
			if _, ok := done[refID]; !ok {
				return call(refID, "read_skill_file", map[string]string{"name": name, "path": ref[1]})
			}
		}
		if name == "csv-tools" {
			// A compute-toolkit skill: its script runs with the host's own
			// bash tool, from the workspace, by its path in the skill folder.
			if _, ok := done["bash:summary"]; !ok {
				folder := skillFolder.FindStringSubmatch(answer)
				if folder == nil {
					return Message{}, fmt.Errorf("read_skill did not say where csv-tools is")
				}
				script := filepath.Join(folder[1], "scripts", "summary.sh")
				return call("bash:summary", "bash", map[string]string{"command": "bash " + script + " " + csvFile.FindString(request)})
			}
		}
		if name == "date-diff" {
			if _, ok := done["run:date-diff"]; !ok {
				d := dates.FindAllString(request, 2)
				return call("run:date-diff", "execute_skill", map[string]any{"name": "date-diff", "input": map[string]string{"from": d[0], "to": d[1]}})
			}
		}
	}
	// Everything read and run: answer.
	var answer strings.Builder
	if out, ok := done["run:date-diff"]; ok {
		var r struct {
			Weekdays int `json:"weekdays"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			return Message{}, err
		}
		fmt.Fprintf(&answer, "There are %d working days until the release. ", r.Weekdays)
	}
	if out, ok := done["bash:summary"]; ok {
		fmt.Fprintf(&answer, "The CSV file: %s. ", strings.Join(strings.Fields(out), " "))
	}
	if _, ok := done["file:release-notes:references/format.md"]; ok {
		answer.WriteString("Release notes, in the format the skill requires:\n\n## v1.4.0\n\n### Added\n- Export reports as CSV.\n\n### Fixed\n- Crash when the input file is empty.")
	}
	return Message{Role: "assistant", Text: answer.String()}, nil
}

func run(ctx context.Context, w io.Writer, dir string) error {
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir})
	if err != nil {
		return err
	}
	defer kit.Close()
	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		return err
	}
	// The host's own bash tool goes beside the skill tools, working in the
	// agent's workspace.
	workspace, err := os.MkdirTemp("", "agent-workspace")
	if err != nil {
		return err
	}
	defer os.RemoveAll(workspace)
	if err := os.WriteFile(filepath.Join(workspace, "sales.csv"), []byte("region,amount\neast,10\nwest,20\n"), 0o644); err != nil {
		return err
	}
	ts.Tools = append(ts.Tools, shellTool(kit, workspace))
	_, err = Turn(ctx, w, scripted{}, ts,
		"Write release notes for v1.4.0 (added CSV export, fixed a crash on empty input), tell me how many working days there are from 2026-12-01 to 2026-12-24, and summarize sales.csv.")
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 100 {
		line = line[:100] + "…"
	}
	return line
}
