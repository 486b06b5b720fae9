package mcpskills

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
)

// Entries that break the specification are left out of the file system,
// each with a REMOTE_INVALID diagnostic naming it; the others still load.
func TestInvalidEntries(t *testing.T) {
	good := func(s *Skill) {}
	for name, tc := range map[string]struct {
		change func(s *Skill)
		want   error
	}{
		"name differs from URI": {func(s *Skill) { s.Frontmatter["name"] = "other" }, ErrInvalidEntry},
		"no description":        {func(s *Skill) { delete(s.Frontmatter, "description") }, ErrInvalidEntry},
		"name not a string":     {func(s *Skill) { s.Frontmatter["name"] = 7 }, ErrInvalidEntry},
		"URI not SKILL.md":      {func(s *Skill) { s.URI = strings.TrimSuffix(s.URI, "SKILL.md") + "README.md" }, ErrInvalidEntry},
		"dynamic":               {func(s *Skill) { s.Resources = Manifest{Dynamic: true, present: true} }, ErrDynamic},
		"no resources":          {func(s *Skill) { s.Resources = Manifest{} }, ErrInvalidEntry},
		"SKILL.md not listed":   {func(s *Skill) { s.Resources.Files = s.Resources.Files[1:] }, ErrInvalidEntry},
		"file outside the skill": {func(s *Skill) {
			s.Resources.Files = append(s.Resources.Files, Resource{URI: "skill://other/x.md", Digest: Digest(nil)})
		}, ErrInvalidEntry},
		"dot dot":           {func(s *Skill) { s.Resources.Files[0].URI = "skill://bad/a/%2E%2E/x" }, ErrInvalidEntry},
		"encoded slash":     {func(s *Skill) { s.Resources.Files[0].URI = "skill://bad/a%2Fb" }, ErrInvalidEntry},
		"query":             {func(s *Skill) { s.Resources.Files[0].URI = "skill://bad/a?x=1" }, ErrInvalidEntry},
		"upper-case digest": {func(s *Skill) { s.Resources.Files[0].Digest = strings.ToUpper(s.Resources.Files[0].Digest) }, ErrInvalidEntry},
		"md5 digest":        {func(s *Skill) { s.Resources.Files[0].Digest = "md5:abc" }, ErrInvalidEntry},
		"negative size":     {func(s *Skill) { s.Resources.Files[0].Size = -1 }, ErrInvalidEntry},
		"listed twice": {func(s *Skill) {
			s.Resources.Files = append(s.Resources.Files, s.Resources.Files[0])
		}, ErrInvalidEntry},
		"too many files": {func(s *Skill) {
			for len(s.Resources.Files) <= MaxResources {
				s.Resources.Files = append(s.Resources.Files, Resource{URI: URI("bad", "f"+strings.Repeat("x", len(s.Resources.Files))), Digest: Digest(nil)})
			}
		}, ErrTooLarge},
		"too large": {func(s *Skill) { s.Resources.Files[0].Size = MaxSkillBytes + 1 }, ErrTooLarge},
		"valid":     {good, nil},
	} {
		t.Run(name, func(t *testing.T) {
			srv := &fakeServer{skills: map[string]map[string]string{
				"bad":  skillFiles("bad", "x", map[string]string{"a.md": "a"}),
				"good": skillFiles("good", "y", nil),
			}}
			srv.entry = func(s *Skill) {
				if s.URI == SkillURI("bad") {
					tc.change(s)
				}
			}
			c, err := connectFake(t, srv, nil)
			if err != nil {
				t.Fatal(err)
			}
			fsys, diags, err := c.FS(t.Context(), "srv")
			if err != nil {
				t.Fatal(err)
			}
			files := fsys.(interface{ Files() []string }).Files()
			hasBad := strings.Contains(strings.Join(files, " "), "srv/bad/")
			if !strings.Contains(strings.Join(files, " "), "srv/good/SKILL.md") {
				t.Errorf("good skill missing: %v", files)
			}
			if tc.want == nil {
				if !hasBad || len(diags) > 0 {
					t.Fatalf("valid entry: files %v, diags %v", files, diags)
				}
				return
			}
			if hasBad {
				t.Errorf("invalid entry in the file system: %v", files)
			}
			if len(diags) != 1 || diags[0].Code != diagnostics.RemoteInvalid || diags[0].Detail["uri"] != srv.entryOf("bad").URI {
				t.Fatalf("diagnostics %v", diags)
			}
			// The same check, directly.
			e := srv.entryOf("bad")
			if _, err := checkEntry(e); !errors.Is(err, tc.want) {
				t.Errorf("checkEntry: %v, want %v", err, tc.want)
			}
		})
	}
}

// An entry whose resources field is absent, or neither an array nor
// "dynamic", is invalid.
func TestManifestJSON(t *testing.T) {
	for _, raw := range []string{
		`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"}}`,
		`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":null}`,
		`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":"static"}`,
		`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":{}}`,
	} {
		var s Skill
		if err := json.Unmarshal([]byte(raw), &s); err == nil {
			if _, err := checkEntry(s); err == nil {
				t.Errorf("%s: accepted", raw)
			}
		}
	}
	var s Skill
	if err := json.Unmarshal([]byte(`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":"dynamic"}`), &s); err != nil || !s.Resources.Dynamic {
		t.Errorf("dynamic: %+v %v", s, err)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"resources":"dynamic"`) {
		t.Errorf("marshal dynamic: %s", b)
	}
}

// FuzzEntry: whatever JSON a server sends as an entry, checking it never
// panics, and an entry it accepts names its skill by its URI's last
// element, lists SKILL.md, and maps every file to a safe relative path.
func FuzzEntry(f *testing.F) {
	srv := &fakeServer{skills: twoSkills()}
	for _, name := range []string{"pdf-forms", "git-flow"} {
		b, _ := json.Marshal(srv.entryOf(name))
		f.Add(b)
	}
	f.Add([]byte(`{"uri":"skill://a/b/SKILL.md","frontmatter":{"name":"b","description":"d"},"resources":[{"uri":"skill://a/b/SKILL.md","digest":"sha256:` + strings.Repeat("0", 64) + `","size":1}]}`))
	f.Add([]byte(`{"uri":"skill://x/SKILL.md","frontmatter":{"name":"x","description":"d"},"resources":"dynamic"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Skill
		if json.Unmarshal(data, &s) != nil {
			return
		}
		e, err := checkEntry(s)
		if err != nil {
			return
		}
		name := s.Frontmatter["name"].(string)
		if !strings.HasSuffix(e.path, name) || e.files[SkillFile].URI != s.URI {
			t.Fatalf("accepted %q (path %q)", data, e.path)
		}
		var total int64
		for rel, r := range e.files {
			if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains("/"+rel+"/", "/../") || !ValidDigest(r.Digest) {
				t.Fatalf("accepted file %q of %q", rel, data)
			}
			total += r.Size
		}
		if total > MaxSkillBytes || len(e.files) > MaxResources {
			t.Fatalf("accepted an entry over the limits: %d bytes, %d files", total, len(e.files))
		}
	})
}
