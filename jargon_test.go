package skillkit_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoDesignDocumentJargon: the design documents skillkit started from are
// not published, so public text never cites them ("seed 000 §4.1") or names
// things after them ("the seed's format"): every Go file other than tests,
// whose doc comments and help texts users read, and every Markdown page.
// scan/rules.go is left out: there a seed phrase is a crypto wallet's.
func TestNoDesignDocumentJargon(t *testing.T) {
	jargon := regexp.MustCompile(`(?i)\bseeds?\b|§`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !(strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".md")) ||
			filepath.ToSlash(path) == "scan/rules.go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if jargon.MatchString(line) {
				t.Errorf("%s:%d: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
