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
// archive into an empty folder (see testcorpus.Compare; target: a ratio
// within 1.5). Uninstalling between iterations is not timed.
func BenchmarkInstallZip1000Files(b *testing.B) {
	install, unzip, _ := zipBenchSides(b)
	testcorpus.Compare(b, install, unzip)
}

// BenchmarkInstallZip1000FilesCPU is BenchmarkInstallZip1000Files in CPU
// time (user + system, every thread): Install's own against the unzip
// child's, medians of alternated runs (target: a ratio within 1.5). On a
// shared machine CPU time holds up better than wall time, and a second core
// does not flatter either side.
func BenchmarkInstallZip1000FilesCPU(b *testing.B) {
	install, unzip, child := zipBenchSides(b)
	testcorpus.CompareCPU(b, install, unzip,
		nil, func() time.Duration { return (*child).UserTime() + (*child).SystemTime() })
}

// zipBenchSides are the two sides of the ZIP benchmarks: Install of a
// 1,000-file skill's archive into a fresh skills folder (uninstalled after
// each run, untimed), and unzip -q of it into an empty folder; child is
// where the last unzip's process state is kept.
func zipBenchSides(b *testing.B) (install, unzip testcorpus.Side, child **os.ProcessState) {
	if _, err := exec.LookPath("unzip"); err != nil {
		b.Skip("no unzip here")
	}
	archive := filepath.Join(b.TempDir(), "skill.zip")
	if err := testcorpus.ThousandFileZip(archive, skillMD("thousand", "A skill of a thousand files.")); err != nil {
		b.Fatal(err)
	}
	base := b.TempDir()
	in, err := openFolder(filepath.Join(base, "skills"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.dir.Close() })
	ctx := context.Background()
	unzipped := filepath.Join(base, "unzipped")
	child = new(*os.ProcessState)
	install = testcorpus.Side{
		Name: "install",
		Run: func() error {
			res, err := in.Install(ctx, Source{ZipFile: archive}, nil)
			if err == nil && res.Replaced {
				err = fmt.Errorf("replaced an installed version")
			}
			return err
		},
		After: func() error { return in.Uninstall(ctx, "thousand", nil) },
	}
	unzip = testcorpus.Side{
		Name: "unzip",
		Run: func() error {
			cmd := exec.Command("unzip", "-q", archive, "-d", unzipped)
			out, err := cmd.CombinedOutput()
			if err != nil {
				return fmt.Errorf("unzip: %v: %s", err, out)
			}
			*child = cmd.ProcessState
			return nil
		},
		After: func() error { return os.RemoveAll(unzipped) },
	}
	return install, unzip, child
}
