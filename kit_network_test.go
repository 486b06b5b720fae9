package skillkit_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/wellknown"
)

// indexSite publishes one SKILL.md through a discovery index; set changes
// what it publishes.
type indexSite struct {
	mu    sync.Mutex
	index []byte
	md    []byte
}

func (s *indexSite) set(t *testing.T, md string) {
	t.Helper()
	sum := sha256.Sum256([]byte(md))
	index, err := json.Marshal(map[string]any{"$schema": wellknown.Schema, "skills": []any{map[string]any{
		"name": "code-review", "type": "skill-md", "description": "Review code.", "url": "code-review/SKILL.md",
		"digest": "sha256:" + hex.EncodeToString(sum[:])}}})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.index, s.md = index, []byte(md)
}

func (s *indexSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case wellknown.IndexPath:
		w.Write(s.index)
	case "/.well-known/agent-skills/code-review/SKILL.md":
		w.Write(s.md)
	default:
		http.NotFound(w, r)
	}
}

// A skill installed from a site's index is recorded with the index and its
// digest; the Kit finds the index again for update checks and updates,
// from the allowed hosts only.
func TestKitInstallsFromDiscoveryIndex(t *testing.T) {
	site := &indexSite{}
	site.set(t, "---\nname: code-review\ndescription: Review code.\n---\nv1\n")
	srv := httptest.NewServer(site)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Installer: &installer.Options{AllowedHosts: []string{host}}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	ix, err := wellknown.Read(ctx, srv.URL, &wellknown.Options{AllowedHosts: []string{host}})
	if err != nil {
		t.Fatal(err)
	}
	remote, err := ix.Remote("code-review", &wellknown.Options{AllowedHosts: []string{host}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := kit.Install(ctx, installer.Source{Remote: remote}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Source != registry.SourceWellKnown || res.Record.URL != ix.URL || res.Record.Subdir != "code-review" || res.Record.Commit != ix.Skills[0].Digest {
		t.Errorf("record %+v", res.Record)
	}
	if s, ok, err := kit.Skill(ctx, "code-review"); err != nil || !ok || s.Description != "Review code." {
		t.Fatalf("skill: %v %v %v", s, ok, err)
	}

	st, err := kit.CheckUpdates(ctx)
	if err != nil || len(st) != 1 || !st[0].Checked || st[0].HasUpdate {
		t.Fatalf("check: %+v %v", st, err)
	}
	site.set(t, "---\nname: code-review\ndescription: Review code.\n---\nv2\n")
	st, err = kit.CheckUpdates(ctx)
	if err != nil || !st[0].HasUpdate {
		t.Fatalf("check after a change: %+v %v", st, err)
	}
	if _, err := kit.Update(ctx, "code-review", nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "code-review", "SKILL.md"))
	if !strings.Contains(string(b), "v2") {
		t.Errorf("after update: %s", b)
	}

	// A Kit whose allowed hosts leave the site out cannot update it.
	other, err := skillkit.Open(ctx, skillkit.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	site.set(t, "---\nname: code-review\ndescription: Review code.\n---\nv3\n")
	if _, err := other.Update(ctx, "code-review", nil); !errors.Is(err, installer.ErrHostNotAllowed) {
		t.Errorf("update from a host not allowed: %v", err)
	}
}
