package executor_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// median of the durations, in nanoseconds.
func median(d []time.Duration) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return float64(s[len(s)/2])
}

// alternate runs first and second once per iteration and reports the
// median of each and the median of their per-iteration differences.
func alternate(b *testing.B, firstName, secondName string, first, second func()) {
	var d1, d2, diff []time.Duration
	for b.Loop() {
		t0 := time.Now()
		first()
		t1 := time.Now()
		second()
		t2 := time.Now()
		d1 = append(d1, t1.Sub(t0))
		d2 = append(d2, t2.Sub(t1))
		diff = append(diff, t2.Sub(t1)-t1.Sub(t0))
	}
	b.ReportMetric(median(d1), firstName+"-median-ns")
	b.ReportMetric(median(d2), secondName+"-median-ns")
	b.ReportMetric(median(diff), "overhead-median-ns")
}

// BenchmarkExecuteOverhead runs, in each iteration, the trivial bash skill
// once through Executor.Execute and once through plain os/exec (the same
// script, input, folder and environment), and reports the medians and the
// median of the per-iteration differences: what the Executor adds. The
// default sub-benchmarks include the confinement every run gets, in a host
// holding 0, 512 MB and 2 GB of touched memory (a real host holds hundreds
// of MB); isolate-off is the Executor's own work, without confinement.
func BenchmarkExecuteOverhead(b *testing.B) {
	for _, heapMB := range []int{0, 512, 2048} {
		b.Run(fmt.Sprintf("default/heap=%dMB", heapMB), func(b *testing.B) {
			withHeap(heapMB, func() { benchmarkExecuteOverhead(b, nil) })
		})
	}
	b.Run("isolate-off", func(b *testing.B) {
		benchmarkExecuteOverhead(b, &executor.Options{Runner: &executor.LocalRunner{Isolation: executor.IsolateOff}})
	})
}

// withHeap runs fn while the process holds mb megabytes of touched memory.
func withHeap(mb int, fn func()) {
	heap := make([]byte, mb<<20)
	for i := 0; i < len(heap); i += 4096 {
		heap[i] = 1
	}
	fn()
	runtime.KeepAlive(heap)
}

func benchmarkExecuteOverhead(b *testing.B, opts *executor.Options) {
	needPrograms(b, "bash")
	e, skills := newExecutor(b, opts)
	dir := skills["bash-trivial"].DiskDir
	bash, _ := exec.LookPath("bash")
	// The environment the Executor builds (the skill declares no env of
	// its own): LANG, for one, changes how long bash takes to start.
	var env []string
	for _, name := range executor.DefaultEnvWhitelist() {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	input := json.RawMessage(`{"n":2}`)
	plain := func() {
		var out bytes.Buffer
		cmd := exec.Command(bash, "run.sh")
		cmd.Dir, cmd.Env, cmd.Stdin, cmd.Stdout = dir, env, bytes.NewReader(input), &out
		if err := cmd.Run(); err != nil || out.String() != "{\"ok\":true}\n" {
			b.Fatalf("os/exec: %q, %v", out.String(), err)
		}
	}
	alternate(b, "exec", "execute", plain, func() {
		out, err := e.Execute(b.Context(), "bash-trivial", input)
		if err != nil || string(out.Output) != `{"ok":true}` {
			b.Fatalf("Execute: %s, %v", out.Output, err)
		}
	})
}

// alternateRunners runs bash-trivial's script through first and second
// alternately (see alternate).
func alternateRunners(b *testing.B, firstName string, first executor.Runner, secondName string, second executor.Runner) {
	dir, _ := filepath.Abs("testdata/skills/bash-trivial")
	cmd := executor.Command{Path: "bash", Args: []string{"run.sh"}, Dir: dir, Stdin: []byte(`{"n":1}`),
		Env: map[string]string{"PATH": os.Getenv("PATH")}}
	run := func(name string, r executor.Runner) func() {
		return func() {
			res, err := r.Run(b.Context(), cmd)
			if err != nil || res.ExitCode != 0 {
				b.Fatalf("%s: exit %d, %v, %s", name, res.ExitCode, err, res.Stderr)
			}
		}
	}
	alternate(b, firstName, secondName, run(firstName, first), run(secondName, second))
}

// BenchmarkSandboxOverhead runs the same command through a LocalRunner
// and a SandboxRunner in each iteration and reports the medians and the
// median difference: what bubblewrap costs per run.
func BenchmarkSandboxOverhead(b *testing.B) {
	needPrograms(b, "bash")
	alternateRunners(b, "local", &executor.LocalRunner{}, "sandbox", newSandbox(b, nil))
}

// BenchmarkIsolationOverhead runs the same command through a LocalRunner
// without namespaces and one with them (the default) in each iteration and
// reports the medians and the median difference: what the user and PID
// namespaces cost per run.
func BenchmarkIsolationOverhead(b *testing.B) {
	needPrograms(b, "bash")
	alternateRunners(b, "off", &executor.LocalRunner{Isolation: executor.IsolateOff},
		"isolated", &executor.LocalRunner{Isolation: executor.IsolateRequired})
}

// BenchmarkConfinementOverhead runs the same command through a LocalRunner
// without confinement (IsolateOff: a plain os/exec start in a process
// group) and through the default, confined one, alternately, in a host
// that holds heapMB of touched memory: a real host holds hundreds of MB,
// and a start that copied its page tables would cost in proportion.
func BenchmarkConfinementOverhead(b *testing.B) {
	needPrograms(b, "bash")
	for _, heapMB := range []int{0, 512, 2048} {
		b.Run(fmt.Sprintf("heap=%dMB", heapMB), func(b *testing.B) {
			withHeap(heapMB, func() {
				alternateRunners(b, "plain", &executor.LocalRunner{Isolation: executor.IsolateOff},
					"confined", &executor.LocalRunner{Isolation: executor.IsolateRequired})
			})
		})
	}
}
