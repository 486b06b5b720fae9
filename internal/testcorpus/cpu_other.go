//go:build !unix

package testcorpus

import "time"

// ProcessCPU is unknown here: 0, and CompareCPU reports no ratio.
func ProcessCPU() time.Duration { return 0 }
