//go:build unix

package testcorpus

import (
	"syscall"
	"time"
)

// ProcessCPU returns this process's CPU time so far, user and system, all
// threads.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
