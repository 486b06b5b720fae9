package executor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/skillkit-go/skillkit/executor"
)

// echoRunner hands the skill's input back as its output, so a fuzzer
// reaches input parsing, defaults, validation and output checking without
// starting processes.
func echoRunner() executor.Runner {
	return executor.RunnerFunc(func(_ context.Context, cmd executor.Command) (executor.Result, error) {
		return executor.Result{Stdout: cmd.Stdin}, nil
	})
}

func FuzzExecuteInput(f *testing.F) {
	for _, seed := range []string{
		`{"numbers":[1,2,3]}`, `{"numbers":[1],"options":{"scale":2,"label":"x"}}`, `{"numbers":[]}`,
		`{"numbers":[1],"options":{"bogus":true}}`, `null`, ``, `[]`, `"x"`, `{"numbers":[1e400]}`,
		`{"numbers":[1]} {}`, `{"a":{"b":{"c":[[[[]]]]}}}`, "{\"numbers\":[1],\"\xff\":1}",
	} {
		f.Add([]byte(seed))
	}
	e, _ := newExecutor(f, &executor.Options{Runner: echoRunner()})
	f.Fuzz(func(t *testing.T, input []byte) {
		out, err := e.Execute(context.Background(), "node-sum", input)
		if err != nil {
			if out.Success() || out.Error != err.Error() || out.Output != nil {
				t.Fatalf("failed execution with outcome %+v", out)
			}
			if !errors.Is(err, executor.ErrInvalidInput) && !errors.Is(err, executor.ErrBadOutput) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		// The input reached the skill as valid JSON with the defaults set,
		// and came back as the output.
		var got struct {
			Numbers []json.Number  `json:"numbers"`
			Options map[string]any `json:"options"`
		}
		if err := json.Unmarshal(out.Output, &got); err != nil {
			t.Fatalf("output %q is not JSON: %v", out.Output, err)
		}
		if len(got.Numbers) == 0 || got.Options["label"] == nil || got.Options["scale"] == nil {
			t.Fatalf("input %q passed as %s: numbers or defaults missing", input, out.Output)
		}
	})
}

func FuzzExecuteOutput(f *testing.F) {
	for _, seed := range []string{
		`{"label":"sum","value":6}`, " {\"label\":\"a\",\"value\":1}\n", `{"label":"sum"}`, `{"label":1,"value":"x"}`,
		`{"label":"a","value":1}{}`, `not json`, ``, "\xff", `[1,2]`, `{"label":"a","value":1e999}`,
	} {
		f.Add([]byte(seed))
	}
	var stdout []byte
	runner := executor.RunnerFunc(func(context.Context, executor.Command) (executor.Result, error) {
		return executor.Result{Stdout: stdout}, nil
	})
	e, _ := newExecutor(f, &executor.Options{Runner: runner})
	f.Fuzz(func(t *testing.T, data []byte) {
		stdout = data
		out, err := e.Execute(context.Background(), "node-sum", json.RawMessage(`{"numbers":[1]}`))
		if err != nil {
			if !errors.Is(err, executor.ErrBadOutput) || out.Output != nil {
				t.Fatalf("stdout %q: err %v, output %q; want ErrBadOutput and no output", data, err, out.Output)
			}
			return
		}
		if !json.Valid(out.Output) || !bytes.Equal(out.Output, bytes.TrimSpace(data)) {
			t.Fatalf("stdout %q accepted as %q", data, out.Output)
		}
	})
}
