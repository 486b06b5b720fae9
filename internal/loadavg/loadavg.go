package loadavg

import (
	"os"
	"strings"
)

// String returns "load average 1M 5M 15M", read from /proc/loadavg, or
// "load average unknown" where there is no such file (outside Linux).
func String() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	return parse(string(b))
}

// parse formats the first three fields of a /proc/loadavg line.
func parse(line string) string {
	f := strings.Fields(line)
	if len(f) < 3 {
		return "load average unknown"
	}
	return "load average " + strings.Join(f[:3], " ")
}
