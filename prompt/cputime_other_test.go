//go:build !unix

package prompt_test

import "testing"

// cpuLoop runs f b.N times; without getrusage it reports wall time only.
func cpuLoop(b *testing.B, f func()) {
	for b.Loop() {
		f()
	}
}
