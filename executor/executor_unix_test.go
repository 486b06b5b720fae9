//go:build unix

package executor_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// isolations are the LocalRunner modes the kill tests run under: the
// default, and without namespaces, where the process group kill alone must
// keep the promise.
var isolations = []executor.Isolation{executor.IsolateAuto, executor.IsolateOff}

func TestExecuteTimeoutKillsGrandchild(t *testing.T) {
	needPrograms(t, "bash")
	for _, iso := range isolations {
		t.Run(iso.String(), func(t *testing.T) {
			pidDir := t.TempDir()
			pidFile := filepath.Join(pidDir, "pid")
			e, _ := newExecutor(t, &executor.Options{Runner: workIn(&executor.LocalRunner{Isolation: iso}, pidDir)})
			start := time.Now()
			out, err := execute(t, e, "bash-slow", fmt.Sprintf(`{"pid_file":%q}`, pidFile))
			if !errors.Is(err, executor.ErrTimeout) {
				t.Fatalf("err = %v, want ErrTimeout", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("a 2s timeout took %v", d)
			}
			// 2 s leave the skill time to start its grandchild and write
			// "waiting" after its pid, even on a loaded machine.
			if out.ExitCode != -1 || !strings.Contains(out.Error, "timeout of 2s") || !strings.Contains(out.Error, "waiting for the grandchild") {
				t.Fatalf("outcome %+v", out)
			}
			waitGone(t, pidFile)

			// The host's maximum caps the skill's timeout. 100ms may pass
			// before bash even started the grandchild: it is checked only
			// if it wrote its pid.
			capped := executor.New(loadSkills(t, "testdata/skills"), nil, &executor.Options{
				MaxTimeout: 100 * time.Millisecond, Runner: workIn(&executor.LocalRunner{Isolation: iso}, pidDir)})
			_, err = capped.Execute(deadline(t), "bash-slow", json.RawMessage(fmt.Sprintf(`{"pid_file":%q}`, pidFile+"2")))
			if !errors.Is(err, executor.ErrTimeout) || !strings.Contains(err.Error(), "timeout of 100ms") {
				t.Errorf("err = %v, want a timeout of 100ms", err)
			}
			if _, err := os.Stat(pidFile + "2"); err == nil {
				waitGone(t, pidFile+"2")
			}
		})
	}
}
