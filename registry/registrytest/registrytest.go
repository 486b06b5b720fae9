package registrytest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/registry"
)

// TestStore runs the conformance suite. newStore returns a new, empty store
// for each subtest.
func TestStore(t *testing.T, newStore func(t *testing.T) registry.Store) {
	t.Run("Empty", func(t *testing.T) {
		s := newStore(t)
		recs, err := s.List(t.Context())
		if err != nil || len(recs) != 0 {
			t.Fatalf("List of an empty store = %v, %v", recs, err)
		}
		if _, err := s.Get(t.Context(), "pdf"); !errors.Is(err, registry.ErrNotFound) {
			t.Errorf("Get of a missing record: %v, want ErrNotFound", err)
		}
		if err := s.Delete(t.Context(), "pdf"); !errors.Is(err, registry.ErrNotFound) {
			t.Errorf("Delete of a missing record: %v, want ErrNotFound", err)
		}
	})
	t.Run("RoundTrip", func(t *testing.T) {
		s := newStore(t)
		for _, rec := range []registry.Record{full("pdf"), {Name: "bare"}, disabled("off")} {
			if err := s.Put(t.Context(), rec); err != nil {
				t.Fatalf("Put %s: %v", rec.Name, err)
			}
			got, err := s.Get(t.Context(), rec.Name)
			if err != nil {
				t.Fatalf("Get %s: %v", rec.Name, err)
			}
			if d := diff(got, rec); d != "" {
				t.Errorf("Get %s: %s", rec.Name, d)
			}
		}
	})
	t.Run("PutReplaces", func(t *testing.T) {
		s := newStore(t)
		first := full("pdf")
		if err := s.Put(t.Context(), first); err != nil {
			t.Fatal(err)
		}
		second := registry.Record{Name: "pdf", Version: "2.0.0", Source: registry.SourceZip, Enabled: true}
		if err := s.Put(t.Context(), second); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(t.Context(), "pdf")
		if err != nil {
			t.Fatal(err)
		}
		if d := diff(got, second); d != "" {
			t.Errorf("after the second Put: %s", d)
		}
	})
	t.Run("ListSorted", func(t *testing.T) {
		s := newStore(t)
		names := []string{"zeta", "alpha", "mid-2", "mid-10"}
		for _, n := range names {
			if err := s.Put(t.Context(), full(n)); err != nil {
				t.Fatal(err)
			}
		}
		recs, err := s.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs {
			got = append(got, r.Name)
			if d := diff(r, full(r.Name)); d != "" {
				t.Errorf("List %s: %s", r.Name, d)
			}
		}
		want := slices.Sorted(slices.Values(names))
		if !slices.Equal(got, want) {
			t.Errorf("List order %v, want %v", got, want)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		s := newStore(t)
		for _, n := range []string{"a", "b"} {
			if err := s.Put(t.Context(), full(n)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Delete(t.Context(), "a"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(t.Context(), "a"); !errors.Is(err, registry.ErrNotFound) {
			t.Errorf("Get after Delete: %v", err)
		}
		if err := s.Delete(t.Context(), "a"); !errors.Is(err, registry.ErrNotFound) {
			t.Errorf("second Delete: %v", err)
		}
		if recs, _ := s.List(t.Context()); len(recs) != 1 || recs[0].Name != "b" {
			t.Errorf("List after Delete = %v", recs)
		}
		// A deleted name can be put again.
		if err := s.Put(t.Context(), full("a")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(t.Context(), "a"); err != nil {
			t.Errorf("Get after Put again: %v", err)
		}
	})
	t.Run("NamesTheLoaderAccepts", func(t *testing.T) {
		// Hand-placed skills may break the specification's naming rule;
		// every name skill.ValidateKey accepts is a record's name.
		s := newStore(t)
		for _, name := range []string{"My_Tool", "pdf tools", "技能", "x.y"} {
			if err := s.Put(t.Context(), registry.Record{Name: name, Enabled: false}); err != nil {
				t.Fatalf("Put %q: %v", name, err)
			}
			if rec, err := s.Get(t.Context(), name); err != nil || rec.Name != name {
				t.Fatalf("Get %q: %+v, %v", name, rec, err)
			}
		}
	})
	t.Run("InvalidRecords", func(t *testing.T) {
		s := newStore(t)
		for _, rec := range []registry.Record{
			{Name: ""}, {Name: ".hidden"}, {Name: "../escape"}, {Name: "a/b"}, {Name: "CON"}, {Name: "a\u202eb"},
			{Name: " padded"}, {Name: "ok", Source: "ftp"},
		} {
			if err := s.Put(t.Context(), rec); !errors.Is(err, registry.ErrInvalidRecord) {
				t.Errorf("Put %+v: %v, want ErrInvalidRecord", rec, err)
			}
		}
		if recs, _ := s.List(t.Context()); len(recs) != 0 {
			t.Errorf("invalid records stored: %v", recs)
		}
		for _, name := range []string{"../escape", "", "a/b"} {
			if _, err := s.Get(t.Context(), name); !errors.Is(err, registry.ErrNotFound) {
				t.Errorf("Get %q: %v, want ErrNotFound", name, err)
			}
		}
	})
	t.Run("CanceledContext", func(t *testing.T) {
		s := newStore(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := s.Put(ctx, full("pdf")); err == nil {
			t.Error("Put with a canceled context succeeded")
		}
		if _, err := s.List(ctx); err == nil {
			t.Error("List with a canceled context succeeded")
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		s := newStore(t)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				name := fmt.Sprintf("skill-%d", i)
				for range 3 {
					if err := s.Put(t.Context(), full(name)); err != nil {
						t.Error(err)
						return
					}
					if _, err := s.List(t.Context()); err != nil {
						t.Error(err)
						return
					}
				}
				if err := s.Delete(t.Context(), name); err != nil && i%2 == 0 {
					t.Error(err)
				}
				if i%2 != 0 {
					s.Put(t.Context(), full(name))
				}
			})
		}
		wg.Wait()
		recs, err := s.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 4 {
			t.Errorf("after concurrent Puts and Deletes: %d records, want 4: %v", len(recs), recs)
		}
	})
}

func full(name string) registry.Record {
	at := time.Date(2026, 4, 13, 10, 0, 0, 0, time.UTC)
	return registry.Record{
		Name: name, Version: "1.0.0", Source: registry.SourceGitHub,
		URL: "https://github.com/example/skills", Ref: "main", Commit: "abc123", Subdir: "skills/" + name, Tree: "def456",
		Fingerprint: "sha256:00ff", InstalledAt: at, UpdatedAt: at.Add(time.Hour),
		Enabled: true, Pinned: true,
	}
}

func disabled(name string) registry.Record {
	rec := full(name)
	rec.Enabled, rec.Pinned, rec.Source = false, false, registry.SourceAgent
	return rec
}

// diff compares records, times by instant.
func diff(got, want registry.Record) string {
	if !got.InstalledAt.Equal(want.InstalledAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		return fmt.Sprintf("times %v/%v, want %v/%v", got.InstalledAt, got.UpdatedAt, want.InstalledAt, want.UpdatedAt)
	}
	got.InstalledAt, got.UpdatedAt = want.InstalledAt, want.UpdatedAt
	if got != want {
		return fmt.Sprintf("got %+v\nwant %+v", got, want)
	}
	return ""
}
