//go:build unix

package executor_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

func TestExecuteTimeoutKillsGrandchild(t *testing.T) {
	needPrograms(t, "bash")
	e, _ := newExecutor(t, nil)
	pidFile := filepath.Join(t.TempDir(), "pid")
	start := time.Now()
	out, err := execute(t, e, "bash-slow", fmt.Sprintf(`{"pid_file":%q}`, pidFile))
	if !errors.Is(err, executor.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a 500ms timeout took %v", d)
	}
	if out.ExitCode != -1 || !strings.Contains(out.Error, "timeout of 500ms") || !strings.Contains(out.Error, "waiting for the grandchild") {
		t.Errorf("outcome %+v", out)
	}
	waitGone(t, pidFile)

	// The host's maximum caps the skill's timeout.
	capped := executor.New(loadSkills(t, "testdata/skills"), nil, &executor.Options{MaxTimeout: 100 * time.Millisecond})
	_, err = capped.Execute(t.Context(), "bash-slow", json.RawMessage(fmt.Sprintf(`{"pid_file":%q}`, pidFile+"2")))
	if !errors.Is(err, executor.ErrTimeout) || !strings.Contains(err.Error(), "timeout of 100ms") {
		t.Errorf("err = %v, want a timeout of 100ms", err)
	}
	waitGone(t, pidFile+"2")
}
