package loadavg

import (
	"runtime"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for line, want := range map[string]string{
		"0.40 0.47 0.20 1/170 5012\n": "load average 0.40 0.47 0.20",
		"0.40 0.47":                   "load average unknown",
		"":                            "load average unknown",
	} {
		if got := parse(line); got != want {
			t.Errorf("parse(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestString(t *testing.T) {
	got := String()
	if runtime.GOOS == "linux" && (strings.Contains(got, "unknown") || len(strings.Fields(got)) != 5) {
		t.Errorf("String() = %q on Linux", got)
	}
}

func ExampleString() {
	// Prints, on Linux, a line such as "load average 0.40 0.47 0.20".
	_ = String()
}
