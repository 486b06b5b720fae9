package scan

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// specimen is a skill written for the tests, read from a txtar file: a
// comment with "attack:", "want:", "rules:" and "none:" lines, then the skill's
// files. A file whose content is "@binary elf" holds the test binary
// itself (a real executable).
type specimen struct {
	name   string
	attack string
	want   string   // safe, caution, dangerous or not-dangerous
	rules  []string // rules that must be among the findings
	none   []string // rules that must not be
	fsys   fstest.MapFS
}

// readTxtar parses the txtar format: "-- name --" lines start files.
func readTxtar(t testing.TB, path string) (comment string, files map[string]string, order []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files = map[string]string{}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur == "" {
			comment = b.String()
		} else {
			files[cur] = b.String()
			order = append(order, cur)
		}
		b.Reset()
	}
	for line := range strings.SplitAfterSeq(string(data), "\n") {
		trimmed := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			flush()
			cur = strings.TrimSuffix(strings.TrimPrefix(trimmed, "-- "), " --")
			continue
		}
		b.WriteString(line)
	}
	flush()
	return comment, files, order
}

func loadSpecimen(t testing.TB, path string) specimen {
	t.Helper()
	comment, files, _ := readTxtar(t, path)
	sp := specimen{name: strings.TrimSuffix(filepath.Base(path), ".txtar"), fsys: fstest.MapFS{}}
	for line := range strings.SplitSeq(comment, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch key {
		case "attack":
			sp.attack = strings.TrimSpace(val)
		case "want":
			sp.want = strings.TrimSpace(val)
		case "rules":
			sp.rules = strings.Fields(val)
		case "none":
			sp.none = strings.Fields(val)
		}
	}
	if sp.want == "" {
		t.Fatalf("%s: no want: line", path)
	}
	for name, body := range files {
		data := []byte(body)
		if strings.TrimSpace(body) == "@binary elf" {
			data = executableBytes(t)
		}
		sp.fsys[sp.name+"/"+name] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return sp
}

// executableBytes returns the head of the running test binary: a real
// executable of this platform (ELF, Mach-O or PE).
func executableBytes(t testing.TB) []byte {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := io.CopyN(&b, f, 16<<10); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func specimens(t testing.TB, dir string) []specimen {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no specimens in testdata/%s: %v", dir, err)
	}
	var out []specimen
	for _, p := range paths {
		out = append(out, loadSpecimen(t, p))
	}
	return out
}

func ruleIDs(r Report) map[string]bool {
	ids := map[string]bool{}
	for _, f := range r.Findings {
		ids[f.Rule] = true
	}
	return ids
}
