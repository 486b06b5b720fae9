package installer

import (
	"errors"
	"net/url"
	"path"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
)

func TestParseGit(t *testing.T) {
	gh := []string{"github.com"}
	for _, tc := range []struct {
		raw, ref, subdir string
		hosts            []string
		want             gitSource
		err              error
	}{
		{raw: "https://github.com/anthropics/skills", want: gitSource{cloneURL: "https://github.com/anthropics/skills.git", url: "https://github.com/anthropics/skills", source: registry.SourceGitHub, owner: "anthropics", repo: "skills"}},
		{raw: "https://GitHub.com/o/r.git/", want: gitSource{cloneURL: "https://github.com/o/r.git", url: "https://github.com/o/r", source: registry.SourceGitHub, owner: "o", repo: "r"}},
		{raw: "https://github.com/o/r/tree/main/skills/pdf", want: gitSource{cloneURL: "https://github.com/o/r.git", url: "https://github.com/o/r", source: registry.SourceGitHub, owner: "o", repo: "r", ref: "main", subdir: "skills/pdf"}},
		{raw: "https://github.com/o/r/tree/v1.2", want: gitSource{cloneURL: "https://github.com/o/r.git", url: "https://github.com/o/r", source: registry.SourceGitHub, owner: "o", repo: "r", ref: "v1.2"}},
		{raw: "https://github.com/o/r/tree/feature/x/skills/pdf", ref: "feature/x", want: gitSource{cloneURL: "https://github.com/o/r.git", url: "https://github.com/o/r", source: registry.SourceGitHub, owner: "o", repo: "r", ref: "feature/x", subdir: "skills/pdf"}},
		{raw: "https://github.com/o/r/blob/main/skills/pdf/SKILL.md", want: gitSource{cloneURL: "https://github.com/o/r.git", url: "https://github.com/o/r", source: registry.SourceGitHub, owner: "o", repo: "r", ref: "main", subdir: "skills/pdf"}},
		{raw: "https://github.com/o/r", ref: "v2", subdir: "a/b/", want: gitSource{cloneURL: "https://github.com/o/r.git", url: "https://github.com/o/r", source: registry.SourceGitHub, owner: "o", repo: "r", ref: "v2", subdir: "a/b"}},
		{raw: "https://github.com/o/r/tree/main/a", subdir: "a", want: gitSource{cloneURL: "https://github.com/o/r.git", url: "https://github.com/o/r", source: registry.SourceGitHub, owner: "o", repo: "r", ref: "main", subdir: "a"}},
		{raw: "https://git.example.com:3000/team/skills.git", hosts: []string{"git.example.com:3000"}, ref: "main", subdir: "x", want: gitSource{cloneURL: "https://git.example.com:3000/team/skills.git", url: "https://git.example.com:3000/team/skills.git", source: registry.SourceGit, ref: "main", subdir: "x"}},

		{raw: "https://github.com/o/r/tree/main/a", subdir: "b", err: ErrInvalidSource},
		{raw: "https://github.com/o/r/tree/other/a", ref: "main", err: ErrInvalidSource},
		{raw: "https://github.com/o/r/blob/main/a/README.md", err: ErrInvalidSource},
		{raw: "https://github.com/o/r/issues/3", err: ErrInvalidSource},
		{raw: "https://github.com/o", err: ErrInvalidSource},
		{raw: "https://github.com/" + strings.Repeat("o", 101) + "/r", err: ErrInvalidSource},
		{raw: "https://github.com/o/" + strings.Repeat("r", 101), err: ErrInvalidSource},
		{raw: "https://github.com/../r", err: ErrInvalidSource},
		{raw: "https://github.com/o/r?x=1", err: ErrInvalidSource},
		{raw: "https://github.com/o/r#readme", err: ErrInvalidSource},
		{raw: "https://token@github.com/o/r", err: ErrInvalidSource},
		{raw: "http://github.com/o/r", err: ErrInvalidSource},
		{raw: "ssh://git@github.com/o/r", err: ErrInvalidSource},
		{raw: "git@github.com:o/r.git", err: ErrInvalidSource},
		{raw: "https://github.com/o/r tree", err: ErrInvalidSource},
		{raw: "https://evil.com/o/r", err: ErrHostNotAllowed},
		{raw: "https://github.com.evil.com/o/r", err: ErrHostNotAllowed},
		{raw: "file:///srv/repo", err: ErrHostNotAllowed},
		{raw: "https://git.example.com/a/../b", hosts: []string{"git.example.com"}, err: ErrInvalidSource},
		{raw: "https://git.example.com/a%0Ab", hosts: []string{"git.example.com"}, err: ErrInvalidSource},
		{raw: "https://github.com/o/r", ref: "-upload-pack=evil", err: ErrInvalidSource},
		{raw: "https://github.com/o/r", ref: "a..b", err: ErrInvalidSource},
		{raw: "https://github.com/o/r", ref: "a b", err: ErrInvalidSource},
		{raw: "https://github.com/o/r", ref: "main.lock", err: ErrInvalidSource},
		{raw: "https://github.com/o/r", subdir: "../x", err: ErrInvalidSource},
		{raw: "https://github.com/o/r", subdir: "/etc", err: ErrInvalidSource},
		{raw: "https://github.com/o/r", subdir: `a\b`, err: ErrInvalidSource},
		{raw: "https://github.com/o/r", subdir: "a/.git/hooks", err: ErrInvalidSource},
		{raw: "https://github.com/o/r", subdir: "a//b", err: ErrInvalidSource},
	} {
		hosts := tc.hosts
		if hosts == nil {
			hosts = gh
		}
		got, err := parseGit(tc.raw, tc.ref, tc.subdir, hosts, false)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%q ref %q subdir %q: err %v, want %v", tc.raw, tc.ref, tc.subdir, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q ref %q subdir %q:\n got %+v, %v\nwant %+v", tc.raw, tc.ref, tc.subdir, got, err, tc.want)
		}
	}
	long := strings.Repeat("o", 100)
	if got, err := parseGit("https://github.com/"+long+"/"+long, "", "", gh, false); err != nil || got.owner != long || got.repo != long {
		t.Errorf("names of 100 characters, GitHub's longest: %+v, %v", got, err)
	}
	got, err := parseGit("file:///srv/repos/skills/", "", "", gh, true)
	if err != nil || got.cloneURL != "file:///srv/repos/skills" || got.source != registry.SourceGit {
		t.Errorf("file URL: %+v, %v", got, err)
	}
	if _, err := parseGit("file://host/srv/repo", "", "", gh, true); !errors.Is(err, ErrInvalidSource) {
		t.Errorf("file URL with a host: %v", err)
	}
}

// FuzzParseGit checks that whatever parseGit accepts is safe to hand to git
// and to record: an https URL on an allowed host (or file:// when allowed),
// a ref git cannot read as an option, a clean relative subfolder.
func FuzzParseGit(f *testing.F) {
	for _, s := range [][3]string{
		{"https://github.com/o/r/tree/main/skills/pdf", "", ""},
		{"https://github.com/o/r/blob/v1/a/SKILL.md", "", ""},
		{"https://github.com/o/r/tree/feature/x/a", "feature/x", ""},
		{"https://git.example.com/team/skills.git", "v1", "a/b"},
		{"file:///srv/repo", "", "x"},
		{"https://github.com/o/r", "-x", "../y"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	hosts := []string{"github.com", "git.example.com"}
	f.Fuzz(func(t *testing.T, raw, ref, subdir string) {
		g, err := parseGit(raw, ref, subdir, hosts, true)
		if err != nil {
			if !errors.Is(err, ErrInvalidSource) && !errors.Is(err, ErrHostNotAllowed) {
				t.Fatalf("error %v wraps neither sentinel", err)
			}
			return
		}
		u, err := url.Parse(g.cloneURL)
		if err != nil {
			t.Fatalf("clone URL %q does not parse: %v", g.cloneURL, err)
		}
		switch u.Scheme {
		case "https":
			if !hostAllowed(u.Host, hosts) {
				t.Fatalf("host %q is not allowed", u.Host)
			}
		case "file":
			if u.Host != "" {
				t.Fatalf("file URL with host %q", u.Host)
			}
		default:
			t.Fatalf("scheme %q", u.Scheme)
		}
		if u.User != nil || u.RawQuery != "" || u.Fragment != "" || !printable(g.cloneURL) || !printable(u.Path) {
			t.Fatalf("clone URL %q carries more than a repository", g.cloneURL)
		}
		if g.ref != "" && (strings.HasPrefix(g.ref, "-") || checkRef(g.ref) != nil) {
			t.Fatalf("ref %q", g.ref)
		}
		if s := g.subdir; s != "" {
			if path.Clean(s) != s || path.IsAbs(s) || strings.Contains(s, "\\") || s == ".." || strings.HasPrefix(s, "../") || strings.Contains(s, "/../") || strings.HasSuffix(s, "/..") {
				t.Fatalf("subdir %q", s)
			}
		}
		if (g.source == registry.SourceGitHub) != (g.owner != "") {
			t.Fatalf("%+v", g)
		}
	})
}
