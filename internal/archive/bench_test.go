package archive

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// thousandFileSkill writes the benchmark's archive (see
// testcorpus.ThousandFileZip) and returns its path.
func thousandFileSkill(b *testing.B) string {
	b.Helper()
	name := filepath.Join(b.TempDir(), "skill.zip")
	if err := testcorpus.ThousandFileZip(name, skillMD); err != nil {
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
