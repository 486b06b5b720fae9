package installer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// BenchmarkInstallZip1000Files compares Install of a ZIP archive of a
// 1,000-file skill (the whole flow: check, extract into staging, load,
// fingerprint, sync, swap, registry record) with unzip -q of the same
// archive into an empty folder. Each iteration runs both, alternating which
// goes first; the metrics are the mean time of each and their ratio
// (target: within 1.5). Uninstalling between iterations is not timed.
func BenchmarkInstallZip1000Files(b *testing.B) {
	if _, err := exec.LookPath("unzip"); err != nil {
		b.Skip("no unzip here")
	}
	archive := filepath.Join(b.TempDir(), "skill.zip")
	if err := testcorpus.ThousandFileZip(archive, skillMD("thousand", "A skill of a thousand files.")); err != nil {
		b.Fatal(err)
	}
	base := b.TempDir()
	in, err := New(context.Background(), filepath.Join(base, "skills"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	run := map[string]func() error{
		"install": func() error {
			res, err := in.Install(ctx, Source{ZipFile: archive}, nil)
			if err == nil && res.Replaced {
				err = fmt.Errorf("replaced an installed version")
			}
			return err
		},
		"unzip": func() error {
			out, err := exec.Command("unzip", "-q", archive, "-d", filepath.Join(base, "unzipped")).CombinedOutput()
			if err != nil {
				return fmt.Errorf("unzip: %v: %s", err, out)
			}
			return nil
		},
	}
	cleanup := map[string]func() error{
		"install": func() error { return in.Uninstall(ctx, "thousand", nil) },
		"unzip":   func() error { return os.RemoveAll(filepath.Join(base, "unzipped")) },
	}
	spent := map[string]time.Duration{}
	n := 0
	for b.Loop() {
		order := []string{"install", "unzip"}
		if n%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, name := range order {
			start := time.Now()
			if err := run[name](); err != nil {
				b.Fatal(err)
			}
			spent[name] += time.Since(start)
			b.StopTimer()
			if err := cleanup[name](); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		n++
	}
	b.ReportMetric(float64(spent["install"].Microseconds())/1e3/float64(n), "install-ms/op")
	b.ReportMetric(float64(spent["unzip"].Microseconds())/1e3/float64(n), "unzip-ms/op")
	b.ReportMetric(float64(spent["install"])/float64(spent["unzip"]), "ratio")
}
