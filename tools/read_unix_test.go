//go:build unix

package tools_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/tools"
)

// A named pipe in a skill folder is refused without being opened: opening it
// would block until someone writes to it.
func TestReadSkillFileNamedPipe(t *testing.T) {
	skills, _ := diskSkills(t)
	if err := syscall.Mkfifo(filepath.Join(skills["docs"].DiskDir, "references", "pipe.md"), 0o644); err != nil {
		t.Skip("cannot create a named pipe:", err)
	}
	tool, _ := tools.ReadSkillFile(skills, []string{"docs"}, nil)
	done := make(chan tools.Result, 1)
	go func() { done <- call(t, tool, `{"name":"docs","path":"references/pipe.md"}`) }()
	select {
	case res := <-done:
		if !res.IsError || !strings.Contains(res.Text, "not a regular file") {
			t.Errorf("%+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("read_skill_file blocked on a named pipe")
	}
}
