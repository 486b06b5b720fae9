package confine

import (
	"context"
	"os/exec"
	"testing"
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
