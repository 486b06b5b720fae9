//go:build unix

package tools_test

import (
	"os"
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

// A hard link in a skill folder may be the same file as one outside it:
// read_skill_file does not serve it, as installs do not take it.
func TestReadSkillFileRefusesHardLinks(t *testing.T) {
	s, dir := infraSkill(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte(outsideSecret), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, "references", "notes.md")); err != nil {
		t.Skip("cannot create hard links here:", err)
	}
	tool, _ := tools.ReadSkillFile(mapLookup{"leaky": s}, []string{"leaky"}, nil)
	for _, p := range []string{"references/notes.md", "references/up/references/notes.md"} {
		res := call(t, tool, `{"name":"leaky","path":`+quote(p)+`}`)
		if !res.IsError || !strings.Contains(res.Text, "hard link") || strings.Contains(res.Text, outsideSecret) {
			t.Errorf("%s: want a refusal naming the hard link, got %+v", p, res)
		}
	}
}
