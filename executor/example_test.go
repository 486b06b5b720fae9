package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
)

func ExampleExecutor_Execute() {
	// A host finds skills with the loader; here the example skill is
	// loaded by hand into a map that implements executor.Skills.
	root, _ := filepath.Abs("../examples/skills")
	s, _ := skill.Load(os.DirFS(root), "word-stats", &skill.LoadOptions{DiskRoot: root})
	e := executor.New(skillMap{s.Name: s}, nil, nil)

	out, err := e.Execute(context.Background(), "word-stats", json.RawMessage(`{"text": "to be or not to be", "top": 2}`))
	if err != nil {
		fmt.Println("failed:", err)
		return
	}
	fmt.Println(string(out.Output))

	// Bad input never starts the skill: every problem has its JSON pointer.
	_, err = e.Execute(context.Background(), "word-stats", json.RawMessage(`{"top": "three"}`))
	fmt.Println(err)
	// Output:
	// {"words": 6, "lines": 1, "characters": 18, "top_words": [{"word": "be", "count": 2}, {"word": "to", "count": 2}]}
	// executor: invalid input for skill word-stats: /text: required property is missing; /top: got string, want integer
}

func ExampleLocalRunner() {
	r := &executor.LocalRunner{}
	res, err := r.Run(context.Background(), executor.Command{
		Path:  "bash",
		Args:  []string{"-c", `read name; echo "hello, $name"; echo "HOME is '$HOME'"; exit 3`},
		Stdin: []byte("skillkit\n"),
		// The complete environment: nothing of the host's is inherited.
		Env: map[string]string{"PATH": os.Getenv("PATH")},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(res.Stdout))
	fmt.Println("exit code", res.ExitCode)
	// Output:
	// hello, skillkit
	// HOME is ''
	// exit code 3
}

func ExampleChain() {
	// A middleware that forbids one program and prefixes the output of the
	// others.
	deny := func(next executor.Runner) executor.Runner {
		return executor.RunnerFunc(func(ctx context.Context, cmd executor.Command) (executor.Result, error) {
			if filepath.Base(cmd.Path) == "curl" {
				return executor.Result{}, fmt.Errorf("%w: curl is not allowed here", executor.ErrInvalidCommand)
			}
			res, err := next.Run(ctx, cmd)
			res.Stdout = append([]byte("> "), res.Stdout...)
			return res, err
		})
	}
	r := executor.Chain(&executor.LocalRunner{}, deny)
	_, err := r.Run(context.Background(), executor.Command{Path: "curl"})
	fmt.Println(err)
	res, _ := r.Run(context.Background(), executor.Command{Path: "bash", Args: []string{"-c", "echo ok"}, Env: map[string]string{"PATH": os.Getenv("PATH")}})
	fmt.Print(strings.ToUpper(string(res.Stdout)))
	// Output:
	// executor: invalid command: curl is not allowed here
	// > OK
}
