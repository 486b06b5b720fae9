package skill_test

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/skillkit-go/skillkit/skill"
)

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"SKILL.md", "references/guide.md", "a/b/c.txt", "résumé.md", "日本語/ノート.md", ".hidden", "a b.md",
		strings.Repeat("a", 255), strings.Repeat("a/", 511) + "b"} {
		if err := skill.CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v, want nil", p, err)
		}
	}
	for p, want := range map[string]string{
		"":                              "empty",
		"a\x00b":                        "NUL",
		"a\xffb":                        "not valid UTF-8",
		"a\x1b[2Jb":                     "character U+001B",
		"a\x7fb":                        "character U+007F",
		"a\u0085b":                      "character U+0085",
		"evil\u202egnp.sh":              "character U+202E",
		"a\u2066b":                      "character U+2066",
		"/etc/passwd":                   "absolute",
		`\\server\share`:                "absolute",
		"C:x":                           "drive letter C:",
		"c:/x":                          "drive letter c:",
		`a\b`:                           "backslash",
		"ab:c":                          `':'`,
		"what?.md":                      `'?'`,
		"a*b":                           `'*'`,
		`say "hi".md`:                   `'"'`,
		"a<b>":                          `'<'`,
		"a|b":                           `'|'`,
		"a//b":                          "empty element",
		"a/":                            "empty element",
		"./a":                           `"." element`,
		"a/../b":                        `".." element`,
		"..":                            `".." element`,
		strings.Repeat("a", 256):        "256 bytes, over the limit of 255",
		strings.Repeat("a/", 512) + "b": "1025 bytes, over the limit of 1024",
	} {
		err := skill.CheckPath(p)
		if !errors.Is(err, skill.ErrUnsafePath) || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckPath(%q) = %v, want ErrUnsafePath saying %q", p, err, want)
		}
	}
}

func TestCleanRelPathAppliesCheckPath(t *testing.T) {
	for p, want := range map[string]string{
		"./references//guide.md": "references/guide.md",
		`references\guide.md`:    "references/guide.md",
		"a/../b":                 "b",
	} {
		if got, err := skill.CleanRelPath(p); err != nil || got != want {
			t.Errorf("CleanRelPath(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
	for _, p := range []string{"../x", "/x", "C:/x", ".", "a\u202eb", "a?b", strings.Repeat("n", 256)} {
		if _, err := skill.CleanRelPath(p); !errors.Is(err, skill.ErrUnsafePath) {
			t.Errorf("CleanRelPath(%q) = %v, want ErrUnsafePath", p, err)
		}
	}
}

func TestResolveFollowsLinksInsideOnly(t *testing.T) {
	fsys := fstest.MapFS{
		"skills/a/SKILL.md":          {Data: []byte("---\nname: a\ndescription: d\n---\n")},
		"skills/a/references/r.md":   {Data: []byte("inside")},
		"skills/a/references/up":     {Data: []byte(".."), Mode: fs.ModeSymlink},
		"skills/a/references/env.md": {Data: []byte("../.env"), Mode: fs.ModeSymlink},
		"skills/a/references/out.md": {Data: []byte("../../b/secret.md"), Mode: fs.ModeSymlink},
		"skills/a/references/abs.md": {Data: []byte("/skills/b/secret.md"), Mode: fs.ModeSymlink},
		"skills/a/.env":              {Data: []byte("TOKEN=x")},
		"skills/b/secret.md":         {Data: []byte("secret")},
	}
	s, diags := skill.Load(fsys, "skills/a", nil)
	if s == nil {
		t.Fatal(diags)
	}
	for rel, want := range map[string]string{
		"references/r.md":    "references/r.md",
		"references/up/.env": ".env",
		"references/env.md":  ".env",
		"references/up":      ".",
		"references/up/references/up/references/r.md": "references/r.md",
	} {
		if got, err := s.Resolve(rel); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", rel, got, err, want)
		}
	}
	for _, rel := range []string{"references/out.md", "references/abs.md", "references/up/references/out.md"} {
		if got, err := s.Resolve(rel); !errors.Is(err, skill.ErrUnsafePath) {
			t.Errorf("Resolve(%q) = %q, %v; want ErrUnsafePath", rel, got, err)
		}
		if _, err := s.Open(rel); err == nil {
			t.Errorf("Open(%q) opened a file outside the skill", rel)
		}
	}
	if _, err := s.Resolve("references/nope.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Resolve of a missing file: %v, want fs.ErrNotExist", err)
	}
}

// FuzzCheckPath: what CheckPath accepts is clean, relative, one element per
// slash, printable, and survives CleanRelPath unchanged.
func FuzzCheckPath(f *testing.F) {
	for _, seed := range []string{"references/guide.md", "../x", "a//b", "C:x", `a\b`, "a\u202eb", "what?.md", "./a", "日本語.md"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if skill.CheckPath(p) != nil {
			return
		}
		if path.Clean(p) != p || path.IsAbs(p) || strings.HasPrefix(p, "../") || p == ".." || p == "." {
			t.Fatalf("CheckPath accepted %q, which is not a clean relative path", p)
		}
		if strings.ContainsFunc(p, func(r rune) bool {
			return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || strings.ContainsRune(`\:*?"<>|`, r)
		}) {
			t.Fatalf("CheckPath accepted %q, which holds a refused character", p)
		}
		if clean, err := skill.CleanRelPath(p); err != nil || clean != p {
			t.Fatalf("CleanRelPath(%q) = %q, %v; want it unchanged", p, clean, err)
		}
	})
}

// The infrastructure names are the documented ones, recognised at any depth
// and in any letter case; nothing else is.
func TestInfraNames(t *testing.T) {
	files := []string{"skill.config.yaml", "requirements.txt", "package.json", "package-lock.json", "tsconfig.json", ".env"}
	dirs := []string{".venv", "node_modules", ".git", "__pycache__", ".skillhub"}
	if got := skill.InfraFiles(); !slices.Equal(got, files) {
		t.Errorf("InfraFiles = %q, want %q", got, files)
	}
	if got := skill.InfraDirs(); !slices.Equal(got, dirs) {
		t.Errorf("InfraDirs = %q, want %q", got, dirs)
	}
	for _, f := range files {
		for _, p := range []string{f, "scripts/" + f, "a/b/" + strings.ToUpper(f)} {
			if !skill.IsInfra(p) {
				t.Errorf("IsInfra(%q) = false", p)
			}
		}
	}
	for _, d := range dirs {
		for _, p := range []string{d, d + "/x.js", "sub/" + d + "/x"} {
			if !skill.IsInfra(p) {
				t.Errorf("IsInfra(%q) = false", p)
			}
		}
	}
	for _, p := range []string{"references/guide.md", "scripts/run.sh", "SKILL.md/x", "sub/SKILL.md", "env", "package.json5", "assets/venv/x"} {
		if skill.IsInfra(p) {
			t.Errorf("IsInfra(%q) = true", p)
		}
	}
	if !skill.IsInfra("SKILL.md") || !skill.IsInfra("skill.md") {
		t.Error("the skill file at the top is not infrastructure")
	}
}
