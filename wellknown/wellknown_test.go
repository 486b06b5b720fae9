package wellknown_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/wellknown"
)

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func skillMD(name string) []byte {
	return []byte("---\nname: " + name + "\ndescription: The " + name + " skill.\n---\nDo it.\n")
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range files {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(body))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tarGzOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	w := tar.NewWriter(gz)
	for name, body := range files {
		w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		w.Write([]byte(body))
	}
	w.Close()
	gz.Close()
	return buf.Bytes()
}

// site is a web site publishing a discovery index: paths to bodies, with
// the content type of each.
type site struct {
	files map[string][]byte
	types map[string]string
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, ok := s.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if ct := s.types[r.URL.Path]; ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Write(body)
}

func index(t *testing.T, entries ...map[string]any) []byte {
	t.Helper()
	if entries == nil {
		entries = []map[string]any{}
	}
	b, err := json.Marshal(map[string]any{"$schema": wellknown.Schema, "skills": entries})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newSite publishes three skills: a SKILL.md, a .tar.gz and a .zip.
func newSite(t *testing.T) (*site, *httptest.Server) {
	t.Helper()
	md := skillMD("code-review")
	tgz := tarGzOf(t, map[string]string{"./SKILL.md": string(skillMD("wrangler")), "./references/commands.md": "# Commands\n"})
	zp := zipOf(t, map[string]string{"SKILL.md": string(skillMD("pdf")), "scripts/fill.py": "print(1)\n"})
	s := &site{files: map[string][]byte{
		"/.well-known/agent-skills/code-review/SKILL.md": md,
		"/.well-known/agent-skills/wrangler.tar.gz":      tgz,
		"/dl/pdf": zp,
	}, types: map[string]string{"/dl/pdf": "application/zip"}}
	s.files[wellknown.IndexPath] = index(t,
		map[string]any{"name": "code-review", "type": "skill-md", "description": "Review code.", "url": "/.well-known/agent-skills/code-review/SKILL.md", "digest": digest(md)},
		map[string]any{"name": "wrangler", "type": "archive", "description": "Deploy Workers.", "url": "wrangler.tar.gz", "digest": digest(tgz)},
		map[string]any{"name": "pdf", "type": "archive", "description": "Fill PDFs.", "url": "/dl/pdf", "digest": digest(zp)},
		map[string]any{"name": "future", "type": "wasm", "description": "Unknown type.", "url": "/x", "digest": digest(nil)},
	)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func readFiles(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() {
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = string(b)
		}
		return nil
	})
	return out
}

func TestReadAndFetch(t *testing.T) {
	_, srv := newSite(t)
	ix, err := wellknown.Read(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ix.Legacy || ix.URL != srv.URL+wellknown.IndexPath || len(ix.Skills) != 3 || len(ix.Skipped) != 1 || ix.Skipped[0].Name != "future" {
		t.Fatalf("index %+v", ix)
	}
	if e, _ := ix.Get("wrangler"); e.URL != srv.URL+"/.well-known/agent-skills/wrangler.tar.gz" {
		t.Errorf("relative URL resolved to %q", e.URL)
	}
	for name, want := range map[string]map[string]string{
		"code-review": {"SKILL.md": string(skillMD("code-review"))},
		"wrangler":    {"SKILL.md": string(skillMD("wrangler")), "references/commands.md": "# Commands\n"},
		"pdf":         {"SKILL.md": string(skillMD("pdf")), "scripts/fill.py": "print(1)\n"},
	} {
		r, err := ix.Remote(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		fsys, version, err := r.Fetch(t.Context(), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e, _ := ix.Get(name)
		if version != e.Digest {
			t.Errorf("%s: version %q, want the digest %q", name, version, e.Digest)
		}
		if v, err := r.Version(t.Context()); err != nil || v != e.Digest {
			t.Errorf("%s: Version %q %v", name, v, err)
		}
		if diff := cmp.Diff(want, readFiles(t, fsys)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		if o := r.Origin(); o.URL != ix.URL || o.Subdir != name {
			t.Errorf("origin %+v", o)
		}
	}
}

// An artifact that is not what the index's digest says is refused with a
// VerifyError, whatever its kind, and nothing of it is returned.
func TestDigestMismatch(t *testing.T) {
	s, srv := newSite(t)
	s.files["/.well-known/agent-skills/code-review/SKILL.md"] = skillMD("code-review-evil")
	s.files["/dl/pdf"] = zipOf(t, map[string]string{"SKILL.md": string(skillMD("pdf")), "scripts/fill.py": "rm -rf /\n"})
	ix, err := wellknown.Read(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"code-review", "pdf"} {
		r, _ := ix.Remote(name, nil)
		fsys, _, err := r.Fetch(t.Context(), nil)
		var ve *wellknown.VerifyError
		if !errors.As(err, &ve) || !errors.Is(err, installer.ErrDigestMismatch) || fsys != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestInsecureAndHosts(t *testing.T) {
	for _, site := range []string{"http://example.com", "http://10.0.0.1:8080", "http://[::ffff:8.8.8.8]"} {
		if _, err := wellknown.Read(t.Context(), site, nil); !errors.Is(err, wellknown.ErrInsecure) {
			t.Errorf("%s: %v, want ErrInsecure", site, err)
		}
	}
	s, srv := newSite(t)
	// The allowlist, when given, is all that is allowed: the site too.
	if _, err := wellknown.Read(t.Context(), srv.URL, &wellknown.Options{AllowedHosts: []string{"github.com"}}); !errors.Is(err, installer.ErrHostNotAllowed) {
		t.Errorf("site not allowed: %v", err)
	}
	// An artifact on another host needs that host allowed.
	other := httptest.NewServer(s)
	defer other.Close()
	md := skillMD("code-review")
	s.files[wellknown.IndexPath] = index(t, map[string]any{"name": "code-review", "type": "skill-md", "description": "d", "url": other.URL + "/.well-known/agent-skills/code-review/SKILL.md", "digest": digest(md)})
	ix, err := wellknown.Read(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := ix.Remote("code-review", nil)
	if _, _, err := r.Fetch(t.Context(), nil); !errors.Is(err, installer.ErrHostNotAllowed) {
		t.Errorf("artifact on another host: %v", err)
	}
	hosts := []string{strings.TrimPrefix(srv.URL, "http://"), strings.TrimPrefix(other.URL, "http://")}
	r, _ = ix.Remote("code-review", &wellknown.Options{AllowedHosts: hosts})
	if _, _, err := r.Fetch(t.Context(), nil); err != nil {
		t.Errorf("allowed: %v", err)
	}
	// A redirect is checked as the first URL is.
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.com"+r.URL.Path, http.StatusFound)
	})
	redirecting := httptest.NewServer(mux)
	defer redirecting.Close()
	if _, err := wellknown.Read(t.Context(), redirecting.URL, nil); !errors.Is(err, wellknown.ErrInsecure) {
		t.Errorf("redirect to plain http: %v", err)
	}
}

// A site without a v0.2.0 index is read at the v0.1.0 path; its skills
// have no digest, are fetched file by file, and are refused when digests
// are required.
func TestLegacyIndex(t *testing.T) {
	md := skillMD("git-workflow")
	s := &site{files: map[string][]byte{
		wellknown.LegacyIndexPath: []byte(`{"skills":[{"name":"git-workflow","description":"Git conventions.","files":["SKILL.md","references/a b.md"]},` +
			`{"name":"bad","description":"x","files":["../etc/passwd","SKILL.md"]},{"name":"obj","description":"x","files":[{"path":"SKILL.md"}]}]}`),
		"/.well-known/skills/git-workflow/SKILL.md":          md,
		"/.well-known/skills/git-workflow/references/a b.md": []byte("a"),
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	ix, err := wellknown.Read(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.Legacy || ix.URL != srv.URL+wellknown.LegacyIndexPath || len(ix.Skills) != 1 || len(ix.Skipped) != 2 {
		t.Fatalf("index %+v", ix)
	}
	r, _ := ix.Remote("git-workflow", nil)
	fsys, version, err := r.Fetch(t.Context(), nil)
	if err != nil || version != "" {
		t.Fatalf("fetch: %v %q", err, version)
	}
	if diff := cmp.Diff(map[string]string{"SKILL.md": string(md), "references/a b.md": "a"}, readFiles(t, fsys)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	r, _ = ix.Remote("git-workflow", &wellknown.Options{RequireDigests: true})
	if _, _, err := r.Fetch(t.Context(), nil); !errors.Is(err, wellknown.ErrUnverified) {
		t.Errorf("RequireDigests: %v", err)
	}
}

func TestLimitsAndRefusals(t *testing.T) {
	s, srv := newSite(t)
	if _, err := wellknown.Read(t.Context(), srv.URL, &wellknown.Options{MaxIndexBytes: 100}); !errors.Is(err, installer.ErrLimit) {
		t.Errorf("index over the limit: %v", err)
	}
	ix, _ := wellknown.Read(t.Context(), srv.URL, nil)
	r, _ := ix.Remote("wrangler", nil)
	if _, _, err := r.Fetch(t.Context(), &installer.Limits{MaxArchiveBytes: 10}); !errors.Is(err, installer.ErrLimit) {
		t.Errorf("archive over the limit: %v", err)
	}
	// An archive that hides a link is refused by the archive checks, even
	// with the right digest.
	bad := tarGzOf(t, map[string]string{"SKILL.md": string(skillMD("wrangler")), "../../x": "x"})
	s.files["/.well-known/agent-skills/wrangler.tar.gz"] = bad
	s.files[wellknown.IndexPath] = index(t, map[string]any{"name": "wrangler", "type": "archive", "description": "d", "url": "wrangler.tar.gz", "digest": digest(bad)})
	if _, _, err := r.Fetch(t.Context(), nil); !errors.Is(err, installer.ErrRejected) {
		t.Errorf("zip-slip: %v", err)
	}
	// A SKILL.md that names another skill than the index is refused.
	md := skillMD("someone-else")
	s.files["/x/SKILL.md"] = md
	s.files[wellknown.IndexPath] = index(t, map[string]any{"name": "wrangler", "type": "skill-md", "description": "d", "url": "/x/SKILL.md", "digest": digest(md)})
	if _, _, err := r.Fetch(t.Context(), nil); err == nil || !strings.Contains(err.Error(), "someone-else") {
		t.Errorf("name mismatch: %v", err)
	}
	// Gone from the index.
	s.files[wellknown.IndexPath] = index(t)
	if _, err := r.Version(t.Context()); !errors.Is(err, wellknown.ErrNotFound) {
		t.Errorf("gone: %v", err)
	}
	delete(s.files, wellknown.IndexPath)
	if _, err := wellknown.Read(t.Context(), srv.URL, nil); !errors.Is(err, wellknown.ErrNotFound) {
		t.Errorf("no index: %v", err)
	}
}

func TestParseIndex(t *testing.T) {
	base := "https://example.com/.well-known/agent-skills/index.json"
	d := digest(nil)
	ix, err := wellknown.ParseIndex([]byte(`{"$schema":"`+wellknown.Schema+`","extra":1,"skills":[
		{"name":"ok","type":"skill-md","description":"d","url":"ok/SKILL.md","digest":"`+d+`","future":true},
		{"name":"Bad_Name","type":"skill-md","description":"d","url":"x","digest":"`+d+`"},
		{"name":"nodesc","type":"skill-md","url":"x","digest":"`+d+`"},
		{"name":"long","type":"skill-md","description":"`+strings.Repeat("é", 1025)+`","url":"x","digest":"`+d+`"},
		{"name":"nourl","type":"skill-md","description":"d","digest":"`+d+`"},
		{"name":"ftp","type":"skill-md","description":"d","url":"ftp://example.com/x","digest":"`+d+`"},
		{"name":"creds","type":"skill-md","description":"d","url":"https://u:p@example.com/x","digest":"`+d+`"},
		{"name":"baddigest","type":"skill-md","description":"d","url":"x","digest":"sha256:ABC"},
		{"name":"ok","type":"skill-md","description":"again","url":"x","digest":"`+d+`"},
		"not an object",
		{"name":7}
	]}`), base)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Skills) != 1 || ix.Skills[0].URL != "https://example.com/.well-known/agent-skills/ok/SKILL.md" {
		t.Errorf("skills %+v", ix.Skills)
	}
	if len(ix.Skipped) != 10 {
		t.Errorf("skipped %d: %+v", len(ix.Skipped), ix.Skipped)
	}
	for _, bad := range []string{`[]`, `{}`, `{"skills":{}}`, `{"$schema":"https://schemas.agentskills.io/discovery/9.0.0/schema.json","skills":[]}`, `not json`} {
		if _, err := wellknown.ParseIndex([]byte(bad), base); !errors.Is(err, wellknown.ErrIndex) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// FuzzParseIndex: whatever a site serves as its index, parsing never
// panics, and every entry it keeps has a valid name, a description, an
// absolute http(s) URL without credentials, and a digest (v0.2.0) or a
// file list holding SKILL.md (v0.1.0).
func FuzzParseIndex(f *testing.F) {
	d := digest(nil)
	f.Add([]byte(`{"$schema":"` + wellknown.Schema + `","skills":[{"name":"a","type":"skill-md","description":"d","url":"a/SKILL.md","digest":"` + d + `"}]}`))
	f.Add([]byte(`{"skills":[{"name":"a","description":"d","files":["SKILL.md","x/y.md"]}]}`))
	f.Add([]byte(`{"skills":[{"name":"a","description":"d","files":["SKILL.md","../y.md"]}]}`))
	f.Add([]byte(`{"$schema":"` + wellknown.Schema + `","skills":[{"name":"a","type":"archive","description":"d","url":"//evil.example/a.zip","digest":"` + d + `"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := wellknown.ParseIndex(data, "https://example.com/.well-known/agent-skills/index.json")
		if err != nil {
			return
		}
		for _, e := range ix.Skills {
			if e.Name == "" || e.Description == "" || !strings.HasPrefix(e.URL, "http") || strings.Contains(e.URL, "@") && strings.Contains(strings.SplitN(e.URL, "/", 4)[2], "@") {
				t.Fatalf("kept %+v", e)
			}
			if ix.Legacy {
				if len(e.Files) == 0 || e.Digest != "" {
					t.Fatalf("kept v0.1.0 %+v", e)
				}
				for _, p := range e.Files {
					if strings.HasPrefix(p, "/") || strings.Contains("/"+p+"/", "/../") {
						t.Fatalf("kept path %q", p)
					}
				}
			} else if len(e.Digest) != 71 || e.Type != wellknown.TypeSkillMD && e.Type != wellknown.TypeArchive {
				t.Fatalf("kept v0.2.0 %+v", e)
			}
		}
	})
}

// Over https, through the host's HTTP client.
func TestHTTPS(t *testing.T) {
	s, _ := newSite(t)
	srv := httptest.NewTLSServer(s)
	defer srv.Close()
	opts := &wellknown.Options{HTTPClient: srv.Client()}
	ix, err := wellknown.Read(t.Context(), srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := ix.Remote("code-review", opts)
	if _, _, err := r.Fetch(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
}

// Each limit holds at its edge: one byte or one file over is refused, with
// the defaults too.
func TestLimitsAtTheEdge(t *testing.T) {
	s, srv := newSite(t)
	ix, err := wellknown.Read(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := ix.Remote("wrangler", nil)
	size := int64(len(s.files["/.well-known/agent-skills/wrangler.tar.gz"]))
	if _, _, err := r.Fetch(t.Context(), &installer.Limits{MaxArchiveBytes: size - 1}); !errors.Is(err, installer.ErrLimit) {
		t.Errorf("archive one byte over the limit: %v", err)
	}
	if _, _, err := r.Fetch(t.Context(), &installer.Limits{MaxArchiveBytes: size}); err != nil {
		t.Errorf("archive at the limit: %v", err)
	}
	// The default index limit (4 MiB): an index padded one byte past it.
	big := index(t)
	s.files[wellknown.IndexPath] = append(big, bytes.Repeat([]byte(" "), 4<<20+1-len(big))...)
	if _, err := wellknown.Read(t.Context(), srv.URL, nil); !errors.Is(err, installer.ErrLimit) {
		t.Errorf("index over the default limit: %v", err)
	}

	// A v0.1.0 skill's files count against the entry and byte limits.
	md := skillMD("git-workflow")
	legacy := &site{files: map[string][]byte{
		wellknown.LegacyIndexPath:                   []byte(`{"skills":[{"name":"git-workflow","description":"d","files":["SKILL.md","a.md"]}]}`),
		"/.well-known/skills/git-workflow/SKILL.md": md,
		"/.well-known/skills/git-workflow/a.md":     []byte("a"),
	}}
	lsrv := httptest.NewServer(legacy)
	defer lsrv.Close()
	lix, err := wellknown.Read(t.Context(), lsrv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	lr, _ := lix.Remote("git-workflow", nil)
	for name, lim := range map[string]*installer.Limits{
		"entries": {MaxEntries: 1},
		"bytes":   {MaxTotalBytes: int64(len(md))},
	} {
		if _, _, err := lr.Fetch(t.Context(), lim); !errors.Is(err, installer.ErrLimit) {
			t.Errorf("v0.1.0 files over the %s limit: %v", name, err)
		}
	}
	if _, _, err := lr.Fetch(t.Context(), &installer.Limits{MaxEntries: 2, MaxTotalBytes: int64(len(md)) + 1}); err != nil {
		t.Errorf("v0.1.0 files at the limits: %v", err)
	}
}

// Redirects are bounded (Go's rule: the 10th is refused), and a URL
// carrying credentials is refused before any request.
func TestRedirectLimitAndCredentials(t *testing.T) {
	requests := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		requests++
		var n int
		fmt.Sscanf(r.URL.Path, "/hop/%d/index.json", &n)
		if n < 11 {
			http.Redirect(w, r, fmt.Sprintf("/hop/%d/index.json", n+1), http.StatusFound)
			return
		}
		w.Write(index(t))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	if _, err := wellknown.Read(t.Context(), srv.URL+"/hop/0/index.json", nil); err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Errorf("11 redirects: %v", err)
	}
	if _, err := wellknown.Read(t.Context(), srv.URL+"/hop/1/index.json", nil); err != nil {
		t.Errorf("10 redirects, the documented most: %v", err)
	}
	requests = 0
	withUser := strings.Replace(srv.URL, "http://", "http://user:secret@", 1)
	if _, err := wellknown.Read(t.Context(), withUser, nil); err == nil || requests != 0 {
		t.Errorf("credentials: %v after %d requests", err, requests)
	}
}
