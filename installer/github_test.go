package installer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
)

const (
	shaOld = "1111111111111111111111111111111111111111"
	shaNew = "2222222222222222222222222222222222222222"
)

// fakeGitHub answers GET /repos/OWNER/REPO/commits/REF with the bare sha,
// as GitHub does for the application/vnd.github.sha media type.
// It keeps the headers of each request; CheckUpdates sends them
// concurrently.
func fakeGitHub(t *testing.T, commits map[string]string) (*httptest.Server, func() []http.Header) {
	var (
		mu   sync.Mutex
		seen []http.Header
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		if body, ok := commits[r.URL.EscapedPath()+"?"+r.URL.RawQuery]; ok && r.Header.Get("Accept") == "application/vnd.github+json" {
			w.Write([]byte(body)) // a JSON document of the API
			return
		}
		if r.Header.Get("Accept") != "application/vnd.github.sha" {
			http.Error(w, `{"message":"want the sha media type"}`, http.StatusUnsupportedMediaType)
			return
		}
		sha, ok := commits[r.URL.EscapedPath()]
		if !ok {
			http.Error(w, `{"message":"No commit found for SHA: x"}`, http.StatusUnprocessableEntity)
			return
		}
		w.Write([]byte(sha))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []http.Header {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

func TestGitHubClient(t *testing.T) {
	srv, seen := fakeGitHub(t, map[string]string{
		"/repos/o/r/commits/HEAD":        shaNew,
		"/repos/o/r/commits/feature%2Fx": shaOld,
		"/repos/o/bad/commits/HEAD":      "<html>",
	})
	c := &GitHubClient{BaseURL: srv.URL + "/", Token: "t0ken"}
	ctx := context.Background()
	if got, err := c.latestCommit(ctx, "o", "r", ""); err != nil || got != shaNew {
		t.Errorf("default branch: %q, %v", got, err)
	}
	if got := seen()[0].Get("Authorization"); got != "Bearer t0ken" {
		t.Errorf("authorization %q", got)
	}
	if got, err := c.latestCommit(ctx, "o", "r", "feature/x"); err != nil || got != shaOld {
		t.Errorf("branch with a slash: %q, %v", got, err)
	}
	if _, err := c.latestCommit(ctx, "o", "r", "gone"); err == nil || !strings.Contains(err.Error(), "422") || !strings.Contains(err.Error(), "No commit found") {
		t.Errorf("missing ref: %v", err)
	}
	if _, err := c.latestCommit(ctx, "o", "bad", ""); err == nil || !strings.Contains(err.Error(), "not a commit id") {
		t.Errorf("bad answer: %v", err)
	}
}

// With Options.GitHub, CheckUpdates asks the API for github.com sources
// and never runs git.
func TestCheckUpdatesThroughGitHubAPI(t *testing.T) {
	const treeX, treeY = "3333333333333333333333333333333333333333", "4444444444444444444444444444444444444444"
	srv, _ := fakeGitHub(t, map[string]string{
		"/repos/o/r/commits/main": shaNew, "/repos/o/same/commits/HEAD": shaOld, "/repos/o/mono/commits/HEAD": shaNew,
		"/repos/o/mono/contents/skills?ref=" + shaNew: `[{"path":"skills/x","type":"dir","sha":"` + treeX + `"},{"path":"skills/y","type":"dir","sha":"` + treeY + `"}]`,
	})
	in, _ := newTestInstaller(t, &Options{
		GitHub: &GitHubClient{BaseURL: srv.URL},
		Runner: failRunner(t),
	})
	ctx := t.Context()
	for _, rec := range []registry.Record{
		{Name: "outdated", Source: registry.SourceGitHub, URL: "https://github.com/o/r", Ref: "main", Subdir: "skills/x", Commit: shaOld, Enabled: true},
		{Name: "current", Source: registry.SourceGitHub, URL: "https://github.com/o/same", Commit: shaOld, Enabled: true, Pinned: true},
		{Name: "missing", Source: registry.SourceGitHub, URL: "https://github.com/o/none", Commit: shaOld, Enabled: true},
		{Name: "zipped", Source: registry.SourceZip, Enabled: true},
		// A repository of several skills moved; x's folder did not, y's did.
		{Name: "x", Source: registry.SourceGitHub, URL: "https://github.com/o/mono", Subdir: "skills/x", Commit: shaOld, Tree: treeX, Enabled: true},
		{Name: "y", Source: registry.SourceGitHub, URL: "https://github.com/o/mono", Subdir: "skills/y", Commit: shaOld, Tree: treeX, Enabled: true},
	} {
		if err := in.dir.Registry().Put(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	st, err := in.CheckUpdates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]UpdateStatus{}
	for _, s := range st {
		byName[s.Name] = s
	}
	if s := byName["outdated"]; !s.Checked || !s.HasUpdate || s.Latest != shaNew || s.Current != shaOld {
		t.Errorf("outdated: %+v", s)
	}
	if s := byName["current"]; !s.Checked || s.HasUpdate || !s.Pinned {
		t.Errorf("current: %+v", s)
	}
	if s := byName["missing"]; s.Checked || s.Error == "" {
		t.Errorf("missing: %+v", s)
	}
	if s := byName["zipped"]; s.Checked || s.Error != "" {
		t.Errorf("zipped: %+v", s)
	}
	if s := byName["x"]; !s.Checked || s.HasUpdate || s.Latest != shaNew {
		t.Errorf("x, whose folder did not change: %+v", s)
	}
	if s := byName["y"]; !s.Checked || !s.HasUpdate {
		t.Errorf("y, whose folder changed: %+v", s)
	}
	if names := []string{st[0].Name, st[1].Name, st[2].Name, st[3].Name, st[4].Name, st[5].Name}; strings.Join(names, ",") != "current,missing,outdated,x,y,zipped" {
		t.Errorf("order %v", names)
	}
}
