// Package usagetest checks that a usage.Store keeps what the interface
// promises; every implementation's tests run it.
package usagetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/usage"
)

// Run checks the store newStore returns (a new, empty one per call):
// every use counted once, failures apart, the last time kept, stats sorted,
// concurrent records all counted.
func Run(t *testing.T, newStore func(t *testing.T) usage.Store) {
	ctx := context.Background()
	t.Run("counts", func(t *testing.T) {
		s := newStore(t)
		if stats, err := s.Stats(ctx); err != nil || len(stats) != 0 {
			t.Fatalf("a new store: %v, %v", stats, err)
		}
		// Microseconds: what PostgreSQL keeps.
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 123456000, time.UTC)
		for _, u := range []usage.Use{
			{Skill: "pdf", Agent: "a", Tool: "execute_skill", Time: t0, Outcome: usage.OK},
			{Skill: "pdf", Agent: "a", Tool: "execute_skill", Time: t0.Add(time.Hour), Outcome: usage.Failed},
			{Skill: "pdf", Agent: "a", Tool: "execute_skill", Time: t0.Add(-time.Hour), Outcome: usage.OK},
			{Skill: "pdf", Tool: "read_skill", Time: t0, Outcome: usage.OK},
			{Skill: "csv", Agent: "b", Tool: "read_skill_file", Time: t0, Outcome: usage.OK},
		} {
			if err := s.Record(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		stats, err := s.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []usage.Stat{
			{Skill: "csv", Agent: "b", Tool: "read_skill_file", Uses: 1, Last: t0},
			{Skill: "pdf", Tool: "read_skill", Uses: 1, Last: t0},
			{Skill: "pdf", Agent: "a", Tool: "execute_skill", Uses: 3, Failures: 1, Last: t0.Add(time.Hour)},
		}
		if len(stats) != len(want) {
			t.Fatalf("stats %+v, want %+v", stats, want)
		}
		for i := range want {
			got := stats[i]
			if got.Skill != want[i].Skill || got.Agent != want[i].Agent || got.Tool != want[i].Tool || got.Uses != want[i].Uses ||
				got.Failures != want[i].Failures || !got.Last.Equal(want[i].Last) {
				t.Errorf("stat %d: %+v, want %+v", i, got, want[i])
			}
		}
		sum := usage.Summarize(stats)
		if len(sum) != 2 || sum[1].Skill != "pdf" || sum[1].Uses != 4 || sum[1].ByTool["execute_skill"] != 3 || len(sum[1].Agents) != 1 {
			t.Errorf("summary %+v", sum)
		}
	})
	t.Run("concurrent", func(t *testing.T) {
		s := newStore(t)
		const n = 8
		var wg sync.WaitGroup
		errs := make(chan error, n*3)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range 3 {
					errs <- s.Record(ctx, usage.Use{Skill: fmt.Sprintf("s%d", j), Tool: "read_skill", Time: time.Now(), Outcome: usage.OK})
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		stats, err := s.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(stats) != 3 {
			t.Fatalf("stats %+v", stats)
		}
		for _, st := range stats {
			if st.Uses != n {
				t.Errorf("%s: %d uses, want %d", st.Skill, st.Uses, n)
			}
		}
	})
}
