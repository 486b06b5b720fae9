package secrets_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

func ptr(s string) *string { return &s }

func newVault(t testing.TB, store secrets.Store, kr *secrets.Keyring) *secrets.Vault {
	t.Helper()
	return secrets.NewVault(store, &secrets.Options{Keyring: kr, Getenv: env(nil)})
}

func TestVaultSaveResolveConfigured(t *testing.T) {
	ctx := t.Context()
	v := newVault(t, nil, keyring(t, deriveKey(t, oldSecret)))
	schema := []skill.EnvVar{
		{Name: "OCR_API_KEY", Required: true, Description: "the OCR key"},
		{Name: "REGION", Default: ptr("eu")},
		{Name: "TIMEOUT", Required: true, Default: ptr("30")},
		{Name: "MISSING", Required: true},
	}
	if err := v.Save(ctx, "ocr", map[string]string{"OCR_API_KEY": "sk-1", "TIMEOUT": "5", "EXTRA": ""}); err != nil {
		t.Fatal(err)
	}
	got, err := v.ResolveEnv(ctx, "ocr", schema)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"OCR_API_KEY": "sk-1", "REGION": "eu", "TIMEOUT": "5", "EXTRA": ""}
	if !maps.Equal(got, want) {
		t.Fatalf("ResolveEnv = %v, want %v", got, want)
	}
	st, err := v.Configured(ctx, "ocr", schema)
	if err != nil {
		t.Fatal(err)
	}
	wantSt := []secrets.EnvStatus{
		{Name: "OCR_API_KEY", Required: true, Description: "the OCR key", Declared: true, HasValue: true},
		{Name: "REGION", Declared: true, HasDefault: true},
		{Name: "TIMEOUT", Required: true, Declared: true, HasValue: true, HasDefault: true},
		{Name: "MISSING", Required: true, Declared: true},
		{Name: "EXTRA", HasValue: true},
	}
	if !slices.Equal(st, wantSt) {
		t.Fatalf("Configured =\n%+v\nwant\n%+v", st, wantSt)
	}
	// Another skill sees none of it.
	if got, err := v.ResolveEnv(ctx, "pdf", schema[:1]); err != nil || len(got) != 0 {
		t.Fatalf("another skill: %v %v", got, err)
	}
	// Save replaces only what it names.
	if err := v.Save(ctx, "ocr", map[string]string{"TIMEOUT": "7"}); err != nil {
		t.Fatal(err)
	}
	got, _ = v.ResolveEnv(ctx, "ocr", nil)
	if got["TIMEOUT"] != "7" || got["OCR_API_KEY"] != "sk-1" {
		t.Fatalf("after a second Save: %v", got)
	}
	if err := v.Delete(ctx, "ocr", "TIMEOUT", "NEVER_SAVED"); err != nil {
		t.Fatal(err)
	}
	got, _ = v.ResolveEnv(ctx, "ocr", schema)
	if got["TIMEOUT"] != "30" {
		t.Fatalf("after Delete the default comes back: %v", got)
	}
	if err := v.DeleteSkill(ctx, "ocr"); err != nil {
		t.Fatal(err)
	}
	if skills, _ := v.Store().Skills(ctx); len(skills) != 0 {
		t.Fatalf("DeleteSkill left %v", skills)
	}
}

func TestVaultSaveChecksEverythingFirst(t *testing.T) {
	ctx := t.Context()
	v := newVault(t, nil, keyring(t, deriveKey(t, oldSecret)))
	if err := v.Save(ctx, "pdf", map[string]string{"Api_Key": "x"}); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		values map[string]string
		is     error
		says   string
	}{
		{map[string]string{"GOOD": "1", "LD_PRELOAD": "/tmp/x.so"}, skill.ErrInvalidEnvName, "LD_PRELOAD"},
		{map[string]string{"GOOD": "1", "NODE_OPTIONS": "--require x"}, skill.ErrInvalidEnvName, "NODE_OPTIONS"},
		{map[string]string{"GOOD": "1", "A-B": "x"}, skill.ErrInvalidEnvName, "A-B"},
		{map[string]string{"GOOD": "1", "BIG": strings.Repeat("s", secrets.MaxValueLen+1)}, secrets.ErrValueTooLong, "BIG"},
		{map[string]string{"GOOD": "1", "NUL": "a\x00b"}, nil, "NUL byte"},
		{map[string]string{"GOOD": "1", "TOKEN": "a", "token": "b"}, nil, "only in case"},
		{map[string]string{"GOOD": "1", "API_KEY": "x"}, nil, "differs only in case from the saved Api_Key"},
	}
	for _, tt := range bad {
		err := v.Save(ctx, "pdf", tt.values)
		if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%v: %v, want an error about %s", slices.Sorted(maps.Keys(tt.values)), err, tt.says)
		}
		if keys, _ := v.Store().Keys(ctx, "pdf"); !slices.Equal(keys, []string{"Api_Key"}) {
			t.Fatalf("a refused Save wrote %v", keys)
		}
	}
	if err := v.Save(ctx, "../etc", map[string]string{"A": "x"}); !errors.Is(err, skill.ErrInvalidName) {
		t.Errorf("skill ../etc: %v", err)
	}
	if err := v.Save(ctx, "pdf", nil); err != nil {
		t.Errorf("saving nothing: %v", err)
	}
}

func TestVaultNoKeyFailsOnFirstUseOnly(t *testing.T) {
	ctx := t.Context()
	vars := map[string]string{}
	v := secrets.NewVault(nil, &secrets.Options{Getenv: func(k string) string { return vars[k] }})
	// Nothing needs a key yet.
	if _, err := v.Configured(ctx, "pdf", []skill.EnvVar{{Name: "A", Required: true}}); err != nil {
		t.Fatal(err)
	}
	if got, err := v.ResolveEnv(ctx, "pdf", []skill.EnvVar{{Name: "A", Default: ptr("d")}}); err != nil || got["A"] != "d" {
		t.Fatalf("ResolveEnv without saved values needs no key: %v %v", got, err)
	}
	err := v.Save(ctx, "pdf", map[string]string{"A": "x"})
	if !errors.Is(err, secrets.ErrNoKey) || !strings.Contains(err.Error(), "SKILL_SECRET_KEY") {
		t.Fatalf("Save without a key: %v", err)
	}
	vars["APP_SECRET"] = newSecret // set later: the vault picks it up
	if err := v.Save(ctx, "pdf", map[string]string{"A": "x"}); err != nil {
		t.Fatal(err)
	}
	if got, err := v.ResolveEnv(ctx, "pdf", nil); err != nil || got["A"] != "x" {
		t.Fatalf("%v %v", got, err)
	}
}

func TestVaultResolveEnvErrors(t *testing.T) {
	ctx := t.Context()
	store := &secrets.MemStore{}
	v := newVault(t, store, keyring(t, deriveKey(t, oldSecret)))
	if _, err := v.ResolveEnv(ctx, "pdf", []skill.EnvVar{{Name: "PATH", Default: ptr("/evil")}}); !errors.Is(err, skill.ErrInvalidEnvName) {
		t.Errorf("a schema declaring PATH: %v", err)
	}
	if err := v.Save(ctx, "pdf", map[string]string{"A": "sk-never-shown"}); err != nil {
		t.Fatal(err)
	}
	other := newVault(t, store, keyring(t, deriveKey(t, newSecret)))
	_, err := other.ResolveEnv(ctx, "pdf", nil)
	if !errors.Is(err, secrets.ErrCannotOpen) || !strings.Contains(err.Error(), "A of skill pdf") {
		t.Errorf("wrong key: %v", err)
	}
}

// TestValueMovedBetweenSkillsDoesNotOpen copies a sealed file to another
// skill and another variable, as someone with write access to the folder
// could, and expects ErrCannotOpen rather than the other skill's secret.
func TestValueMovedBetweenSkillsDoesNotOpen(t *testing.T) {
	ctx := t.Context()
	store := secrets.NewFSStore(t.TempDir())
	dir := store.Dir()
	v := newVault(t, store, keyring(t, deriveKey(t, oldSecret)))
	if err := v.Save(ctx, "billing", map[string]string{"API_KEY": "sk-billing"}); err != nil {
		t.Fatal(err)
	}
	if err := v.Save(ctx, "weather", map[string]string{"WEATHER_KEY": "w"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "billing", "API_KEY.sealed"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dst := range []string{"weather/API_KEY.sealed", "weather/WEATHER_KEY.sealed", "billing/OTHER.sealed"} {
		if err := os.WriteFile(filepath.Join(dir, dst), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"weather", "billing"} {
		if _, err := v.ResolveEnv(ctx, s, nil); !errors.Is(err, secrets.ErrCannotOpen) {
			t.Errorf("%s with a moved value: %v", s, err)
		}
	}
}

func TestRotateFromTheEnvironment(t *testing.T) {
	ctx := t.Context()
	store := &secrets.MemStore{}
	oldVault := secrets.NewVault(store, &secrets.Options{Getenv: env(map[string]string{"APP_SECRET": oldSecret})})
	if err := oldVault.Save(ctx, "pdf", map[string]string{"A": "1", "B": "2"}); err != nil {
		t.Fatal(err)
	}
	// The documented procedure: new secret in SKILL_SECRET_KEY, old one in
	// SKILL_SECRET_KEY_PREVIOUS, rotate to the keyring that gives.
	vars := env(map[string]string{"APP_SECRET": oldSecret, "SKILL_SECRET_KEY": newSecret, "SKILL_SECRET_KEY_PREVIOUS": oldSecret})
	kr, err := secrets.KeyringFromEnv(vars)
	if err != nil {
		t.Fatal(err)
	}
	v := secrets.NewVault(store, &secrets.Options{Getenv: vars})
	if stats, err := v.Rotate(ctx, kr); err != nil || stats.Resealed != 2 {
		t.Fatalf("%+v %v", stats, err)
	}
	newOnly := secrets.NewVault(store, &secrets.Options{Getenv: env(map[string]string{"SKILL_SECRET_KEY": newSecret})})
	if got, err := newOnly.ResolveEnv(ctx, "pdf", nil); err != nil || got["A"] != "1" || got["B"] != "2" {
		t.Fatalf("%v %v", got, err)
	}
}

func TestRotateReportsValuesNoKeyOpens(t *testing.T) {
	ctx := t.Context()
	store := &secrets.MemStore{}
	oldKey, newKey, lost := deriveKey(t, oldSecret), deriveKey(t, newSecret), deriveKey(t, "a key nobody has any more!!")
	if err := newVault(t, store, keyring(t, lost)).Save(ctx, "lost", map[string]string{"GONE": "x"}); err != nil {
		t.Fatal(err)
	}
	if err := newVault(t, store, keyring(t, oldKey)).Save(ctx, "pdf", map[string]string{"A": "1"}); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(ctx, "pdf", "JUNK", []byte("not sealed")); err != nil {
		t.Fatal(err)
	}
	v := newVault(t, store, keyring(t, oldKey))
	stats, err := v.Rotate(ctx, keyring(t, newKey))
	if !errors.Is(err, secrets.ErrCannotOpen) || stats != (secrets.RotateStats{Resealed: 1, Failed: 2}) {
		t.Fatalf("%+v %v", stats, err)
	}
	if !strings.Contains(err.Error(), "GONE of skill lost") || !strings.Contains(err.Error(), "JUNK of skill pdf") {
		t.Errorf("the error does not name the values: %v", err)
	}
	// The vault still opens the rest with the new key.
	if got, err := v.ResolveEnv(ctx, "pdf", []skill.EnvVar{{Name: "A"}}); err == nil || got != nil {
		t.Fatalf("JUNK should still fail: %v", got)
	}
	if err := v.Delete(ctx, "pdf", "JUNK"); err != nil {
		t.Fatal(err)
	}
	if got, err := v.ResolveEnv(ctx, "pdf", nil); err != nil || got["A"] != "1" {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := v.Rotate(ctx, nil); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Fatalf("Rotate(nil): %v", err)
	}
}

func TestConcurrentSavesResolvesAndARotation(t *testing.T) {
	for name, store := range map[string]secrets.Store{"mem": &secrets.MemStore{}, "fs": secrets.NewFSStore(t.TempDir())} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			oldKey, newKey := deriveKey(t, oldSecret), deriveKey(t, newSecret)
			v := newVault(t, store, keyring(t, oldKey))
			next := keyring(t, newKey)
			const workers, each = 8, 12
			var wg sync.WaitGroup
			errs := make(chan error, workers*each*2+1)
			for w := range workers {
				wg.Go(func() {
					for i := range each {
						vals := map[string]string{fmt.Sprintf("K_%d_%d", w, i): fmt.Sprintf("v%d.%d", w, i), "SHARED": fmt.Sprint(w)}
						if err := v.Save(ctx, "skill-"+fmt.Sprint(i%3), vals); err != nil {
							errs <- err
						}
						if _, err := v.ResolveEnv(ctx, "skill-"+fmt.Sprint(w%3), nil); err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Go(func() {
				if _, err := v.Rotate(ctx, next); err != nil {
					errs <- err
				}
			})
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			// Everything is under the new key and complete.
			newOnly := newVault(t, store, next)
			total := 0
			for i := range 3 {
				got, err := newOnly.ResolveEnv(ctx, "skill-"+fmt.Sprint(i), nil)
				if err != nil {
					t.Fatal(err)
				}
				for k, val := range got {
					if k == "SHARED" {
						continue
					}
					var w, j int
					if _, err := fmt.Sscanf(k, "K_%d_%d", &w, &j); err != nil || val != fmt.Sprintf("v%d.%d", w, j) {
						t.Errorf("%s = %q", k, val)
					}
				}
				total += len(got) - 1
			}
			if total != workers*each {
				t.Fatalf("%d values, want %d", total, workers*each)
			}
		})
	}
}

// TestPlaintextNeverLeaks runs every operation, the failing ones too, with
// a logger, then looks for the plaintext in every file the store wrote,
// every log line and every error.
func TestPlaintextNeverLeaks(t *testing.T) {
	ctx := t.Context()
	const plain = "sk-PLAINTEXT-4f9a1c"
	needles := [][]byte{[]byte(plain), []byte("PLAINTEXT-4f9a"), []byte(oldSecret), []byte(newSecret)}
	dir := t.TempDir()
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	oldKR, newKR := keyring(t, deriveKey(t, oldSecret)), keyring(t, deriveKey(t, newSecret))
	v := secrets.NewVault(secrets.NewFSStore(dir), &secrets.Options{Keyring: oldKR, Logger: logger})
	var errs []error
	record := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	record(v.Save(ctx, "pdf", map[string]string{"API_KEY": plain, "OTHER": plain + "2"}))
	record(v.Save(ctx, "pdf", map[string]string{"BAD-NAME": plain}))
	record(v.Save(ctx, "pdf", map[string]string{"LD_PRELOAD": plain}))
	record(v.Save(ctx, "pdf", map[string]string{"NUL": plain + "\x00"}))
	record(v.Save(ctx, "pdf", map[string]string{"BIG": plain + strings.Repeat("x", secrets.MaxValueLen)}))
	record(v.Save(ctx, "pdf", map[string]string{"api_key": plain}))
	_, err := v.ResolveEnv(ctx, "pdf", []skill.EnvVar{{Name: "API_KEY", Required: true}})
	record(err)
	_, err = newVault(t, secrets.NewFSStore(dir), newKR).ResolveEnv(ctx, "pdf", nil)
	record(err)
	_, err = v.Rotate(ctx, newKR)
	record(err)
	blob := legacyEncryptGo(t, "legacy secret", `{"LEGACY":"`+plain+`"}`)
	key, _ := secrets.NewLegacyKey([]byte("legacy secret"))
	_, err = v.ImportLegacy(ctx, "ocr", blob, key)
	record(err)
	for _, bad := range []string{`{"A":1,"B":"` + plain + `"}`, `["` + plain + `"]`, `{"A":"` + plain, `{"` + plain + `":"x"}`} {
		_, err = v.ImportLegacy(ctx, "ocr", legacyEncryptGo(t, "legacy secret", bad), key)
		record(err)
	}
	wrong, _ := secrets.NewLegacyKey([]byte("wrong"))
	_, err = v.ImportLegacy(ctx, "ocr", blob, wrong)
	record(err)
	record(v.Delete(ctx, "pdf", "OTHER"))
	for _, c := range v.EnvChecker().Check(ctx, &skill.Skill{Name: "pdf", Env: []skill.EnvVar{{Name: "GONE", Required: true}}}) {
		fmt.Fprintln(&logs, c.String())
	}
	if len(errs) < 10 {
		t.Fatalf("only %d operations failed; the test lost its failing cases", len(errs))
	}
	if !strings.Contains(logs.String(), "secrets saved") || !strings.Contains(logs.String(), "secrets rotated") {
		t.Fatalf("no audit lines were logged:\n%s", logs.String())
	}
	for _, err := range errs {
		for _, n := range needles {
			for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
				if strings.Contains(text, string(n)) {
					t.Errorf("error shows %q: %s", n, text)
				}
			}
		}
	}
	for _, n := range needles {
		if bytes.Contains(logs.Bytes(), n) {
			t.Errorf("a log line shows %q:\n%s", n, logs.String())
		}
	}
	files := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data, err := os.ReadFile(path)
		for _, n := range needles {
			if bytes.Contains(data, n) {
				t.Errorf("%s holds %q", path, n)
			}
		}
		return err
	})
	if err != nil || files < 2 {
		t.Fatalf("%d files checked: %v", files, err)
	}
}

func TestNilOptionsAndNilStore(t *testing.T) {
	v := secrets.NewVault(nil, nil)
	if _, ok := v.Store().(*secrets.MemStore); !ok {
		t.Fatalf("a nil store is %T", v.Store())
	}
	if got, err := v.ResolveEnv(t.Context(), "pdf", nil); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("%v %v", got, err)
	}
}

// Configured tells values sealed under a key the keyring does not hold;
// without a key it cannot tell and says nothing.
func TestConfiguredNamesValuesUnderAnotherKey(t *testing.T) {
	ctx := t.Context()
	store := &secrets.MemStore{}
	if err := secrets.NewVault(store, &secrets.Options{Getenv: env(map[string]string{"SKILL_SECRET_KEY": oldSecret})}).Save(ctx, "pdf", map[string]string{"A": "1"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		vars  map[string]string
		other bool
	}{
		{"the same key", map[string]string{"SKILL_SECRET_KEY": oldSecret}, false},
		{"another key", map[string]string{"SKILL_SECRET_KEY": newSecret}, true},
		{"another key with the old one as previous", map[string]string{"SKILL_SECRET_KEY": newSecret, "SKILL_SECRET_KEY_PREVIOUS": oldSecret}, false},
		{"no key", nil, false},
	} {
		rows, err := secrets.NewVault(store, &secrets.Options{Getenv: env(tc.vars)}).Configured(ctx, "pdf", []skill.EnvVar{{Name: "A", Required: true}})
		if err != nil || len(rows) != 1 || !rows[0].HasValue || rows[0].OtherKey != tc.other {
			t.Errorf("%s: %+v, %v; want OtherKey %v", tc.name, rows, err, tc.other)
		}
	}
}

// A saved value whose sealed bytes were changed shows as damaged, not as
// set, before a run of the skill fails on it; without the key it cannot
// tell.
func TestConfiguredNamesDamagedValues(t *testing.T) {
	ctx := t.Context()
	store := &secrets.MemStore{}
	keyed := secrets.NewVault(store, &secrets.Options{Getenv: env(map[string]string{"SKILL_SECRET_KEY": oldSecret})})
	if err := keyed.Save(ctx, "pdf", map[string]string{"A": "1", "B": "2"}); err != nil {
		t.Fatal(err)
	}
	sealed, err := store.Get(ctx, "pdf", "B")
	if err != nil {
		t.Fatal(err)
	}
	sealed[len(sealed)-1] ^= 1
	if err := store.Put(ctx, "pdf", "B", sealed); err != nil {
		t.Fatal(err)
	}
	schema := []skill.EnvVar{{Name: "A"}, {Name: "B"}}
	rows, err := keyed.Configured(ctx, "pdf", schema)
	if err != nil || len(rows) != 2 || rows[0].Damaged || !rows[1].Damaged || !rows[1].HasValue {
		t.Fatalf("with the key: %+v, %v", rows, err)
	}
	rows, err = secrets.NewVault(store, &secrets.Options{Getenv: env(nil)}).Configured(ctx, "pdf", schema)
	if err != nil || len(rows) != 2 || rows[1].Damaged {
		t.Fatalf("without a key: %+v, %v", rows, err)
	}
	if _, err := keyed.ResolveEnv(ctx, "pdf", schema); !errors.Is(err, secrets.ErrCannotOpen) {
		t.Fatalf("a run would get: %v", err)
	}
}
