package skillkit_test

import (
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// BenchmarkOpen measures what opening a Kit costs a small command (pin, a
// secret): no scan, no recovery. BenchmarkOpenScan is the same Kit scanning
// the 257 corpus skills at Open, for comparison.
func BenchmarkOpen(b *testing.B) {
	dir := testcorpus.Dir(b)
	for b.Loop() {
		kit, err := skillkit.Open(b.Context(), skillkit.Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		kit.Close()
	}
}

func BenchmarkOpenScan(b *testing.B) {
	dir := testcorpus.Dir(b)
	for b.Loop() {
		kit, err := skillkit.Open(b.Context(), skillkit.Options{Dir: dir, ScanOnOpen: true})
		if err != nil {
			b.Fatal(err)
		}
		kit.Close()
	}
}
