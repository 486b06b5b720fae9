package mcpskills

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
)

func TestParseAllowList(t *testing.T) {
	got, err := ParseAllowList([]byte("# servers\n\nmcp+stdio:skillkit-mcp -dir /srv/skills\r\n  mcp+stdio:npx -y '@acme/skills server'\n"))
	want := [][]string{{"skillkit-mcp", "-dir", "/srv/skills"}, {"npx", "-y", "@acme/skills server"}}
	if err != nil || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, bad := range []string{"skillkit-mcp -dir x", "mcp+stdio:'unclosed", "mcp+stdio:"} {
		if _, err := ParseAllowList([]byte("# ok\n" + bad)); !errors.Is(err, ErrBadCommand) || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := ParseAllowList(make([]byte, MaxAllowListBytes+1)); !errors.Is(err, ErrBadCommand) {
		t.Errorf("an oversized list: %v", err)
	}
}

// A record names a command; FromRecord starts nothing and builds no Remote
// unless the host's list holds that command word for word.
func TestFromRecordNeedsTheAllowList(t *testing.T) {
	argv := []string{"skillkit-mcp", "-dir", "/srv/skills"}
	rec := registry.Record{Name: "pdf", Source: registry.SourceMCP, URL: CommandURL(argv), Subdir: SkillURI("pdf")}
	for _, allowed := range [][][]string{nil, {{"skillkit-mcp"}}, {{"skillkit-mcp", "-dir", "/srv/skills", "-x"}}, {{"skillkit-mcp", "-dir /srv/skills"}}} {
		if r, err := FromRecord(rec, allowed, nil); !errors.Is(err, ErrNotAllowed) || r != nil || !strings.Contains(err.Error(), "pdf") {
			t.Errorf("allowed %q: %v, %v", allowed, r, err)
		}
	}
	r, err := FromRecord(rec, [][]string{{"other"}, argv}, nil)
	if err != nil || !slices.Equal(r.Command, argv) {
		t.Fatalf("an allowed command: %+v, %v", r, err)
	}
}

func TestAppendAllowList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "skillkit", "mcp-servers")
	if got, err := ReadAllowList(path); err != nil || got != nil {
		t.Fatalf("a missing file: %q, %v", got, err)
	}
	argv := []string{"srv", "it's here"}
	for i, want := range []bool{true, false} {
		if added, err := AppendAllowList(path, argv); err != nil || added != want {
			t.Fatalf("append %d: %v, %v", i, added, err)
		}
	}
	got, err := ReadAllowList(path)
	if err != nil || len(got) != 1 || !slices.Equal(got[0], argv) {
		t.Fatalf("read back %q, %v", got, err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", st.Mode(), err)
	}
}

func FuzzParseAllowList(f *testing.F) {
	for _, s := range []string{"", "# c\nmcp+stdio:a b\n", "mcp+stdio:'a b' \"c\\\"d\" e\\ f", "x", "mcp+stdio:\x00", "mcp+stdio:a\n\nmcp+stdio:'"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseAllowList(data)
		if err != nil {
			return
		}
		for _, argv := range got {
			if len(argv) == 0 {
				t.Fatal("an empty command")
			}
			back, err := ParseCommandURL(CommandURL(argv))
			if err != nil || !slices.Equal(back, argv) {
				t.Fatalf("%q does not round-trip: %q, %v", argv, back, err)
			}
		}
	})
}
