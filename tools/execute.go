package tools

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/skillkit-go/skillkit/executor"
)

// ExecuteSkillName is the name of the execute_skill tool.
const ExecuteSkillName = "execute_skill"

// ExecuteSkill returns the execute_skill tool: it runs a compute-entry skill
// with a JSON input and answers with the skill's JSON output
// (docs/protocol.md).
// names are the compute-entry skills this agent may run, the enum of the name
// argument. Everything that goes wrong with the skill (invalid input, a
// timeout, a non-zero exit, output that is not JSON, a skill that cannot
// run) is an IsError result whose text says what; only a cancelled context
// is a Go error. It fails only when names is empty.
func ExecuteSkill(ex *executor.Executor, names []string) (Tool, error) {
	if len(names) == 0 {
		return Tool{}, errors.New("tools: execute_skill needs at least one compute-entry skill")
	}
	if ex == nil {
		return Tool{}, errors.New("tools: execute_skill needs an executor")
	}
	accepted := newNameSet(names)
	schema := objectSchema([]property{
		{"name", accepted.property("The compute-entry skill to run.")},
		{"input", map[string]any{"type": "object", "description": "The skill's input as a JSON object; <available_skills> lists each skill's input fields."}},
	}, "name", "input")
	type args struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	return newTool(ExecuteSkillName,
		"Run a compute-entry skill with a JSON input and get its JSON output. Only skills of type compute-entry can be run.",
		schema, false,
		func(ctx context.Context, a args) (Result, error) {
			if !accepted.has(a.Name) {
				return accepted.unknown("compute-entry skill", a.Name), nil
			}
			out, err := ex.Execute(ctx, a.Name, a.Input)
			if err != nil {
				if ctx.Err() != nil {
					return Result{}, err
				}
				structured, _ := json.Marshal(out)
				return Result{Text: "execute_skill " + a.Name + " failed: " + out.Error, Structured: structured, IsError: true}, nil
			}
			structured, _ := json.Marshal(out)
			return Result{Text: string(out.Output), Structured: structured}, nil
		})
}
