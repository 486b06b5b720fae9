package skillkit_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
)

// TestREADMECodeCompiles builds every Go code block of the README, so the
// README cannot drift from the API.
func TestREADMECodeCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("the README has no Go code block")
	}
	for i, b := range blocks {
		// A folder starting with _ is invisible to ./... but can be built by
		// name, inside this module, with its go.mod and go.sum.
		dir, err := os.MkdirTemp(".", "_readme_block_")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if err := os.WriteFile(filepath.Join(dir, "main.go"), b[1], 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "build", "-o", os.DevNull, "./"+filepath.ToSlash(dir))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("README code block %d does not build: %v\n%s\n%s", i+1, err, out, b[1])
		}
	}
}

// TestREADMECountsEveryCode: the comparison table's count of documented
// diagnostic codes is the number the diagnostics package documents.
func TestREADMECountsEveryCode(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`yes \((\d+) documented codes\)`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README no longer counts the documented codes")
	}
	if want := strconv.Itoa(len(diagnostics.Codes())); string(m[1]) != want {
		t.Errorf("the README says %s documented codes; diagnostics documents %s", m[1], want)
	}
}
