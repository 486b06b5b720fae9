package installer

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/registry"
)

// TestPlanFetch checks the plan an install makes of its source before it
// touches anything: where the files come from, and what the record will
// say of their origin.
func TestPlanFetch(t *testing.T) {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	hosts := []string{"github.com", "git.example.com"}
	for _, tc := range []struct {
		name      string
		src       Source
		allowFile bool
		kind      registry.Source
		origin    registry.Record
		what      string
		err       error
	}{{
		name:   "github tree URL",
		src:    Source{Git: "https://github.com/acme/skills/tree/v2/pdf"},
		kind:   registry.SourceGit,
		origin: registry.Record{Source: registry.SourceGitHub, URL: "https://github.com/acme/skills", Ref: "v2", Subdir: "pdf"},
		what:   "cloning https://github.com/acme/skills",
	}, {
		name:   "another allowed host",
		src:    Source{Git: "https://git.example.com/team/tools.git", Ref: "main", Subdir: "a/b"},
		kind:   registry.SourceGit,
		origin: registry.Record{Source: registry.SourceGit, URL: "https://git.example.com/team/tools.git", Ref: "main", Subdir: "a/b"},
		what:   "cloning https://git.example.com/team/tools.git",
	}, {
		name: "a host not allowed",
		src:  Source{Git: "https://evil.example/x/y"},
		err:  ErrHostNotAllowed,
	}, {
		name: "file URL without leave",
		src:  Source{Git: "file:///tmp/repo"},
		err:  ErrHostNotAllowed,
	}, {
		name:      "file URL with leave",
		src:       Source{Git: "file:///tmp/repo"},
		allowFile: true,
		kind:      registry.SourceGit,
		origin:    registry.Record{Source: registry.SourceGit, URL: "file:///tmp/repo"},
		what:      "cloning file:///tmp/repo",
	}, {
		name:   "a ZIP file, made absolute",
		src:    Source{ZipFile: "uploads/pdf.zip"},
		kind:   registry.SourceZip,
		origin: registry.Record{Source: registry.SourceZip, URL: abs("uploads/pdf.zip")},
		what:   "extracting uploads/pdf.zip",
	}, {
		name:   "a ZIP in memory records no URL",
		src:    Source{Zip: strings.NewReader("PK"), ZipSize: 2},
		kind:   registry.SourceZip,
		origin: registry.Record{Source: registry.SourceZip},
		what:   "extracting ZIP archive (2 bytes)",
	}, {
		name:   "a folder, made absolute",
		src:    Source{Dir: "downloads/pdf"},
		kind:   registry.SourceLocal,
		origin: registry.Record{Source: registry.SourceLocal, URL: abs("downloads/pdf")},
		what:   "copying " + abs("downloads/pdf"),
	}, {
		name: "no kind",
		src:  Source{},
		err:  ErrInvalidSource,
	}, {
		name: "two kinds",
		src:  Source{Dir: "a", ZipFile: "b.zip"},
		err:  ErrInvalidSource,
	}, {
		name: "a ref without git",
		src:  Source{Dir: "a", Ref: "main"},
		err:  ErrInvalidSource,
	}, {
		name: "a ref that is an option",
		src:  Source{Git: "https://github.com/acme/skills", Ref: "--upload-pack=x"},
		err:  ErrInvalidSource,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := planFetch(tc.src, hosts, tc.allowFile)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.kind != tc.kind || p.what != tc.what {
				t.Errorf("kind %q what %q, want %q %q", p.kind, p.what, tc.kind, tc.what)
			}
			if diff := cmp.Diff(tc.origin, p.origin); diff != "" {
				t.Errorf("origin (-want +got):\n%s", diff)
			}
		})
	}
}
