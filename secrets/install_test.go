package secrets_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/secrets/secretstest"
	"github.com/skillkit-go/skillkit/skill"
)

// installedVault returns a vault whose install ids come from reg, as the Kit
// wires it.
func installedVault(t testing.TB, store secrets.Store, reg registry.Store, kr *secrets.Keyring) *secrets.Vault {
	t.Helper()
	return secrets.NewVault(store, &secrets.Options{Keyring: kr, Getenv: env(nil), InstallID: registry.InstallIDFunc(reg)})
}

func install(t *testing.T, reg registry.Store, name string) string {
	t.Helper()
	id := registry.NewInstallID()
	if err := reg.Put(t.Context(), registry.Record{Name: name, Source: registry.SourceGitHub, Enabled: true, InstallID: id}); err != nil {
		t.Fatal(err)
	}
	return id
}

// A secret belongs to one install: after gh is uninstalled with its secrets
// kept, a new gh (another install id, or a hand-placed gh with none) does
// not receive them; the vault reports them stale; Adopt, a person's action,
// binds them to the new install.
func TestSecretBelongsToOneInstall(t *testing.T) {
	ctx := t.Context()
	reg := &registry.MemStore{}
	store := secrets.NewFSStore(t.TempDir())
	v := installedVault(t, store, reg, keyring(t, deriveKey(t, oldSecret)))
	schema := []skill.EnvVar{{Name: "GH_TOKEN", Required: true}}

	first := install(t, reg, "gh")
	if err := v.Save(ctx, "gh", map[string]string{"GH_TOKEN": "ghp-first"}); err != nil {
		t.Fatal(err)
	}
	sealed, err := store.Get(ctx, "gh", "GH_TOKEN")
	if err != nil {
		t.Fatal(err)
	}
	if h, err := secrets.ReadHeader(sealed); err != nil || h.InstallID != first {
		t.Fatalf("the value is sealed for %+v (%v), want install %s", h, err, first)
	}
	if env, err := v.ResolveEnv(ctx, "gh", schema); err != nil || env["GH_TOKEN"] != "ghp-first" {
		t.Fatalf("the install the value was saved for: %v, %v", env, err)
	}

	// Uninstalled (secrets kept), then a skill takes the name: first by
	// hand (no record, no install id), then installed from elsewhere.
	if err := reg.Delete(ctx, "gh"); err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"hand-placed", "installed again"} {
		if step == "installed again" {
			install(t, reg, "gh")
		}
		env, err := v.ResolveEnv(ctx, "gh", schema)
		if err != nil || len(env) != 0 {
			t.Fatalf("%s: ResolveEnv = %v, %v; want nothing", step, env, err)
		}
		st, err := v.Configured(ctx, "gh", schema)
		want := []secrets.EnvStatus{{Name: "GH_TOKEN", Required: true, Declared: true, Stale: true}}
		if err != nil || !slices.Equal(st, want) {
			t.Fatalf("%s: Configured = %+v, %v; want %+v", step, st, err, want)
		}
		ds := v.EnvChecker().Check(ctx, &skill.Skill{Name: "gh", Env: schema})
		if len(ds) != 1 || ds[0].Detail["stale"] != true || !strings.Contains(ds[0].Message, "earlier install") {
			t.Fatalf("%s: EnvChecker = %v", step, ds)
		}
	}

	// Adopt binds it to the current install.
	adopted, err := v.Adopt(ctx, "gh")
	if err != nil || !slices.Equal(adopted, []string{"GH_TOKEN"}) {
		t.Fatalf("Adopt = %v, %v", adopted, err)
	}
	if env, err := v.ResolveEnv(ctx, "gh", schema); err != nil || env["GH_TOKEN"] != "ghp-first" {
		t.Fatalf("after Adopt: %v, %v", env, err)
	}
	if st, _ := v.Configured(ctx, "gh", schema); !st[0].HasValue || st[0].Stale {
		t.Fatalf("after Adopt: %+v", st)
	}
	if adopted, err := v.Adopt(ctx, "gh"); err != nil || len(adopted) != 0 {
		t.Fatalf("a second Adopt: %v, %v", adopted, err)
	}
}

// A value copied from one install's file over another's does not open, even
// with its header rewritten to name the current install.
func TestValueOfAnotherInstallDoesNotOpen(t *testing.T) {
	ctx := t.Context()
	reg := &registry.MemStore{}
	store := &secrets.MemStore{}
	v := installedVault(t, store, reg, keyring(t, deriveKey(t, oldSecret)))
	old := install(t, reg, "gh")
	if err := v.Save(ctx, "gh", map[string]string{"GH_TOKEN": "ghp-old"}); err != nil {
		t.Fatal(err)
	}
	current := install(t, reg, "gh")
	sealed, _ := store.Get(ctx, "gh", "GH_TOKEN")
	forged := []byte(strings.Replace(string(sealed), old, current, 1))
	if err := store.Put(ctx, "gh", "GH_TOKEN", forged); err != nil {
		t.Fatal(err)
	}
	if _, err := v.ResolveEnv(ctx, "gh", nil); !errors.Is(err, secrets.ErrCannotOpen) {
		t.Fatalf("a forged header: %v, want ErrCannotOpen", err)
	}
}

// copyTree copies the fixture folder src to a new temporary folder.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// A skills folder written before install ids (testdata/v1store: lock.json
// without installId, values in format version 1, sealed under the golden
// key) keeps its secrets: they open for the records without an install id,
// Rotate rewrites them in the current format still bound to no install id,
// and an install made after the change (with an install id) never receives
// them until adopted.
func TestV1StoreKeepsWorking(t *testing.T) {
	ctx := t.Context()
	dir := copyTree(t, filepath.Join("testdata", "v1store"))
	reg := registry.NewFSStore(dir)
	store := secrets.NewFSStore(dir)
	golden := keyring(t, deriveKey(t, "skillkit golden test vector secret"))
	v := installedVault(t, store, reg, golden)
	want := map[string]map[string]string{
		"gh":        {"GH_TOKEN": "ghp-v1-token"},
		"pdf-tools": {"OCR_API_KEY": "sk-v1-ocr", "OCR_REGION": "eu"},
	}
	for name, vals := range want {
		if env, err := v.ResolveEnv(ctx, name, nil); err != nil || !maps.Equal(env, vals) {
			t.Fatalf("%s from the version 1 store: %v, %v", name, env, err)
		}
	}
	if ids := versions(t, store); !maps.Equal(ids, map[int]int{1: 3}) {
		t.Fatalf("fixture versions: %v", ids)
	}

	// Rotating to the same key rewrites every value in the current format.
	stats, err := v.Rotate(ctx, golden)
	if err != nil || stats != (secrets.RotateStats{Resealed: 3}) {
		t.Fatalf("Rotate: %+v, %v", stats, err)
	}
	if ids := versions(t, store); !maps.Equal(ids, map[int]int{secrets.FormatVersion: 3}) {
		t.Fatalf("after Rotate: versions %v", ids)
	}
	for name, vals := range want {
		if env, err := v.ResolveEnv(ctx, name, nil); err != nil || !maps.Equal(env, vals) {
			t.Fatalf("%s after Rotate: %v, %v", name, env, err)
		}
	}

	// gh is installed again after the change: a new install id.
	rec, err := reg.Get(ctx, "gh")
	if err != nil || rec.InstallID != "" {
		t.Fatalf("fixture record %+v, %v", rec, err)
	}
	rec.InstallID = registry.NewInstallID()
	if err := reg.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if env, err := v.ResolveEnv(ctx, "gh", nil); err != nil || len(env) != 0 {
		t.Fatalf("a new install received the old values: %v, %v", env, err)
	}
	if env, err := v.ResolveEnv(ctx, "pdf-tools", nil); err != nil || len(env) != 2 {
		t.Fatalf("pdf-tools, installed before the change: %v, %v", env, err)
	}
	if _, err := v.Adopt(ctx, "gh"); err != nil {
		t.Fatal(err)
	}
	if env, err := v.ResolveEnv(ctx, "gh", nil); err != nil || !maps.Equal(env, want["gh"]) {
		t.Fatalf("after Adopt: %v, %v", env, err)
	}
}

func versions(t *testing.T, store secrets.Store) map[int]int {
	t.Helper()
	out := map[int]int{}
	for _, h := range secretstest.SealedHeaders(t, store) {
		out[h.Version]++
	}
	return out
}

func TestInstallIDErrors(t *testing.T) {
	ctx := t.Context()
	boom := errors.New("registry down")
	for _, tt := range []struct {
		name string
		fn   func(context.Context, string) (string, error)
		is   error
	}{
		{"failing", func(context.Context, string) (string, error) { return "", boom }, boom},
		{"invalid", func(context.Context, string) (string, error) { return "../x", nil }, nil},
	} {
		v := secrets.NewVault(nil, &secrets.Options{Keyring: keyring(t, deriveKey(t, oldSecret)), InstallID: tt.fn})
		errs := map[string]error{"Save": v.Save(ctx, "gh", map[string]string{"A": "x"})}
		_, errs["ResolveEnv"] = v.ResolveEnv(ctx, "gh", nil)
		_, errs["Configured"] = v.Configured(ctx, "gh", nil)
		_, errs["Adopt"] = v.Adopt(ctx, "gh")
		for op, err := range errs {
			if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) || !strings.HasPrefix(err.Error(), "secrets: ") ||
				strings.Count(err.Error(), "secrets:") != 1 {
				t.Errorf("%s: %s: %v", tt.name, op, err)
			}
		}
	}
}

// raceStore runs before once, just before the first CompareAndSwap reaches
// the store: another writer saving between a re-seal's read and its write.
type raceStore struct {
	secrets.Store
	cas    secrets.CompareAndSwapper
	once   sync.Once
	before func()
}

func (r *raceStore) CompareAndSwap(ctx context.Context, skillName, key string, old, sealed []byte) error {
	r.once.Do(r.before)
	return r.cas.CompareAndSwap(ctx, skillName, key, old, sealed)
}

func (r *raceStore) CompareAndDelete(ctx context.Context, skillName, key string, old []byte) error {
	return r.cas.CompareAndDelete(ctx, skillName, key, old)
}

// Rotate and Adopt never overwrite a value saved between their read and
// their write: the save wins, and is itself re-sealed when it needs it.
func TestResealNeverOverwritesAConcurrentSave(t *testing.T) {
	ctx := t.Context()
	oldKey, newKey := deriveKey(t, oldSecret), deriveKey(t, newSecret)
	for _, tt := range []struct {
		name      string
		otherKey  secrets.Key // the key the other writer seals with
		wantStats secrets.RotateStats
	}{
		{"other writer on the old key", oldKey, secrets.RotateStats{Resealed: 1}},
		{"other writer on the new key", newKey, secrets.RotateStats{Unchanged: 1}},
	} {
		t.Run("Rotate/"+tt.name, func(t *testing.T) {
			inner := &secrets.MemStore{}
			if err := newVault(t, inner, keyring(t, oldKey)).Save(ctx, "pdf", map[string]string{"A": "before"}); err != nil {
				t.Fatal(err)
			}
			other := newVault(t, inner, keyring(t, tt.otherKey))
			rs := &raceStore{Store: inner, cas: inner, before: func() {
				if err := other.Save(ctx, "pdf", map[string]string{"A": "saved meanwhile"}); err != nil {
					t.Error(err)
				}
			}}
			stats, err := newVault(t, rs, keyring(t, oldKey)).Rotate(ctx, keyring(t, newKey))
			if err != nil || stats != tt.wantStats {
				t.Fatalf("Rotate = %+v, %v; want %+v", stats, err, tt.wantStats)
			}
			env, err := newVault(t, inner, keyring(t, newKey)).ResolveEnv(ctx, "pdf", nil)
			if err != nil || env["A"] != "saved meanwhile" {
				t.Fatalf("with the new key only: %v, %v; the concurrent save was lost", env, err)
			}
		})
	}
	t.Run("Adopt", func(t *testing.T) {
		reg := &registry.MemStore{}
		inner := &secrets.MemStore{}
		kr := keyring(t, oldKey)
		install(t, reg, "gh")
		if err := installedVault(t, inner, reg, kr).Save(ctx, "gh", map[string]string{"GH_TOKEN": "old install"}); err != nil {
			t.Fatal(err)
		}
		install(t, reg, "gh")
		other := installedVault(t, inner, reg, kr)
		rs := &raceStore{Store: inner, cas: inner, before: func() {
			if err := other.Save(ctx, "gh", map[string]string{"GH_TOKEN": "new install"}); err != nil {
				t.Error(err)
			}
		}}
		adopted, err := installedVault(t, rs, reg, kr).Adopt(ctx, "gh")
		if err != nil || len(adopted) != 0 {
			t.Fatalf("Adopt = %v, %v; want nothing adopted", adopted, err)
		}
		if env, err := other.ResolveEnv(ctx, "gh", nil); err != nil || env["GH_TOKEN"] != "new install" {
			t.Fatalf("%v, %v: Adopt overwrote the value saved for the new install", env, err)
		}
	})
}

// Two vaults on one store, as two processes: one saves new values while the
// other rotates. No saved value is lost.
func TestRotateWhileAnotherVaultSaves(t *testing.T) {
	for name, store := range map[string]secrets.Store{"mem": &secrets.MemStore{}, "fs": secrets.NewFSStore(t.TempDir())} {
		t.Run(name, func(t *testing.T) {
			secretstest.RotateWhileSaving(t, store, func() error { return secretstest.SaveNewValues(t.Context(), store) })
		})
	}
}

// The same across processes: a child process saves into a filesystem store
// while this one rotates.
func TestRotateWhileAnotherProcessSaves(t *testing.T) {
	if dir := os.Getenv("SECRETS_CHILD_STORE"); dir != "" {
		if err := secretstest.SaveNewValues(t.Context(), secrets.NewFSStore(dir)); err != nil {
			t.Fatal(err)
		}
		return
	}
	skills := t.TempDir()
	secretstest.RotateWhileSaving(t, secrets.NewFSStore(skills), func() error {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRotateWhileAnotherProcessSaves$")
		cmd.Env = append(os.Environ(), "SECRETS_CHILD_STORE="+skills)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("child: %v\n%s", err, out)
		}
		return nil
	})
}
