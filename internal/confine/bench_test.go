package confine

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// BenchmarkStart starts /bin/true confined and waits for it: the cost of
// one confined start, by network setting, beside a plain os/exec start.
func BenchmarkStart(b *testing.B) {
	start := func(b *testing.B, spec Spec) {
		spec.Path, spec.Dir, spec.System = "/bin/true", "/", DefaultSystemPaths()
		for b.Loop() {
			c, err := Prepare(context.Background(), spec)
			if err != nil {
				b.Fatal(err)
			}
			if err := c.Start(); err != nil {
				b.Fatal(err)
			}
			if err := c.Wait(); err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("network=none", func(b *testing.B) { start(b, Spec{}) })
	b.Run("network=all", func(b *testing.B) { start(b, Spec{Network: Network{All: true}}) })
}

// BenchmarkStartAlternated starts /bin/true plainly, confined with the
// host's network, and confined without a network, in turn in each
// iteration, and reports each one's median: what the confinement and the
// network namespace add, under the same load.
func BenchmarkStartAlternated(b *testing.B) {
	confined := func(network Network) func() {
		return func() {
			c, err := Prepare(context.Background(), Spec{Path: "/bin/true", Dir: "/", System: DefaultSystemPaths(), Network: network})
			if err != nil {
				b.Fatal(err)
			}
			if err := c.Start(); err != nil {
				b.Fatal(err)
			}
			if err := c.Wait(); err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	}
	starts := []struct {
		name string
		run  func()
	}{
		{"plain", func() {
			if err := exec.Command("/bin/true").Run(); err != nil {
				b.Fatal(err)
			}
		}},
		{"network-all", confined(Network{All: true})},
		{"network-none", confined(Network{})},
	}
	took := make([][]time.Duration, len(starts))
	for b.Loop() {
		for i, s := range starts {
			t0 := time.Now()
			s.run()
			took[i] = append(took[i], time.Since(t0))
		}
	}
	for i, s := range starts {
		slices.Sort(took[i])
		b.ReportMetric(float64(took[i][len(took[i])/2]), s.name+"-median-ns")
	}
}
