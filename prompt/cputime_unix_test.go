//go:build unix

package prompt_test

import (
	"syscall"
	"testing"
	"time"
)

// cpuLoop runs f b.N times and reports, beside the wall time, the CPU time
// the process spent per run (user and system, all threads, the collector
// included): on a machine shared with other work, wall time measures the
// queue, CPU time the code.
func cpuLoop(b *testing.B, f func()) {
	before := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if n > 0 {
		b.ReportMetric(float64((cpuTime()-before).Nanoseconds())/float64(n), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
