package skill

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
)

// A skill's files are listed down to MaxFolderDepth levels; deeper folders
// are named in a LIMIT_REACHED diagnostic, not listed.
func TestLoadListsFilesDownToTheDepthLimit(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: deep\ndescription: Deep.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	within := strings.Repeat("a/", MaxFolderDepth) + "f.md"
	beyond := strings.Repeat("b/", MaxFolderDepth+1) + "f.md"
	for _, p := range []string{within, beyond} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, diags := Load(os.DirFS(dir), ".", nil)
	if s == nil {
		t.Fatalf("not loaded: %v", diags)
	}
	if len(s.Files) != 1 || s.Files[0] != within {
		t.Fatalf("files %v", s.Files)
	}
	if d := diags.WithCode(diagnostics.LimitReached); len(d) != 1 || !strings.Contains(d[0].Message, "more than 64 levels deep") {
		t.Fatalf("diagnostics %v", diags)
	}
}
