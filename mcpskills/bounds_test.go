package mcpskills

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostilePage is a skills/list answer (to request 2, the first after
// initialize) of about size bytes whose one entry's frontmatter repeats
// unit: cheap to send, costly to decode into Go values.
func hostilePage(size int, unit string) []byte {
	var b bytes.Buffer
	b.Grow(size + 200)
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"skills":[{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","x":[`)
	for b.Len() < size {
		b.WriteString(unit)
		b.WriteByte(',')
	}
	b.WriteString(unit + `]},"resources":[]}]}}` + "\n")
	return b.Bytes()
}

// A 12 MB skills/list page of dense JSON is refused before it is decoded
// into Go values: the client allocates a few times the bytes it received,
// not the hundreds of times decoding them would cost, and the connection
// is stopped with a clear error.
func TestHostilePageIsBounded(t *testing.T) {
	for _, unit := range []string{"{}", "[]", "0", `{"a":{}}`, `""`} {
		t.Run(unit, func(t *testing.T) {
			page := hostilePage(12<<20, unit)
			c, err := connectFake(t, &fakeServer{skills: twoSkills(), rawList: page}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _, err = c.List(t.Context())
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "more than its size allows") {
				t.Fatalf("list: %v", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(page)) {
				t.Errorf("the client allocated %d MB for a page of %d MB", alloc>>20, len(page)>>20)
			}
			if _, err := c.Get(t.Context(), SkillURI("pdf-forms")); !errors.Is(err, ErrProtocol) {
				t.Errorf("the connection goes on after a refused message: %v", err)
			}
		})
	}
}

// Real lists pass the density bounds: a thousand skills, each with the
// frontmatter of a real SKILL.md, in one page.
func TestDenseButRealListPasses(t *testing.T) {
	skills := map[string]map[string]string{}
	for i := range DefaultMaxSkills {
		name := fmt.Sprintf("s%d", i)
		skills[name] = skillFiles(name, "x", nil)
	}
	c, err := connectFake(t, &fakeServer{skills: skills}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, problems, err := c.List(t.Context())
	if err != nil || len(got) != DefaultMaxSkills || len(problems) != 0 {
		t.Fatalf("%d skills, %v, %v", len(got), problems, err)
	}
}

func TestCheckDensity(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{`{"a":"` + strings.Repeat(`{[,:`, 100000) + `"}`, true}, // inside a string nothing counts
		{`{"a":"\"` + strings.Repeat(`[`, 100000) + `"}`, true},  // an escaped quote does not end the string
		{`{"a":"\\"` + strings.Repeat(`[`, 100000) + `}`, false}, // an escaped backslash does not escape the quote
		{"[" + strings.Repeat("[],", 2*MessageBaseContainers) + "[]]", false},
		{"[" + strings.Repeat("[],", MessageBaseContainers/2) + "[]]", true},
		{"[" + strings.Repeat("1,", 2*MessageBaseValues) + "1]", false},
	} {
		if err := checkDensity([]byte(tc.line)); (err == nil) != tc.ok {
			t.Errorf("%.40q...: %v, want ok %v", tc.line, err, tc.ok)
		}
	}
}

// A request the server never answers fails with ErrTimeout after
// RequestTimeout, and the connection is stopped.
func TestRequestTimeout(t *testing.T) {
	srv := &fakeServer{skills: twoSkills(), unanswered: MethodGet}
	c, err := connectFake(t, srv, &Options{RequestTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(t.Context(), SkillURI("git-flow")); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), MethodGet) {
		t.Fatalf("get: %v", err)
	}
	if _, _, err := c.List(t.Context()); !errors.Is(err, ErrTimeout) {
		t.Errorf("after a timeout: %v", err)
	}
}

// A server that starts but never answers initialize is stopped after
// StartTimeout.
func TestStartTimeout(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("needs sleep")
	}
	c, err := Start(t.Context(), []string{sleep, "600"}, &Options{StartTimeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) || c != nil || !strings.Contains(err.Error(), "did not finish starting") {
		t.Fatalf("start: %v", err)
	}
}
