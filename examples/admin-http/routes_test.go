package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// names decodes a list of rows or metas and returns their names in order.
func names(t *testing.T, data json.RawMessage) []string {
	t.Helper()
	var rows []struct{ Name string }
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.Name)
	}
	return out
}

func TestPageAndListFilters(t *testing.T) {
	f := newFixture(t) // ocr: compute-entry, hand-placed
	writeFile(t, f.dir, "alpha/SKILL.md", "---\nname: alpha\ndescription: Reads PDF forms.\nmetadata:\n  skillType: llm\n  label: Alpha Forms\n---\n")
	writeFile(t, f.dir, "beta/SKILL.md", "---\nname: beta\ndescription: Plots charts.\nversion: 2.0.0\nmetadata:\n  skillType: compute\n---\n")
	if _, err := f.srv.kit.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := f.do(t, "POST", testPrefix+"/uploadInstall", string(zipOf(t, map[string]string{"SKILL.md": "---\nname: zeta\ndescription: Uploaded forms.\n---\n"})), "Content-Type", "application/zip"); code != 200 {
		t.Fatal("upload", code)
	}
	if code, _, _ := f.do(t, "POST", testPrefix+"/setStatus", `{"name":"beta","status":0}`); code != 200 {
		t.Fatal("disable", code)
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		// createTime descending: the installed skill first, then the
		// hand-placed ones (no time) in name order.
		{`{}`, []string{"zeta", "alpha", "beta", "ocr"}},
		{`{"keyWord":"FORMS"}`, []string{"zeta", "alpha"}}, // description, any case
		{`{"keyWord":"alpha f"}`, []string{"alpha"}},       // label
		{`{"keyWord":"ocr"}`, []string{"ocr"}},             // name
		{`{"status":0}`, []string{"beta"}},
		{`{"status":1,"source":"local"}`, []string{"alpha", "ocr"}},
		{`{"source":"zip"}`, []string{"zeta"}},
		{`{"skillType":"llm"}`, []string{"alpha"}},
		{`{"order":"name","sort":"asc"}`, []string{"alpha", "beta", "ocr", "zeta"}},
		{`{"order":"name","sort":"DESC"}`, []string{"zeta", "ocr", "beta", "alpha"}},
		{`{"order":"version","sort":"desc"}`, []string{"beta", "alpha", "ocr", "zeta"}},
		{`{"keyWord":"nothing matches"}`, nil},
	} {
		code, env, data := f.do(t, "POST", testPrefix+"/list", c.query)
		if code != 200 {
			t.Errorf("list %s: %d %+v", c.query, code, env)
			continue
		}
		if got := names(t, data); !slices.Equal(got, c.want) {
			t.Errorf("list %s = %v, want %v", c.query, got, c.want)
		}
	}

	type page struct {
		List       json.RawMessage
		Pagination struct{ Page, Size, Total int }
	}
	for _, c := range []struct {
		query            string
		want             []string
		page, size, totl int
	}{
		{`{"order":"name","sort":"asc","size":3}`, []string{"alpha", "beta", "ocr"}, 1, 3, 4},
		{`{"order":"name","sort":"asc","size":3,"page":2}`, []string{"zeta"}, 2, 3, 4},
		{`{"order":"name","sort":"asc","size":3,"page":9}`, nil, 9, 3, 4},
		{`{"status":1}`, []string{"zeta", "alpha", "ocr"}, 1, defaultPageSize, 3},
		{`{"size":100000}`, []string{"zeta", "alpha", "beta", "ocr"}, 1, maxPageSize, 4},
	} {
		code, env, data := f.do(t, "POST", testPrefix+"/page", c.query)
		var p page
		if err := json.Unmarshal(data, &p); code != 200 || err != nil {
			t.Errorf("page %s: %d %+v %v", c.query, code, env, err)
			continue
		}
		if got := names(t, p.List); !slices.Equal(got, c.want) || p.Pagination.Page != c.page || p.Pagination.Size != c.size || p.Pagination.Total != c.totl {
			t.Errorf("page %s = %v %+v, want %v page %d size %d total %d", c.query, got, p.Pagination, c.want, c.page, c.size, c.totl)
		}
	}
	for _, bad := range []string{`{"order":"secrets"}`, `{"sort":"sideways"}`, `{"page":-1}`, `{"size":-5}`, `{"status":"1"}`, `{"filter":"x"}`} {
		if code, env, _ := f.do(t, "POST", testPrefix+"/page", bad); code != 400 || env.Message == "" {
			t.Errorf("page %s: %d %+v, want 400 with why", bad, code, env)
		}
	}

	// metas: the enabled skills.
	_, _, data := f.do(t, "GET", testPrefix+"/metas", "")
	if got := names(t, data); !slices.Equal(got, []string{"alpha", "ocr", "zeta"}) {
		t.Errorf("metas = %v, want the enabled skills", got)
	}
	// info: one row by id.
	code, _, data := f.do(t, "GET", testPrefix+"/info?id=zeta", "")
	var row skillRow
	if err := json.Unmarshal(data, &row); code != 200 || err != nil || row.ID != "zeta" || row.Source != "zip" || len(row.Fingerprint) == 0 ||
		row.InstalledAt == "" || row.CreateTime != row.InstalledAt || row.UpdateTime == "" {
		t.Errorf("info zeta: %d %s", code, data)
	}
	if code, _, _ := f.do(t, "GET", testPrefix+"/info?id=ghost", ""); code != 404 {
		t.Errorf("info of an unknown skill: %d", code)
	}
	if code, _, _ := f.do(t, "GET", testPrefix+"/info", ""); code != 400 {
		t.Errorf("info without id: %d", code)
	}
}

func TestExecute(t *testing.T) {
	f := newFixture(t) // ocr needs OCR_API_KEY
	writeFile(t, f.dir, "fails/SKILL.md", "---\nname: fails\ndescription: Fails.\n---\n")
	writeFile(t, f.dir, "fails/skill.config.yaml", "runtime: bash\nentrypoint: run.sh\n")
	writeFile(t, f.dir, "fails/run.sh", "echo 'no such image' >&2\nexit 2\n")
	writeFile(t, f.dir, "words/SKILL.md", "---\nname: words\ndescription: A prompt skill.\n---\n")
	if _, err := f.srv.kit.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	run := func(body string) (int, executeResult) {
		t.Helper()
		code, _, data := f.do(t, "POST", testPrefix+"/execute", body)
		var r executeResult
		json.Unmarshal(data, &r)
		return code, r
	}
	if code, r := run(`{"name":"ocr","input":{}}`); code != 200 || r.Success || !strings.Contains(r.Error, "OCR_API_KEY") {
		t.Errorf("a skill whose secret is not saved: %d %+v", code, r)
	}
	f.do(t, "POST", testPrefix+"/secrets", `{"name":"ocr","secrets":{"OCR_API_KEY":"k"}}`)
	if code, r := run(`{"name":"ocr"}`); code != 200 || !r.Success || string(r.Output) != "{}" {
		t.Errorf("ocr: %d %+v", code, r)
	}
	if code, r := run(`{"name":"fails","input":{}}`); code != 200 || r.Success || !strings.Contains(r.Error, "no such image") || r.Output != nil {
		t.Errorf("a failing run: %d %+v", code, r)
	}
	if code, r := run(`{"name":"words","input":{}}`); code != 200 || r.Success || r.Error == "" {
		t.Errorf("a prompt skill: %d %+v", code, r)
	}
	if code, _ := run(`{"name":"ghost","input":{}}`); code != 404 {
		t.Errorf("an unknown skill: %d", code)
	}
	f.do(t, "POST", testPrefix+"/setStatus", `{"name":"ocr","status":0}`)
	if code, env, _ := f.do(t, "POST", testPrefix+"/execute", `{"name":"ocr","input":{}}`); code != 409 || !strings.Contains(env.Message, "disabled") {
		t.Errorf("a disabled skill: %d %+v", code, env)
	}
}

func TestAgentWarnings(t *testing.T) {
	f := newFixture(t) // ocr: compute-entry, OCR_API_KEY not saved
	writeFile(t, f.dir, "quiet/SKILL.md", "---\nname: quiet\ndescription: Hidden.\ndisable-model-invocation: true\n---\n")
	if _, err := f.srv.kit.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	warnings := func(body string) []string {
		t.Helper()
		code, env, data := f.do(t, "POST", testPrefix+"/agentWarnings", body)
		var w struct{ Warnings []string }
		if err := json.Unmarshal(data, &w); code != 200 || err != nil || w.Warnings == nil {
			t.Fatalf("%s: %d %+v %s", body, code, env, data)
		}
		return w.Warnings
	}
	all := strings.Join(warnings(`{"skills":["ocr","ghost"],"tools":["execute_skill"]}`), "\n")
	for _, want := range []string{"ocr is compute-entry but cannot run", "OCR_API_KEY", "ghost is assigned to this agent but is not installed"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	f.do(t, "POST", testPrefix+"/secrets", `{"name":"ocr","secrets":{"OCR_API_KEY":"k"}}`)
	if w := warnings(`{"skills":["ocr"],"tools":["execute_skill"]}`); len(w) != 0 {
		t.Errorf("a runnable compute-entry skill with execute_skill: %q", w)
	}
	if w := warnings(`{"skills":["ocr"],"tools":["bash"]}`); len(w) != 1 || !strings.Contains(w[0], "execute_skill is not offered") {
		t.Errorf("without execute_skill: %q", w)
	}
	// A hidden skill is still readable by name: nothing to warn about.
	if w := warnings(`{"skills":["quiet"],"tools":[]}`); len(w) != 0 {
		t.Errorf("a hidden skill: %q", w)
	}
	if w := warnings(`{"tools":["bash"]}`); len(w) != 0 {
		t.Errorf("no skills assigned: %q", w)
	}
}

// An update that fails says why in its item of update all.
func TestUpdateAllSaysWhy(t *testing.T) {
	f := newFixture(t)
	url := gitRepo(t, "notes")
	if code, env, _ := f.do(t, "POST", testPrefix+"/install", `{"url":"`+url+`"}`); code != 200 {
		t.Fatalf("install: %d %+v", code, env)
	}
	if err := os.RemoveAll(strings.TrimPrefix(url, "file://")); err != nil {
		t.Fatal(err)
	}
	code, _, data := f.do(t, "POST", testPrefix+"/update", `{"all":true}`)
	var items []updateAllItem
	if err := json.Unmarshal(data, &items); code != 200 || err != nil || len(items) != 1 || items[0].Name != "notes" || items[0].Success || items[0].Error == "" {
		t.Errorf("update all after the origin went away: %d %s", code, data)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "notes", "SKILL.md")); err != nil {
		t.Error("the failed update lost the installed skill")
	}
}

func TestPageServed(t *testing.T) {
	f := newFixture(t)
	req := httptest.NewRequest("GET", testPrefix+"/", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(rec.Body.String(), "<script>") {
		t.Fatalf("page: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	csp := rec.Header().Get("Content-Security-Policy")
	for _, tag := range []string{"script", "style"} {
		_, text, _ := strings.Cut(rec.Body.String(), "<"+tag+">")
		text, _, _ = strings.Cut(text, "</"+tag+">")
		sum := sha256.Sum256([]byte(text))
		if want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(csp, tag+"-src "+want) {
			t.Errorf("the policy %q does not allow the page's own %s (%s)", csp, tag, want)
		}
	}
	for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "connect-src 'self'", "form-action 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the policy %q lacks %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || rec.Header().Get("X-Frame-Options") != "DENY" {
		t.Errorf("policy %q, X-Frame-Options %q", csp, rec.Header().Get("X-Frame-Options"))
	}
	// The page is the prefix's own address, not every path below it.
	if code, _, _ := f.do(t, "GET", testPrefix+"/nope", ""); code != 404 {
		t.Errorf("an unknown path under the prefix: %d, want 404", code)
	}
}

// FuzzPageQuery sends any body to page: the answer is an envelope, 200
// with a page that fits what it says or 400 with why, never a panic.
func FuzzPageQuery(f *testing.F) {
	for _, seed := range []string{`{}`, `{"page":2,"size":1}`, `{"page":9223372036854775807,"size":1000}`, `{"keyWord":"o","status":1,"order":"name","sort":"asc"}`,
		`{"size":-1}`, `{"status":null}`, `[]`, `nul`, `{"page":1e3}`} {
		f.Add(seed)
	}
	fx := newFixture(f)
	f.Fuzz(func(t *testing.T, body string) {
		code, env, data := fx.do(t, "POST", testPrefix+"/page", body)
		switch code {
		case 200:
			var p struct {
				List       []json.RawMessage
				Pagination struct{ Page, Size, Total int }
			}
			if err := json.Unmarshal(data, &p); err != nil || p.Pagination.Page < 1 || p.Pagination.Size < 1 || p.Pagination.Size > maxPageSize ||
				len(p.List) > p.Pagination.Size || p.Pagination.Total > 1 || p.List == nil {
				t.Errorf("%s: %s", body, data)
			}
		case 400:
			if env.Code != 1001 || env.Message == "" {
				t.Errorf("%s: %+v", body, env)
			}
		default:
			t.Errorf("%s: %d %+v", body, code, env)
		}
	})
}
