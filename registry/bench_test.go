package registry_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// BenchmarkFingerprintCorpus compares registry.Fingerprint of every corpus
// skill with sha256sum of the same files (each skill's files, as
// Fingerprint counts them), in one process started per iteration. Each
// iteration runs both, alternating which goes first; the metrics are the
// mean time of each and their ratio (target: within 1.3).
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
			if e.IsDir() && p != d && slices.Contains(skill.InfraDirs, e.Name()) {
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
	run := map[string]func() error{
		"fingerprint": func() error {
			for _, d := range dirs {
				if _, err := registry.Fingerprint(fsys, d); err != nil {
					return err
				}
			}
			return nil
		},
		"sha256sum": func() error {
			cmd := exec.Command("sha256sum", append([]string{"--"}, files...)...)
			cmd.Stdout = nil
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("sha256sum: %v: %.200s", err, out)
			}
			return nil
		},
	}
	spent := map[string]time.Duration{}
	n := 0
	for b.Loop() {
		order := []string{"fingerprint", "sha256sum"}
		if n%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, name := range order {
			start := time.Now()
			if err := run[name](); err != nil {
				b.Fatal(err)
			}
			spent[name] += time.Since(start)
		}
		n++
	}
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(bytes)/1e6, "MB")
	b.ReportMetric(float64(spent["fingerprint"].Microseconds())/1e3/float64(n), "fingerprint-ms/op")
	b.ReportMetric(float64(spent["sha256sum"].Microseconds())/1e3/float64(n), "sha256sum-ms/op")
	b.ReportMetric(float64(spent["fingerprint"])/float64(spent["sha256sum"]), "ratio")
}
