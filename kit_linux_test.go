package skillkit_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/skillkit-go/skillkit"
)

func dumpable(t *testing.T) int {
	t.Helper()
	v, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Open makes the host non-dumpable, so that a process of its user cannot
// read its environment (the secret key) or memory; HostDumpable opts out.
func TestOpenMakesTheHostNonDumpable(t *testing.T) {
	setDumpable := func(v int) {
		if err := unix.Prctl(unix.PR_SET_DUMPABLE, uintptr(v), 0, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	setDumpable(1)
	t.Cleanup(func() { setDumpable(1) })

	k, err := skillkit.Open(t.Context(), skillkit.Options{Dir: t.TempDir(), HostDumpable: true})
	if err != nil {
		t.Fatal(err)
	}
	k.Close()
	if got := dumpable(t); got != 1 {
		t.Fatalf("with HostDumpable the host became non-dumpable (%d)", got)
	}
	k, err = skillkit.Open(t.Context(), skillkit.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	k.Close()
	if got := dumpable(t); got != 0 {
		t.Errorf("after Open the host is dumpable (%d), want 0", got)
	}
}
