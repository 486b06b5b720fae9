package registrytest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/registry"
)

// NewStore returns a new, empty store for one case.
type NewStore func(t *testing.T) registry.Store

// TestStore runs every case of the conformance suite, each as a subtest
// named after its function without "Test".
func TestStore(t *testing.T, newStore NewStore) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, NewStore)
	}{
		{"Empty", TestEmpty},
		{"RoundTrip", TestRoundTrip},
		{"PutReplaces", TestPutReplaces},
		{"ListSorted", TestListSorted},
		{"Delete", TestDelete},
		{"NamesTheLoaderAccepts", TestNamesTheLoaderAccepts},
		{"InvalidRecords", TestInvalidRecords},
		{"CanceledContext", TestCanceledContext},
		{"Concurrent", TestConcurrent},
		{"CompareAndSwap", TestCompareAndSwap},
		{"CompareAndDelete", TestCompareAndDelete},
		{"CompareAndSwapConcurrent", TestCompareAndSwapConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore) })
	}
}

// TestEmpty: a new store lists nothing; Get and Delete wrap ErrNotFound.
func TestEmpty(t *testing.T, newStore NewStore) {
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
}

// TestRoundTrip: Get returns every field Put stored.
func TestRoundTrip(t *testing.T, newStore NewStore) {
	s := newStore(t)
	for _, rec := range []registry.Record{full("pdf"), {Name: "bare"}, disabled("off")} {
		mustPut(t, s, rec)
		if d := diff(mustGet(t, s, rec.Name), rec); d != "" {
			t.Errorf("Get %s: %s", rec.Name, d)
		}
	}
}

// TestPutReplaces: a second Put replaces the whole record.
func TestPutReplaces(t *testing.T, newStore NewStore) {
	s := newStore(t)
	mustPut(t, s, full("pdf"))
	second := registry.Record{Name: "pdf", Version: "2.0.0", Source: registry.SourceZip, Enabled: true}
	mustPut(t, s, second)
	if d := diff(mustGet(t, s, "pdf"), second); d != "" {
		t.Errorf("after the second Put: %s", d)
	}
}

// TestListSorted: List returns every record, sorted by name.
func TestListSorted(t *testing.T, newStore NewStore) {
	s := newStore(t)
	names := []string{"zeta", "alpha", "mid-2", "mid-10", "Zeta", "Émile"}
	for _, n := range names {
		mustPut(t, s, full(n))
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
		t.Errorf("List order %v, want %v (byte order)", got, want)
	}
}

// TestDelete: Delete removes one record, a second Delete wraps
// ErrNotFound, and the name can be put again.
func TestDelete(t *testing.T, newStore NewStore) {
	s := newStore(t)
	for _, n := range []string{"a", "b"} {
		mustPut(t, s, full(n))
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
	mustPut(t, s, full("a"))
	if _, err := s.Get(t.Context(), "a"); err != nil {
		t.Errorf("Get after Put again: %v", err)
	}
}

// TestNamesTheLoaderAccepts: every name skill.ValidateKey accepts is a
// record's name, also those the specification's naming rule refuses
// (hand-placed skills).
func TestNamesTheLoaderAccepts(t *testing.T, newStore NewStore) {
	s := newStore(t)
	for _, name := range []string{"My_Tool", "pdf tools", "技能", "x.y"} {
		mustPut(t, s, registry.Record{Name: name, Enabled: false})
		if rec, err := s.Get(t.Context(), name); err != nil || rec.Name != name {
			t.Fatalf("Get %q: %+v, %v", name, rec, err)
		}
	}
}

// TestInvalidRecords: Put refuses bad names, sources and install ids with
// ErrInvalidRecord and stores nothing; Get of a bad name wraps ErrNotFound.
func TestInvalidRecords(t *testing.T, newStore NewStore) {
	s := newStore(t)
	for _, rec := range invalidRecords() {
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
}

func invalidRecords() []registry.Record {
	return []registry.Record{
		{Name: ""}, {Name: ".hidden"}, {Name: "../escape"}, {Name: "a/b"}, {Name: "CON"}, {Name: "a\u202eb"},
		{Name: " padded"}, {Name: "ok", Source: "ftp"}, {Name: "ok", InstallID: "a b"}, {Name: "ok", InstallID: "../x"},
	}
}

// TestCanceledContext: writes and lists with a canceled context fail.
func TestCanceledContext(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Put(ctx, full("pdf")); err == nil {
		t.Error("Put with a canceled context succeeded")
	}
	if _, err := s.List(ctx); err == nil {
		t.Error("List with a canceled context succeeded")
	}
	if cas, ok := s.(registry.CompareAndSwapper); ok {
		if err := cas.CompareAndSwap(ctx, nil, full("pdf")); err == nil {
			t.Error("CompareAndSwap with a canceled context succeeded")
		}
	}
	if recs, err := s.List(t.Context()); err != nil || len(recs) != 0 {
		t.Errorf("a canceled write stored %v (%v)", recs, err)
	}
}

// TestConcurrent: concurrent Puts, Lists and Deletes of different names
// lose nothing.
func TestConcurrent(t *testing.T, newStore NewStore) {
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
				if err := s.Put(t.Context(), full(name)); err != nil {
					t.Error(err)
				}
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
}

// swapper returns the store's compare-and-swap capability, or skips.
func swapper(t *testing.T, s registry.Store) registry.CompareAndSwapper {
	t.Helper()
	cas, ok := s.(registry.CompareAndSwapper)
	if !ok {
		t.Skipf("%T does not implement registry.CompareAndSwapper", s)
	}
	return cas
}

// TestCompareAndSwap: a conditional Put succeeds only over the record the
// caller read (compared as registry.Record.Equal does), or over none when
// old is nil; otherwise it wraps ErrConflict and stores nothing.
func TestCompareAndSwap(t *testing.T, newStore NewStore) {
	s := newStore(t)
	cas := swapper(t, s)
	ctx := t.Context()
	first := full("pdf")
	if err := cas.CompareAndSwap(ctx, nil, first); err != nil {
		t.Fatalf("creating with old nil: %v", err)
	}
	if err := cas.CompareAndSwap(ctx, nil, disabled("pdf")); !errors.Is(err, registry.ErrConflict) {
		t.Fatalf("creating over an existing record: %v, want ErrConflict", err)
	}
	read := mustGet(t, s, "pdf")
	second := read
	second.Version, second.Enabled = "2.0.0", false
	if err := cas.CompareAndSwap(ctx, &read, second); err != nil {
		t.Fatalf("swapping the record just read: %v", err)
	}
	if d := diff(mustGet(t, s, "pdf"), second); d != "" {
		t.Fatalf("after the swap: %s", d)
	}
	// The record read first is stale now.
	stale := read
	stale.Pinned = false
	if err := cas.CompareAndSwap(ctx, &read, stale); !errors.Is(err, registry.ErrConflict) {
		t.Fatalf("swapping a stale record: %v, want ErrConflict", err)
	}
	if d := diff(mustGet(t, s, "pdf"), second); d != "" {
		t.Fatalf("a conflicting swap changed the record: %s", d)
	}
	// Times compare as instants, whatever their location.
	elsewhere := second
	elsewhere.InstalledAt = second.InstalledAt.In(time.FixedZone("X", 5*3600))
	third := second
	third.Version = "3.0.0"
	if err := cas.CompareAndSwap(ctx, &elsewhere, third); err != nil {
		t.Fatalf("swapping with the same times in another zone: %v", err)
	}
	// An old record for a missing name conflicts.
	ghost := full("ghost")
	if err := cas.CompareAndSwap(ctx, &ghost, ghost); !errors.Is(err, registry.ErrConflict) {
		t.Fatalf("swapping a record that is not there: %v, want ErrConflict", err)
	}
	if _, err := s.Get(ctx, "ghost"); !errors.Is(err, registry.ErrNotFound) {
		t.Fatalf("a conflicting swap created a record: %v", err)
	}
	for _, rec := range invalidRecords() {
		if err := cas.CompareAndSwap(ctx, nil, rec); !errors.Is(err, registry.ErrInvalidRecord) {
			t.Errorf("CompareAndSwap %+v: %v, want ErrInvalidRecord", rec, err)
		}
	}
	other := full("other")
	if err := cas.CompareAndSwap(ctx, &other, third); !errors.Is(err, registry.ErrInvalidRecord) {
		t.Errorf("old and new of different names: %v, want ErrInvalidRecord", err)
	}
}

// TestCompareAndDelete: a conditional Delete removes only the record the
// caller read.
func TestCompareAndDelete(t *testing.T, newStore NewStore) {
	s := newStore(t)
	cas := swapper(t, s)
	ctx := t.Context()
	if err := cas.CompareAndDelete(ctx, full("pdf")); !errors.Is(err, registry.ErrNotFound) {
		t.Fatalf("deleting a missing record: %v, want ErrNotFound", err)
	}
	mustPut(t, s, full("pdf"))
	read := mustGet(t, s, "pdf")
	changed := read
	changed.Enabled = false
	mustPut(t, s, changed)
	if err := cas.CompareAndDelete(ctx, read); !errors.Is(err, registry.ErrConflict) {
		t.Fatalf("deleting a stale record: %v, want ErrConflict", err)
	}
	if d := diff(mustGet(t, s, "pdf"), changed); d != "" {
		t.Fatalf("a conflicting delete changed the record: %s", d)
	}
	if err := cas.CompareAndDelete(ctx, mustGet(t, s, "pdf")); err != nil {
		t.Fatalf("deleting the record just read: %v", err)
	}
	if _, err := s.Get(ctx, "pdf"); !errors.Is(err, registry.ErrNotFound) {
		t.Fatalf("Get after CompareAndDelete: %v", err)
	}
}

// TestCompareAndSwapConcurrent: writers that each read, change and write one
// record through registry.Update, at the same time, lose no change.
func TestCompareAndSwapConcurrent(t *testing.T, newStore NewStore) {
	s := newStore(t)
	swapper(t, s)
	ConcurrentUpdates(t, []registry.Store{s}, 8, 5)
}

// ConcurrentUpdates runs writers goroutines that each add one, each times,
// to a counter kept in the Version of one record, spread round robin over
// stores (which must share their records, as two clients of one database
// do), through [registry.Update]. It fails the test unless the counter ends
// at writers*each: a lost update shows as a smaller count.
func ConcurrentUpdates(t *testing.T, stores []registry.Store, writers, each int) {
	t.Helper()
	ctx := t.Context()
	const name = "counter"
	var wg sync.WaitGroup
	for w := range writers {
		s := stores[w%len(stores)]
		wg.Go(func() {
			for range each {
				_, err := registry.Update(ctx, s, name, func(rec *registry.Record, found bool) error {
					n := 0
					if found {
						var err error
						if n, err = strconv.Atoi(rec.Version); err != nil {
							return err
						}
					}
					rec.Version, rec.Enabled = strconv.Itoa(n+1), w%2 == 0
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := mustGet(t, stores[0], name).Version; got != strconv.Itoa(writers*each) {
		t.Errorf("counter = %s after %d updates: updates were lost", got, writers*each)
	}
}

func mustPut(t *testing.T, s registry.Store, rec registry.Record) {
	t.Helper()
	if err := s.Put(t.Context(), rec); err != nil {
		t.Fatalf("Put %s: %v", rec.Name, err)
	}
}

func mustGet(t *testing.T, s registry.Store, name string) registry.Record {
	t.Helper()
	rec, err := s.Get(t.Context(), name)
	if err != nil {
		t.Fatalf("Get %s: %v", name, err)
	}
	return rec
}

func full(name string) registry.Record {
	at := time.Date(2026, 4, 13, 10, 0, 0, 0, time.UTC)
	return registry.Record{
		Name: name, Version: "1.0.0", Source: registry.SourceGitHub,
		URL: "https://github.com/example/skills", Ref: "main", Commit: "abc123", Subdir: "skills/" + name, Tree: "def456",
		Fingerprint: "sha256:00ff", InstalledAt: at, UpdatedAt: at.Add(time.Hour),
		Enabled: true, Pinned: true, InstallID: "TESTINSTALLID234567ABCDEFG",
		Signer: &registry.Signer{State: "verified", Principals: []string{"alice@example.com", "release@example.com"}, Key: "SHA256:AAAA", Object: "commit abc123"},
	}
}

func disabled(name string) registry.Record {
	rec := full(name)
	rec.Enabled, rec.Pinned, rec.Source, rec.InstallID, rec.Signer = false, false, registry.SourceAgent, "", nil
	return rec
}

// diff compares records, times by instant.
func diff(got, want registry.Record) string {
	if got.Equal(want) {
		return ""
	}
	return fmt.Sprintf("got %+v\nwant %+v", got, want)
}
