package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// approvedSkill writes a skill folder, records its fingerprint and returns
// the folder and a Verifier over the record.
func approvedSkill(t *testing.T, manifests string) (string, *Verifier) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	for rel, data := range map[string]string{"SKILL.md": "---\nname: demo\ndescription: d\n---\n", "scripts/run.sh": "echo hi\n", "README.md": "r"} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// .venv and the like never count.
	os.MkdirAll(filepath.Join(dir, ".venv"), 0o755)
	fp, err := Fingerprint(t.Context(), os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	store := &MemStore{}
	if err := store.Put(t.Context(), Record{Name: "demo", Source: SourceLocal, Fingerprint: fp}); err != nil {
		t.Fatal(err)
	}
	return dir, &Verifier{Store: store, ManifestDir: manifests}
}

func modified(t *testing.T, err error) []string {
	t.Helper()
	var me *ModifiedError
	if !errors.As(err, &me) || !errors.Is(err, ErrModified) {
		t.Fatalf("want a ModifiedError, got %v", err)
	}
	if !strings.Contains(err.Error(), "SKILL_MODIFIED") {
		t.Errorf("the message lacks the code: %v", err)
	}
	var out []string
	for _, f := range me.Files {
		out = append(out, f.String())
	}
	return out
}

func TestVerifierRefusesChangedFiles(t *testing.T) {
	ctx := t.Context()
	dir, v := approvedSkill(t, t.TempDir())
	if err := v.Verify(ctx, "demo", dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".venv", "x"), []byte("dependency"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := v.Verify(ctx, "demo", dir); err != nil {
		t.Fatalf("a dependency folder is not the skill's code: %v", err)
	}
	// Same size, new content: the stat cache must not hide it.
	os.WriteFile(filepath.Join(dir, "scripts", "run.sh"), []byte("echo HI\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "scripts", "evil.sh"), []byte("curl x\n"), 0o755)
	os.Remove(filepath.Join(dir, "README.md"))
	want := []string{"README.md removed", "scripts/evil.sh added", "scripts/run.sh changed"}
	if got := modified(t, v.Verify(ctx, "demo", dir)); !slices.Equal(got, want) {
		t.Errorf("warm check: %q", got)
	}
	// A new process (a new Verifier) names the files from the manifest.
	cold := &Verifier{Store: v.Store, ManifestDir: v.ManifestDir}
	if got := modified(t, cold.Verify(ctx, "demo", dir)); !slices.Equal(got, want) {
		t.Errorf("cold check: %q", got)
	}
	// Without a manifest, still refused, with both fingerprints.
	bare := &Verifier{Store: v.Store}
	if got := modified(t, bare.Verify(ctx, "demo", dir)); len(got) != 0 {
		t.Errorf("no manifest: %q", got)
	}
	changes, known, _, err := cold.Changes(ctx, "demo", dir)
	if err != nil || !known || len(changes) != 3 {
		t.Errorf("changes: %v %v %v", changes, known, err)
	}
}

// The stat cache: a check reads again only the files whose stat changed,
// and always those modified within the racy window.
func TestVerifierStatCache(t *testing.T) {
	ctx := t.Context()
	dir, v := approvedSkill(t, "")
	old := time.Now().Add(-time.Hour)
	for _, rel := range []string{"SKILL.md", "README.md", "scripts/run.sh"} {
		os.Chtimes(filepath.Join(dir, filepath.FromSlash(rel)), old, old)
	}
	if err := v.Verify(ctx, "demo", dir); err != nil {
		t.Fatal(err)
	}
	if err := v.Verify(ctx, "demo", dir); err != nil || v.rehashed.Load() != 0 {
		t.Fatalf("an unchanged skill: %v, %d files read again", err, v.rehashed.Load())
	}
	// A change that keeps size and modification time is still seen
	// (change time and inode), and only that file is read.
	run := filepath.Join(dir, "scripts", "run.sh")
	tmp := run + ".new"
	os.WriteFile(tmp, []byte("echo HO\n"), 0o644)
	os.Chtimes(tmp, old, old)
	os.Rename(tmp, run)
	if got := modified(t, v.Verify(ctx, "demo", dir)); !slices.Equal(got, []string{"scripts/run.sh changed"}) || v.rehashed.Load() != 1 {
		t.Errorf("%q, %d files read again", got, v.rehashed.Load())
	}
	// A file modified just now is read at every check.
	v.now = func() time.Time { return old.Add(time.Second) }
	v.Forget("demo")
	os.WriteFile(run, []byte("echo hi\n"), 0o644)
	os.Chtimes(run, old, old)
	if err := v.Verify(ctx, "demo", dir); err != nil {
		t.Fatal(err)
	}
	before := v.rehashed.Load()
	if err := v.Verify(ctx, "demo", dir); err != nil || v.rehashed.Load()-before != 3 {
		t.Errorf("racy files: %v, %d read again", err, v.rehashed.Load()-before)
	}
}

func TestVerifierPassesUnrecordedSkills(t *testing.T) {
	dir, v := approvedSkill(t, "")
	if err := v.Verify(t.Context(), "other", dir); err != nil {
		t.Errorf("a skill without a record: %v", err)
	}
	v.Store.Put(t.Context(), Record{Name: "legacy", Fingerprint: "abc123"})
	if err := v.Verify(t.Context(), "legacy", dir); err != nil {
		t.Errorf("a fingerprint of another scheme: %v", err)
	}
}

// Whatever the list of approved files on disk holds (anyone who can write
// .skillhub/ can write it), a modified skill is refused, and nothing
// panics.
func FuzzApprovedFilesList(f *testing.F) {
	f.Add([]byte(`{"version":1,"fingerprint":"sha256:00","files":{"SKILL.md":"00"}}`))
	f.Add([]byte(`{"version":1,"files":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		manifests := t.TempDir()
		dir, v := approvedSkill(t, manifests)
		rec, _ := v.Store.Get(t.Context(), "demo")
		// The list may even claim the recorded fingerprint.
		data = []byte(strings.ReplaceAll(string(data), "sha256:00", rec.Fingerprint))
		if err := os.WriteFile(filepath.Join(manifests, "demo.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "scripts", "run.sh"), []byte("curl evil\n"), 0o644)
		if err := v.Verify(t.Context(), "demo", dir); !errors.Is(err, ErrModified) {
			t.Fatalf("a modified skill passed: %v", err)
		}
	})
}

// BenchmarkVerify checks a skill of 200 files of 16 KiB (3.2 MB) before a
// run: cold (a new process: every file hashed) and warm (the stat cache:
// nothing hashed), and warm after one file changed (one hashed).
func BenchmarkVerify(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "big")
	old := time.Now().Add(-time.Hour)
	content := make([]byte, 16<<10)
	for i := range 200 {
		p := filepath.Join(dir, "data", fmt.Sprintf("f%03d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		content[0] = byte(i)
		os.WriteFile(p, content, 0o644)
		os.Chtimes(p, old, old)
	}
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: big\ndescription: d\n---\n"), 0o644)
	os.Chtimes(filepath.Join(dir, "SKILL.md"), old, old)
	fp, err := Fingerprint(b.Context(), os.DirFS(dir), ".")
	if err != nil {
		b.Fatal(err)
	}
	store := &MemStore{}
	store.Put(b.Context(), Record{Name: "big", Fingerprint: fp})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			v := &Verifier{Store: store}
			if err := v.Verify(b.Context(), "big", dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		v := &Verifier{Store: store}
		if err := v.Verify(b.Context(), "big", dir); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := v.Verify(b.Context(), "big", dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm-one-changed", func(b *testing.B) {
		v := &Verifier{Store: store}
		if err := v.Verify(b.Context(), "big", dir); err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(dir, "data", "f000.txt")
		for b.Loop() {
			os.Chtimes(p, old.Add(time.Second), old.Add(time.Second)) // a new ctime: the file is hashed again
			if err := v.Verify(b.Context(), "big", dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
