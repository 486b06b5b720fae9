package scan_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/scan"
)

// slowFS opens files of refs/ slowly and counts the opens; the nth open
// cancels the scan.
type slowFS struct {
	fs.FS
	opens  atomic.Int32
	cancel func()
	nth    int32
}

func (s *slowFS) Open(name string) (fs.File, error) {
	if strings.Contains(name, "/refs/") {
		time.Sleep(5 * time.Millisecond)
		if s.opens.Add(1) == s.nth {
			s.cancel()
		}
	}
	return s.FS.Open(name)
}

// A scan reads ahead of what it scans; when it is cancelled, the reading
// stops before the scan returns, so nothing reads the caller's file system
// afterwards (a root the caller closes, say).
func TestCancelStopsReading(t *testing.T) {
	files := map[string][]byte{}
	for i := range 40 {
		files[fmt.Sprintf("refs/%02d.md", i)] = []byte("text\n")
	}
	ctx, cancel := context.WithCancel(t.Context())
	fsys := &slowFS{FS: mapSkill(files), cancel: cancel, nth: 3}
	_, err := scan.Skill(ctx, fsys, "s", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	after := fsys.opens.Load()
	time.Sleep(100 * time.Millisecond)
	if n := fsys.opens.Load(); n != after {
		t.Errorf("%d files were opened after the scan returned", n-after)
	}
	if after >= 40 {
		t.Errorf("all %d files were read though the scan was cancelled at the third", after)
	}
}

// Reading ahead keeps the scan's byte budget: the files past it are not
// read at all, whatever order the reader runs in.
func TestBudgetNotRead(t *testing.T) {
	files := map[string][]byte{}
	for i := range 10 {
		files[fmt.Sprintf("refs/%02d.md", i)] = []byte(strings.Repeat("x", 100))
	}
	fsys := &slowFS{FS: mapSkill(files), cancel: func() {}, nth: -1}
	rep, err := scan.Skill(t.Context(), fsys, "s", &scan.Options{MaxTotalBytes: 350})
	if err != nil {
		t.Fatal(err)
	}
	// SKILL.md is read first and counts towards the budget; then files are
	// read while some budget is left, the last one cut short.
	want := (350 - len(skillMD) + 99) / 100
	if n := fsys.opens.Load(); int(n) != want {
		t.Errorf("%d files of refs/ opened under a 350-byte budget, want %d", n, want)
	}
	if rep.Bytes > 350 {
		t.Errorf("%d bytes scanned, over the 350-byte budget", rep.Bytes)
	}
}
