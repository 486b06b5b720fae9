//go:build unix

package installer

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// cpuTime is the CPU time (user and system, every thread) the process
// used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// thousandFiles writes two 1,000-file archives of skill "thousand" whose
// SKILL.md differ, and opens an Installer on a new skills folder.
func thousandFiles(b *testing.B) (*Installer, [2]string) {
	dir := b.TempDir()
	archives := [2]string{filepath.Join(dir, "a.zip"), filepath.Join(dir, "b.zip")}
	for i, body := range []string{"First version.", "Second version."} {
		if err := testcorpus.ThousandFileZip(archives[i], skillMD("thousand", body)); err != nil {
			b.Fatal(err)
		}
	}
	in, err := openFolder(filepath.Join(dir, "skills"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.dir.Close() })
	return in, archives
}

// BenchmarkHistoryInstall1000Files: Install of the 1,000-file archive into
// an empty skills folder, reporting the CPU time of the installs alone
// (cpu-ms/op; the uninstall between them is not counted), which the load
// of other processes moves far less than wall time. Compare it at two
// commits for what the history costs an install.
func BenchmarkHistoryInstall1000Files(b *testing.B) {
	in, archives := thousandFiles(b)
	ctx := context.Background()
	var cpu time.Duration
	for b.Loop() {
		start := cpuTime(b)
		if _, err := in.Install(ctx, Source{ZipFile: archives[0]}, nil); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime(b) - start
		b.StopTimer()
		if err := in.Uninstall(ctx, "thousand", nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkHistoryReplace1000Files installs, over the installed version,
// one of two 1,000-file archives in turn: an update's swap, which keeps the
// replaced version in the skill's history; cpu-ms/op as above.
func BenchmarkHistoryReplace1000Files(b *testing.B) {
	in, archives := thousandFiles(b)
	ctx := context.Background()
	if _, err := in.Install(ctx, Source{ZipFile: archives[0]}, nil); err != nil {
		b.Fatal(err)
	}
	i := 1
	start := cpuTime(b)
	for b.Loop() {
		if _, err := in.Install(ctx, Source{ZipFile: archives[i%2]}, &InstallOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64((cpuTime(b)-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}
