//go:build unix

package prompt_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
)

// TestActivateStaysInTheSkill: references included for a task are read like
// read_skill_file reads files: a link out of the skill, an infrastructure
// file and a named pipe are never read.
func TestActivateStaysInTheSkill(t *testing.T) {
	s := skillSet(t, map[string]string{
		"leak/SKILL.md":         "---\nname: leak\ndescription: d\nmetadata:\n  references:\n    routes:\n      - match: [deploy]\n        required_refs: [references/x.md, .env, references/pipe.md, references/ok.md]\n---\nBody\n",
		"leak/.env":             "TOKEN=infra-secret",
		"leak/references/ok.md": "fine",
		"outside.txt":           "outside-secret",
	})[0]
	dir := s.DiskDir
	if err := os.Symlink(filepath.Join(dir, "..", "outside.txt"), filepath.Join(dir, "references", "x.md")); err != nil {
		t.Skip("cannot create symbolic links:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "references", "pipe.md"), 0o644); err != nil {
		t.Skip("cannot create a named pipe:", err)
	}
	// Load again so the links and the pipe are among the skill's files.
	s2, diags := skill.Load(os.DirFS(filepath.Dir(dir)), "leak", &skill.LoadOptions{DiskRoot: filepath.Dir(dir)})
	if s2 == nil {
		t.Fatal(diags)
	}
	done := make(chan struct{})
	var act prompt.Activation
	var err error
	go func() {
		act, err = prompt.Activate(s2, &prompt.ActivateOptions{Task: "deploy"})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Activate blocked on the named pipe")
	}
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(act.Text, "outside-secret") || strings.Contains(act.Text, "infra-secret") {
		t.Fatalf("read outside the skill's documents:\n%s", act.Text)
	}
	if diff := cmp.Diff([]string{"references/ok.md"}, act.Inlined); diff != "" {
		t.Errorf("inlined (-want +got):\n%s", diff)
	}
}
