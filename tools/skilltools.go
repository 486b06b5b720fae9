package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// SkillTools returns one tool per skill that ts's execute_skill runs, for
// hosts that would rather show the model each compute skill as a tool of
// its own than one execute_skill with a name and an input: the tool is
// named after the skill, described by the skill's description, and takes
// the skill's own input schema (interface.input; any object when the skill
// declares none). A call runs execute_skill with the skill's name and the
// call's arguments as the input, so the input is checked, the skill run and
// its mistakes reported exactly as by execute_skill, and the hints
// (open-world, NeedsConfirmation) are execute_skill's. It returns none when
// ts has no execute_skill. Offer them instead of execute_skill or beside
// it; a skill whose name is not a valid tool name, or is the name of
// another tool, is refused by [NewSet].
func SkillTools(ts Toolset) ([]Tool, error) {
	exec, ok := ts.Tool(ExecuteSkillName)
	if !ok {
		return nil, nil
	}
	if ts.Visibility == nil {
		return nil, fmt.Errorf("tools: SkillTools needs the Toolset's Visibility")
	}
	var schema struct {
		Properties struct {
			Name struct {
				Enum []string `json:"enum"`
			} `json:"name"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(exec.InputSchema, &schema); err != nil {
		return nil, fmt.Errorf("tools: execute_skill's schema: %w", err)
	}
	var out []Tool
	for _, name := range schema.Properties.Name.Enum {
		s, ok := ts.Visibility.Get(name)
		if !ok || s.Config == nil {
			return nil, fmt.Errorf("tools: execute_skill runs %s, which the Toolset does not show", name)
		}
		input := s.Config.Interface.Input
		if len(input) == 0 {
			input = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, Tool{
			Name:              name,
			Description:       s.Description,
			InputSchema:       input,
			ReadOnly:          exec.ReadOnly,
			Destructive:       exec.Destructive,
			OpenWorld:         exec.OpenWorld,
			NeedsConfirmation: exec.NeedsConfirmation,
			Invoke: func(ctx context.Context, args json.RawMessage) (Result, error) {
				if args = bytes.TrimSpace(args); len(args) == 0 {
					args = json.RawMessage("{}")
				}
				if !json.Valid(args) {
					return Errorf("the arguments for %s are not valid JSON; send one JSON object that matches the tool's input schema", name), nil
				}
				call, err := json.Marshal(struct {
					Name  string          `json:"name"`
					Input json.RawMessage `json:"input"`
				}{name, args})
				if err != nil {
					return Result{}, err
				}
				return exec.Invoke(ctx, call)
			},
		})
	}
	return out, nil
}
