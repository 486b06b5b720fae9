package skillkit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/internal/testdb"
)

// corpusSkills returns the folders of the first n corpus skills, by path,
// that install into one skills folder under their own names (valid names,
// no two alike, not blocked by the default trust policy).
func corpusSkills(b *testing.B, n int) []string {
	b.Helper()
	root, dirs := testcorpus.SkillDirs(b)
	kit, err := skillkit.Open(b.Context(), skillkit.Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer kit.Close()
	var out []string
	for _, d := range dirs {
		if len(out) == n {
			return out
		}
		src := filepath.Join(root, filepath.FromSlash(d))
		if _, err := kit.Install(b.Context(), installer.Source{Dir: src}, &installer.InstallOptions{Confirmed: true}); err == nil {
			out = append(out, src)
		}
	}
	b.Fatalf("the corpus has %d skills that install together, not %d", len(out), n)
	return nil
}

// BenchmarkSync200 times Kit.Sync of 200 corpus skills onto an empty
// replica (fetching each package from the database, the archive checks,
// validation, fingerprint, scan, trust policy, swap) against installing
// the same 200 from their local folders into an empty skills folder (a
// Kit without a database), alternating the two (testcorpus.Compare:
// "sync-ms/op", "install-ms/op" and their ratio).
func BenchmarkSync200(b *testing.B) {
	skills := corpusSkills(b, 200)
	for _, db := range testdb.Backends() {
		b.Run(db.Name, func(b *testing.B) {
			dsn := db.DSN(b)
			base := b.TempDir()
			a := replica(b, db, dsn, filepath.Join(base, "a"), "a")
			for _, src := range skills {
				if _, err := a.Install(b.Context(), installer.Source{Dir: src}, &installer.InstallOptions{Confirmed: true}); err != nil {
					b.Fatal(err)
				}
			}
			var kit *skillkit.Kit
			iteration := 0
			fresh := func(shared bool) func() error {
				return func() error {
					iteration++
					dir := filepath.Join(base, fmt.Sprint("r", iteration))
					if shared {
						kit = replica(b, db, dsn, dir, fmt.Sprint("r", iteration))
						return nil
					}
					var err error
					kit, err = skillkit.Open(b.Context(), skillkit.Options{Dir: dir})
					return err
				}
			}
			done := func() error {
				kit.Close()
				return os.RemoveAll(kit.Dir())
			}
			testcorpus.Compare(b,
				testcorpus.Side{Name: "sync", Before: fresh(true), After: done, Run: func() error {
					rep, err := kit.Sync(b.Context(), nil)
					if err == nil {
						err = rep.Err()
					}
					if err == nil && len(rep.Placed) != len(skills) {
						err = fmt.Errorf("synced %d skills, want %d", len(rep.Placed), len(skills))
					}
					return err
				}},
				testcorpus.Side{Name: "install", Before: fresh(false), After: done, Run: func() error {
					for _, src := range skills {
						if _, err := kit.Install(b.Context(), installer.Source{Dir: src}, &installer.InstallOptions{Confirmed: true}); err != nil {
							return err
						}
					}
					return nil
				}})
		})
	}
}
