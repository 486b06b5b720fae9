package mcpskills

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/loader"
)

func twoSkills() map[string]map[string]string {
	return map[string]map[string]string{
		"pdf-forms": skillFiles("pdf-forms", "Fill forms. See references/FORMS.md.", map[string]string{
			"references/FORMS.md": "# Forms\n", "assets/logo.bin": "\x00\x01\xff", "docs/a b#c.md": "odd name"}),
		"git-flow": skillFiles("git-flow", "Branch from main.", nil),
	}
}

// The file system holds every listed skill under the server's label, and
// every file reads back verified; a loader loads the skills from it.
func TestFS(t *testing.T) {
	srv := &fakeServer{skills: twoSkills(), pageSize: 1}
	c, err := connectFake(t, srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	fsys, diags, err := c.FS(t.Context(), "docs")
	if err != nil || len(diags) > 0 {
		t.Fatalf("FS: %v %v", err, diags)
	}
	if len(srv.reads) != 0 {
		t.Errorf("listing read files: %v", srv.reads)
	}
	var want []string
	for name, files := range twoSkills() {
		for rel, content := range files {
			p := path.Join("docs", name, rel)
			want = append(want, p)
			got, err := fs.ReadFile(fsys, p)
			if err != nil || string(got) != content {
				t.Errorf("%s: %q %v, want %q", p, got, err, content)
			}
		}
	}
	if err := fstest.TestFS(fsys, want...); err != nil {
		t.Fatal(err)
	}
	// A second read comes from memory.
	n := len(srv.reads)
	fs.ReadFile(fsys, "docs/git-flow/SKILL.md")
	if len(srv.reads) != n {
		t.Errorf("a verified file was fetched again")
	}

	l, err := loader.New(t.Context(), []loader.Source{{Name: "mcp:docs", FS: fsys}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := l.Get("pdf-forms")
	if !ok || s.Source != "mcp:docs" || s.DiskDir != "" || s.Dir != "docs/pdf-forms" {
		t.Fatalf("pdf-forms: %+v %v", s, ok)
	}
	if diff := cmp.Diff([]string{"assets/logo.bin", "docs/a b#c.md", "references/FORMS.md"}, s.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// A server that lies about a file is caught when the file is read: the
// read fails with ErrDigestMismatch, and a loader skips the skill with a
// diagnostic that says so.
func TestFSRefusesWhatDoesNotMatch(t *testing.T) {
	for name, srv := range map[string]*fakeServer{
		"digest": {entry: func(s *Skill) {
			for i := range s.Resources.Files {
				s.Resources.Files[i].Digest = Digest([]byte("something else"))
			}
		}},
		"content": {content: func(_ string, data []byte) []byte { return append([]byte("x"), data[1:]...) }},
		"size": {entry: func(s *Skill) {
			for i := range s.Resources.Files {
				s.Resources.Files[i].Size++
			}
		}},
		"frontmatter": {entry: func(s *Skill) { s.Frontmatter["description"] = "Approved by the security team." }},
	} {
		t.Run(name, func(t *testing.T) {
			srv.skills = map[string]map[string]string{"git-flow": skillFiles("git-flow", "Branch from main.", nil)}
			c, err := connectFake(t, srv, nil)
			if err != nil {
				t.Fatal(err)
			}
			fsys, _, err := c.FS(t.Context(), "docs")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fs.ReadFile(fsys, "docs/git-flow/SKILL.md"); !errors.Is(err, installer.ErrDigestMismatch) {
				t.Fatalf("read: %v, want ErrDigestMismatch", err)
			}
			l, err := loader.New(t.Context(), []loader.Source{{Name: "mcp:docs", FS: fsys}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := l.Get("git-flow"); ok {
				t.Error("the skill loaded")
			}
			diags := l.Doctor(t.Context()).WithCode(diagnostics.ReadError)
			if len(diags) != 1 || !strings.Contains(diags[0].Message, "does not match its entry") {
				t.Errorf("no diagnostic says why: %v", diags)
			}
		})
	}
}

// TestProtocolNegotiation: the client asks for revision 2026-07-28 with
// server/discover and, when the server speaks it, sends each request with
// the revision and its capabilities in _meta and no initialize; a server
// that does not answer server/discover, or does not list the revision,
// gets initialize at 2025-11-25.
func TestProtocolNegotiation(t *testing.T) {
	skills := map[string]map[string]string{"pdf": skillFiles("pdf", "body", nil)}
	// list connects to f and lists its skills.
	list := func(t *testing.T, f *fakeServer) *Client {
		t.Helper()
		c, err := connectFake(t, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		return c
	}
	t.Run("stateless", func(t *testing.T) {
		f := &fakeServer{skills: skills, discover: []string{"2026-07-28", "2025-11-25"}}
		c := list(t, f)
		f.mu.Lock()
		defer f.mu.Unlock()
		if c.ProtocolVersion() != ProtocolVersion || f.initialized || len(f.metas) == 0 {
			t.Fatalf("version %q, initialize %v, %d requests", c.ProtocolVersion(), f.initialized, len(f.metas))
		}
		if name, version := c.ServerName(); name != "fake" || version != "2" {
			t.Errorf("server %s %s", name, version)
		}
		for _, m := range f.metas {
			caps, _ := m[metaClientCapabilities].(map[string]any)
			ext, _ := caps["extensions"].(map[string]any)
			if m[metaProtocolVersion] != ProtocolVersion || ext[ExtensionID] == nil {
				t.Errorf("_meta %v", m)
			}
		}
	})
	for name, f := range map[string]*fakeServer{
		"no server/discover":  {skills: skills},
		"revision not listed": {skills: skills, discover: []string{"2025-11-25"}},
	} {
		t.Run(name, func(t *testing.T) {
			c := list(t, f)
			f.mu.Lock()
			defer f.mu.Unlock()
			if c.ProtocolVersion() != LegacyProtocolVersion || !f.initialized {
				t.Errorf("version %q, initialize %v", c.ProtocolVersion(), f.initialized)
			}
			for _, m := range f.metas {
				if m != nil {
					t.Errorf("a session request with _meta %v", m)
				}
			}
		})
	}
	f := &fakeServer{skills: skills, discover: []string{"2026-07-28"}, noExt: true}
	if _, err := connectFake(t, f, nil); !errors.Is(err, ErrNoExtension) {
		t.Errorf("no extension: %v", err)
	}
}
