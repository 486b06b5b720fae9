package archive

import (
	"archive/zip"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// thousandFileSkill writes a ZIP of a skill with 1,000 files of text (0.5 to
// 8 KB each, about 4 MB in all) in a few nested folders and returns its
// path.
func thousandFileSkill(b *testing.B) string {
	b.Helper()
	words := strings.Fields("the skill reads a file and writes a report with tables charts and notes for each step of the task when asked by the user")
	rng := rand.New(rand.NewPCG(7, 7))
	text := func(n int) string {
		var sb strings.Builder
		for sb.Len() < n {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte(" \n"[rng.IntN(12)/11])
		}
		return sb.String()
	}
	name := filepath.Join(b.TempDir(), "skill.zip")
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	w := zip.NewWriter(f)
	add := func(p string, body string, mode os.FileMode) {
		fh := &zip.FileHeader{Name: p, Method: zip.Deflate}
		fh.SetMode(mode)
		fw, err := w.CreateHeader(fh)
		if err != nil {
			b.Fatal(err)
		}
		fw.Write([]byte(body))
	}
	add("SKILL.md", skillMD, 0o644)
	for i := 1; i < 1000; i++ {
		var p string
		mode := os.FileMode(0o644)
		switch i % 10 {
		case 0, 1, 2, 3:
			p = fmt.Sprintf("references/topic-%02d/note-%04d.md", i%20, i)
		case 4:
			p, mode = fmt.Sprintf("scripts/tool_%04d.py", i), 0o755
		case 5, 6, 7:
			p = fmt.Sprintf("assets/data/set-%d/table-%04d.csv", i%5, i)
		default:
			p = fmt.Sprintf("examples/case-%03d/input-%04d.json", i%50, i)
		}
		add(p, text(512+rng.IntN(7680)), mode)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return name
}

// BenchmarkExtract1000Files compares ExtractZipFile (check included) with
// unzip -q on the same archive. Each iteration runs both, alternating which
// goes first, so load from other processes falls on both alike; the
// metrics are the mean time of each and their ratio. The installer's
// target is a ratio within 1.5.
func BenchmarkExtract1000Files(b *testing.B) {
	if _, err := exec.LookPath("unzip"); err != nil {
		b.Skip("no unzip here")
	}
	archive := thousandFileSkill(b)
	base := b.TempDir()
	extract := map[string]func(dst string) error{
		"skillkit": func(dst string) error {
			rep, err := ExtractZipFile(b.Context(), archive, dst, nil)
			if err == nil && len(rep.Valid) != 1000 {
				err = fmt.Errorf("extracted %d files", len(rep.Valid))
			}
			return err
		},
		"unzip": func(dst string) error {
			out, err := exec.Command("unzip", "-q", archive, "-d", dst).CombinedOutput()
			if err != nil {
				return fmt.Errorf("unzip: %v: %s", err, out)
			}
			return nil
		},
	}
	spent := map[string]time.Duration{}
	n := 0
	for b.Loop() {
		order := []string{"skillkit", "unzip"}
		if n%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, name := range order {
			dst := filepath.Join(base, name)
			if err := os.Mkdir(dst, 0o755); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			if err := extract[name](dst); err != nil {
				b.Fatal(err)
			}
			spent[name] += time.Since(start)
			if err := os.RemoveAll(dst); err != nil {
				b.Fatal(err)
			}
		}
		n++
	}
	b.ReportMetric(float64(spent["skillkit"].Milliseconds())/float64(n), "skillkit-ms/op")
	b.ReportMetric(float64(spent["unzip"].Milliseconds())/float64(n), "unzip-ms/op")
	b.ReportMetric(float64(spent["skillkit"])/float64(spent["unzip"]), "ratio")
}
