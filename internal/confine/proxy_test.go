package confine

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
)

// FuzzTarget: whatever request a confined program sends its proxy, the
// target is a host and a port in range, or an error; never a panic.
func FuzzTarget(f *testing.F) {
	for _, seed := range []string{
		"CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n",
		"GET http://api.example.com/x HTTP/1.1\r\nHost: api.example.com\r\n\r\n",
		"GET /relative HTTP/1.1\r\nHost: x\r\n\r\n",
		"CONNECT [::1]:99999 HTTP/1.1\r\n\r\n",
		"GET http://[fe80::1%25eth0]:8080/ HTTP/1.1\r\n\r\n",
		"CONNECT :443 HTTP/1.1\r\n\r\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			return
		}
		host, port, err := target(req)
		if err != nil {
			return
		}
		if !validHost(host) || port <= 0 || port > 65535 || strings.ContainsAny(host, " /@\r\n") && net.ParseIP(host) == nil {
			t.Fatalf("target(%q) = %q, %d", raw, host, port)
		}
	})
}

// A request that is not a proxy request is refused before any dial.
func TestTargetRefusesOriginForm(t *testing.T) {
	req, _ := http.ReadRequest(bufio.NewReader(strings.NewReader("GET /x HTTP/1.1\r\nHost: api.example.com\r\n\r\n")))
	if _, _, err := target(req); err == nil {
		t.Fatal("an origin-form request was taken as a proxy request")
	}
}
