package registry_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/registry/registrytest"
)

func TestMem(t *testing.T) {
	registrytest.TestStore(t, func(*testing.T) registry.Store { return new(registry.MemStore) })
}

func TestMemPackages(t *testing.T) {
	registrytest.TestPackages(t, func(*testing.T) registry.PackageStore { return &registry.MemPackages{} })
}

func TestFS(t *testing.T) {
	registrytest.TestStore(t, func(t *testing.T) registry.Store { return registry.NewFSStore(t.TempDir()) })
}

func TestFSMissingFolderIsEmpty(t *testing.T) {
	s := registry.NewFSStore(filepath.Join(t.TempDir(), "nope"))
	if recs, err := s.List(t.Context()); err != nil || len(recs) != 0 {
		t.Fatalf("List = %v, %v", recs, err)
	}
	if _, err := s.Get(t.Context(), "pdf"); !errors.Is(err, registry.ErrNotFound) {
		t.Fatalf("Get = %v", err)
	}
	if err := s.Put(t.Context(), registry.Record{Name: "pdf", Enabled: true}); err != nil {
		t.Fatalf("Put creates the folder: %v", err)
	}
}

// The files are in the seed's format: lock.json with version, fingerprint and
// installedAt per skill, origins/<name>.json with source, url, branch,
// commitHash and installedAt.
func TestFSFormat(t *testing.T) {
	dir := t.TempDir()
	s := registry.NewFSStore(dir)
	at := time.Date(2026, 4, 13, 10, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	rec := registry.Record{
		Name: "pdf", Version: "1.0.0", Source: registry.SourceGitHub, URL: "https://github.com/user/my-skill",
		Ref: "main", Commit: "abc123", Subdir: "skills/pdf", Fingerprint: "sha256:ab", InstalledAt: at, Enabled: true,
		InstallID: "K7Q2XAMPLEINSTALL234567ABC",
	}
	if err := s.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Version int                       `json:"version"`
		Skills  map[string]map[string]any `json:"skills"`
	}
	readJSON(t, filepath.Join(dir, ".skillhub", "lock.json"), &lock)
	e := lock.Skills["pdf"]
	if lock.Version != 1 || e["version"] != "1.0.0" || e["fingerprint"] != "sha256:ab" ||
		e["installedAt"] != "2026-04-13T08:00:00Z" || e["enabled"] != true || e["installId"] != rec.InstallID {
		t.Errorf("lock.json = %+v", lock)
	}
	var origin map[string]any
	readJSON(t, filepath.Join(dir, ".skillhub", "origins", "pdf.json"), &origin)
	want := map[string]any{
		"version": 1.0, "source": "github", "url": "https://github.com/user/my-skill", "branch": "main",
		"commitHash": "abc123", "installedAt": "2026-04-13T08:00:00Z", "subdir": "skills/pdf",
	}
	for k, v := range want {
		if origin[k] != v {
			t.Errorf("origin %s = %v, want %v", k, origin[k], v)
		}
	}
	if err := s.Delete(t.Context(), "pdf"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".skillhub", "origins", "pdf.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("origin file left after Delete: %v", err)
	}
}

// Files written by the seed (no "enabled", JavaScript timestamps, numeric
// versions, fields we do not know) are read, and a Put of another skill keeps
// them as they were.
func TestFSReadsSeedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".skillhub", "lock.json"), `{
  "version": 1,
  "generator": "netaclaw",
  "skills": {
    "old": {"version": 2, "fingerprint": "e3b0c442", "installedAt": "2026-04-13T10:00:00.000Z", "label": "Old"}
  }
}`)
	writeFile(t, filepath.Join(dir, ".skillhub", "origins", "old.json"),
		`{"version":1,"source":"github","url":"https://github.com/u/old","branch":"dev","commitHash":"c0ffee","installedAt":"2026-04-13T10:00:00Z"}`)
	s := registry.NewFSStore(dir)
	rec, err := s.Get(t.Context(), "old")
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Enabled || rec.Version != "2" || rec.Ref != "dev" || rec.Commit != "c0ffee" || rec.Source != registry.SourceGitHub ||
		!rec.InstalledAt.Equal(time.Date(2026, 4, 13, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("record = %+v", rec)
	}
	if err := s.Put(t.Context(), registry.Record{Name: "new", Enabled: true}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".skillhub", "lock.json"))
	for _, kept := range []string{`"generator": "netaclaw"`, `"label": "Old"`, `"version": 2,`} {
		if !strings.Contains(string(data), kept) {
			t.Errorf("lock.json lost %s:\n%s", kept, data)
		}
	}
}

func TestFSCorruptFilesAreErrorsAndKept(t *testing.T) {
	for _, content := range []string{"", " \n", `{"version":1,"skills":`, `{"version":2,"skills":{}}`, `[]`, `null`,
		`{"skills":{"pdf":null}}`, `{"skills":{"pdf":{"installedAt":"yesterday"}}}`} {
		dir := t.TempDir()
		lock := filepath.Join(dir, ".skillhub", "lock.json")
		writeFile(t, lock, content)
		s := registry.NewFSStore(dir)
		if _, err := s.List(t.Context()); !errors.Is(err, registry.ErrCorrupt) {
			t.Errorf("%s: List = %v, want ErrCorrupt", content, err)
		}
		if err := s.Put(t.Context(), registry.Record{Name: "x"}); !errors.Is(err, registry.ErrCorrupt) {
			t.Errorf("%s: Put = %v, want ErrCorrupt", content, err)
		}
		if data, _ := os.ReadFile(lock); string(data) != content {
			t.Errorf("%s: overwritten with %s", content, data)
		}
	}
	dir := t.TempDir()
	s := registry.NewFSStore(dir)
	s.Put(t.Context(), registry.Record{Name: "pdf"})
	writeFile(t, filepath.Join(dir, ".skillhub", "origins", "pdf.json"), `{"version":7}`)
	if _, err := s.Get(t.Context(), "pdf"); !errors.Is(err, registry.ErrCorrupt) {
		t.Errorf("origin version 7: %v", err)
	}
}

// Processes that Put at the same time lose no record: writers serialize on
// the lock file, so no read-modify-write of lock.json overwrites another's.
// Processes that Update one record at the same time lose no change:
// CompareAndSwap compares and writes under that lock.
func TestFSAcrossProcesses(t *testing.T) {
	if dir := os.Getenv("REGISTRY_CHILD_DIR"); dir != "" {
		s := registry.NewFSStore(dir)
		for i := range 10 {
			name := fmt.Sprintf("%s-%d", os.Getenv("REGISTRY_CHILD_NAME"), i)
			if err := s.Put(t.Context(), registry.Record{Name: name, Enabled: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := registry.Update(t.Context(), s, "counter", increment); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	for _, child := range []string{"a", "b", "c", "d"} {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestFSAcrossProcesses$")
			cmd.Env = append(os.Environ(), "REGISTRY_CHILD_DIR="+dir, "REGISTRY_CHILD_NAME="+child)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child %s: %v\n%s", child, err, out)
			}
		})
	}
	wg.Wait()
	recs, err := registry.NewFSStore(dir).List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 41 {
		t.Errorf("%d records, want 40 and the counter", len(recs))
	}
	if rec, err := registry.NewFSStore(dir).Get(t.Context(), "counter"); err != nil || rec.Version != "40" {
		t.Errorf("counter = %q, %v; want 40: updates were lost", rec.Version, err)
	}
}

func increment(rec *registry.Record, found bool) error {
	n := 0
	if found {
		var err error
		if n, err = strconv.Atoi(rec.Version); err != nil {
			return err
		}
	}
	rec.Version = strconv.Itoa(n + 1)
	return nil
}

// withoutSwap hides a store's compare-and-swap capability.
type withoutSwap struct{ registry.Store }

func TestUpdate(t *testing.T) {
	ctx := t.Context()
	for name, s := range map[string]registry.Store{"mem": &registry.MemStore{}, "no swap": withoutSwap{&registry.MemStore{}}} {
		t.Run(name, func(t *testing.T) {
			rec, err := registry.Update(ctx, s, "pdf", func(rec *registry.Record, found bool) error {
				if found || rec.Name != "pdf" {
					t.Errorf("change of a missing record got %+v, %v", rec, found)
				}
				rec.Enabled, rec.Name = true, "renamed"
				return nil
			})
			if err != nil || rec.Name != "pdf" || !rec.Enabled {
				t.Fatalf("Update = %+v, %v", rec, err)
			}
			stop := errors.New("stop")
			if _, err := registry.Update(ctx, s, "pdf", func(*registry.Record, bool) error { return stop }); err != stop {
				t.Fatalf("an error from change: %v", err)
			}
			if got, _ := s.Get(ctx, "pdf"); !got.Enabled {
				t.Fatalf("Update stored %+v", got)
			}
		})
	}
}

// A store whose swaps always conflict makes Update give up rather than spin.
func TestUpdateGivesUp(t *testing.T) {
	s := registrytest.FailingStore(&registry.MemStore{}, registrytest.Fault{Method: "CompareAndSwap", Err: registry.ErrConflict})
	_, err := registry.Update(t.Context(), s, "pdf", increment)
	if !errors.Is(err, registry.ErrConflict) || !strings.Contains(err.Error(), "gave up") {
		t.Fatalf("Update against endless conflicts: %v", err)
	}
	if strings.Count(err.Error(), "registry:") != 1 {
		t.Errorf("the package name is not said once: %v", err)
	}
}

// Install ids: fresh ones are valid and differ; InstallIDFunc reads a
// record's, and "" for a skill without a record.
func TestInstallID(t *testing.T) {
	a, b := registry.NewInstallID(), registry.NewInstallID()
	if a == b || (registry.Record{Name: "x", InstallID: a}).Validate() != nil {
		t.Fatalf("NewInstallID = %q, %q", a, b)
	}
	s := &registry.MemStore{}
	if err := s.Put(t.Context(), registry.Record{Name: "pdf", InstallID: a}); err != nil {
		t.Fatal(err)
	}
	get := registry.InstallIDFunc(s)
	if id, err := get(t.Context(), "pdf"); err != nil || id != a {
		t.Errorf("InstallIDFunc(pdf) = %q, %v", id, err)
	}
	if id, err := get(t.Context(), "other"); err != nil || id != "" {
		t.Errorf("InstallIDFunc(other) = %q, %v", id, err)
	}
	failing := registry.InstallIDFunc(registrytest.FailingStore(s, registrytest.Fault{Method: "Get"}))
	if _, err := failing(t.Context(), "pdf"); !errors.Is(err, registrytest.ErrInjected) {
		t.Errorf("a store that fails: %v", err)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, data)
	}
}

// A record written again with only a new time is another record: a
// compare-and-swap against the older one conflicts.
func TestSwapSeesATimeOnlyChange(t *testing.T) {
	for name, store := range map[string]registry.Store{"mem": new(registry.MemStore), "fs": registry.NewFSStore(t.TempDir())} {
		t.Run(name, func(t *testing.T) {
			cas := store.(registry.CompareAndSwapper)
			at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			old := registry.Record{Name: "pdf", Enabled: true, InstalledAt: at, UpdatedAt: at}
			if err := store.Put(t.Context(), old); err != nil {
				t.Fatal(err)
			}
			touched := old
			touched.UpdatedAt = at.Add(time.Second)
			if old.Equal(touched) {
				t.Error("records differing in UpdatedAt are Equal")
			}
			if err := store.Put(t.Context(), touched); err != nil {
				t.Fatal(err)
			}
			next := old
			next.Pinned = true
			if err := cas.CompareAndSwap(t.Context(), &old, next); !errors.Is(err, registry.ErrConflict) {
				t.Fatalf("swap against a record written since: %v, want ErrConflict", err)
			}
		})
	}
}
