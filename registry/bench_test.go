package registry_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// BenchmarkFingerprintCorpus compares registry.Fingerprint of every corpus
// skill with sha256sum of the same files (each skill's files, as
// Fingerprint counts them), in one process started per iteration (see
// testcorpus.Compare; target: a ratio within 1.3).
func BenchmarkFingerprintCorpus(b *testing.B) {
	if _, err := exec.LookPath("sha256sum"); err != nil {
		b.Skip("no sha256sum here")
	}
	root, dirs := testcorpus.SkillDirs(b)
	fsys := os.DirFS(root)
	var files []string
	var bytes int64
	for _, d := range dirs {
		err := fs.WalkDir(fsys, d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() && p != d && skill.IsInfraDir(e.Name()) {
				return fs.SkipDir
			}
			if e.Type().IsRegular() {
				info, err := e.Info()
				if err != nil {
					return err
				}
				files, bytes = append(files, path.Join(root, p)), bytes+info.Size()
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	testcorpus.Compare(b,
		testcorpus.Side{Name: "fingerprint", Run: func() error {
			for _, d := range dirs {
				if _, err := registry.Fingerprint(b.Context(), fsys, d); err != nil {
					return err
				}
			}
			return nil
		}},
		testcorpus.Side{Name: "sha256sum", Run: func() error {
			out, err := exec.Command("sha256sum", append([]string{"--"}, files...)...).CombinedOutput()
			if err != nil {
				return fmt.Errorf("sha256sum: %v: %.200s", err, out)
			}
			return nil
		}})
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(bytes)/1e6, "MB")
}
