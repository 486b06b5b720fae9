package main

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal of cols columns and returns its
// terminal side.
func openPTY(t *testing.T, cols uint16) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the terminal side: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: cols}); err != nil {
		t.Fatal(err)
	}
	return pts
}

// TestTerminalIsOne: a real (pseudo-)terminal counts as one, its width is
// the tables' width, and questions are asked only when stdin is one too.
func TestTerminalIsOne(t *testing.T) {
	pts := openPTY(t, 123)
	if !isTerminal(pts) {
		t.Fatal("a pseudo-terminal is not a terminal")
	}
	c := osCLI(pts, pts, pts)
	if !c.interactive || c.columns != 123 || c.width() != 123 {
		t.Errorf("on a terminal: interactive %v, columns %d", c.interactive, c.columns)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if c := osCLI(null, pts, pts); c.interactive || c.columns != 123 {
		t.Errorf("stdin from /dev/null: interactive %v, columns %d", c.interactive, c.columns)
	}
	if c := osCLI(pts, null, pts); c.columns != 123 {
		t.Errorf("stdout to /dev/null, stderr a terminal: columns %d", c.columns)
	}
	// The progress line is drawn on a terminal, cut to its width, and not
	// under --quiet.
	if p := newProgress(&cli{stderr: pts, columns: 123}); p.w == nil || p.width != 123 {
		t.Errorf("no progress line on a terminal: %+v", p)
	}
	if p := newProgress(&cli{stderr: pts, quiet: true}); p.w != nil {
		t.Error("a progress line under --quiet")
	}
}
