package archive

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

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
// unzip -q on the same archive, each into an empty folder (see
// testcorpus.Compare). The installer's target is a ratio within 1.5.
func BenchmarkExtract1000Files(b *testing.B) {
	if _, err := exec.LookPath("unzip"); err != nil {
		b.Skip("no unzip here")
	}
	archive := thousandFileSkill(b)
	base := b.TempDir()
	side := func(name string, extract func(dst string) error) testcorpus.Side {
		dst := filepath.Join(base, name)
		return testcorpus.Side{
			Name:   name,
			Before: func() error { return os.Mkdir(dst, 0o755) },
			Run:    func() error { return extract(dst) },
			After:  func() error { return os.RemoveAll(dst) },
		}
	}
	testcorpus.Compare(b,
		side("skillkit", func(dst string) error {
			rep, err := ExtractZipFile(b.Context(), archive, dst, nil)
			if err == nil && len(rep.Valid) != 1000 {
				err = fmt.Errorf("extracted %d files", len(rep.Valid))
			}
			return err
		}),
		side("unzip", func(dst string) error {
			out, err := exec.Command("unzip", "-q", archive, "-d", dst).CombinedOutput()
			if err != nil {
				return fmt.Errorf("unzip: %v: %s", err, out)
			}
			return nil
		}))
}
