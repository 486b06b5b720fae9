package skillkit_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/asuser"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/internal/testdb"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/tools"
)

// A flag change on a replica that has not synced an uninstall yet keeps
// the skill nowhere: it fails, writes no record, and the lagging replica's
// next sync removes the skill; a later fresh install inherits no flag.
func TestFleetFlagChangeOnALaggingReplica(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, db database) {
		ctx := t.Context()
		dsn := db.DSN(t)
		a := replica(t, db, dsn, filepath.Join(t.TempDir(), "a"), "replica-a")
		b := replica(t, db, dsn, filepath.Join(t.TempDir(), "b"), "replica-b")
		if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello")}, nil); err != nil {
			t.Fatal(err)
		}
		syncOK(t, b)
		if err := a.Uninstall(ctx, "greet", nil); err != nil {
			t.Fatal(err)
		}
		for _, change := range []func() error{
			func() error { return b.SetEnabled(ctx, "greet", true) },
			func() error { return b.SetEnabled(ctx, "greet", false) },
			func() error { return b.Pin(ctx, "greet") },
			func() error { return b.Unpin(ctx, "greet") },
		} {
			if err := change(); !errors.Is(err, installer.ErrNotInstalled) {
				t.Fatalf("a flag change on the lagging replica: %v", err)
			}
		}
		if _, err := a.Registry().Get(ctx, "greet"); !errors.Is(err, registry.ErrNotFound) {
			t.Fatalf("the shared registry has greet again: %v", err)
		}
		if got := syncActions(syncOK(t, b)); !slices.Equal(got, []string{"greet removed"}) {
			t.Fatalf("B's sync: %v", got)
		}
		if _, err := os.Stat(filepath.Join(b.Dir(), "greet")); !errors.Is(err, os.ErrNotExist) || inPrompt(t, b, "greet") {
			t.Fatalf("B keeps greet: %v", err)
		}
		res, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "again")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Record.Enabled || res.Record.Pinned {
			t.Fatalf("the fresh install inherited flags: %+v", res.Record)
		}
	})
}

// readOnlyEnv names, in the helper process, the read-only skills folder
// it reads.
const readOnlyEnv = "SKILLKIT_TEST_READONLY_DIR"

// TestReadOnlyHelper reads a skills folder it may not write, as a Kit of
// a read-only deployment does: Toolset, Skill and Doctor.
func TestReadOnlyHelper(t *testing.T) {
	dir := os.Getenv(readOnlyEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	if f, err := os.Create(filepath.Join(dir, ".skillhub", "probe")); err == nil {
		f.Close()
		t.Fatal("the folder is writable: the test proves nothing")
	}
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(t.Context(), tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ts.Prompt, `name="greet"`) {
		t.Fatalf("the prompt lacks greet:\n%s", ts.Prompt)
	}
	if _, ok, err := kit.Skill(t.Context(), "greet"); !ok || err != nil {
		t.Fatalf("Skill: %v %v", ok, err)
	}
	diags, err := kit.Doctor(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if errs := diags.AtLeast(diagnostics.Warning); len(errs) > 0 {
		t.Fatalf("Doctor on the read-only copy: %v", errs)
	}
}

// A read-only copy of a folder that had installs, updates and an
// uninstall reads as the original: Toolset, Skill and Doctor write
// nothing, not even a lock.
func TestReadOnlyFolder(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "skills")
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"greet", "gone"} {
		if _, err := kit.Install(ctx, installer.Source{Dir: greetSkill(t, name, "hello")}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := kit.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "howdy")}, &installer.InstallOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if err := kit.Uninstall(ctx, "gone", nil); err != nil {
		t.Fatal(err)
	}
	kit.Close()
	ro := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(ro, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	fixture.ReadOnly(t, ro)
	cmd := asuser.Command(t, "-test.run=^TestReadOnlyHelper$", "-test.v")
	cmd.Env = []string{readOnlyEnv + "=" + ro, "PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()}
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestReadOnlyHelper") {
		t.Fatalf("reading the read-only copy: %v\n%s", err, out)
	}
}

// A replica whose database user may only read still serves: Toolset,
// Skill and Doctor work on a folder a sync filled.
func TestFleetReadOnlyDatabaseUser(t *testing.T) {
	db := testdb.Backends()[0]
	ctx := t.Context()
	dsn := db.DSN(t)
	a := replica(t, db, dsn, filepath.Join(t.TempDir(), "a"), "replica-a")
	bdir := filepath.Join(t.TempDir(), "b")
	b := replica(t, db, dsn, bdir, "replica-b")
	if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello")}, nil); err != nil {
		t.Fatal(err)
	}
	syncOK(t, b)
	b.Close()
	reader := replica(t, db, testdb.ReadOnlyUser(t, dsn), bdir, "replica-b")
	if !inPrompt(t, reader, "greet") {
		t.Fatal("the read-only replica does not list greet")
	}
	if _, ok, err := reader.Skill(ctx, "greet"); !ok || err != nil {
		t.Fatalf("Skill: %v %v", ok, err)
	}
	diags, err := reader.Doctor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if errs := diags.AtLeast(diagnostics.Error); len(errs) > 0 {
		t.Fatalf("Doctor: %v", errs)
	}
}

// chaosRoundsEnv overrides how many kill rounds
// TestFleetConvergesAfterRandomKills runs on each database, chaosSeedEnv
// the seed that draws them.
const (
	chaosRoundsEnv = "SKILLKIT_CHAOS_ROUNDS"
	chaosSeedEnv   = "SKILLKIT_CHAOS_SEED"
)

// TestFleetConvergesAfterRandomKills kills a syncing replica, a real child
// process, at random moments while another replica updates, uninstalls
// and reinstalls skills (before B starts, while it syncs, and once more
// after it died): at a random fault point of the sync (any swap or
// removal step, several skills at once) or, one round in four, with
// SIGKILL after a random delay; 70 rounds, at least 50 of them kills, on
// each database. After each round one more sync, without
// Force, must leave every replica with exactly what the registry records:
// the recorded version of every enabled skill, nothing uninstalled, notes
// that name the files, nothing left in staging. Seeded, so a failure
// replays (the seed and round are in the log).
func TestFleetConvergesAfterRandomKills(t *testing.T) {
	rounds, seed := 70, uint64(30)
	if v, err := strconv.Atoi(os.Getenv(chaosRoundsEnv)); err == nil && v > 0 {
		rounds = v
	}
	if v, err := strconv.ParseUint(os.Getenv(chaosSeedEnv), 10, 64); err == nil {
		seed = v
	}
	forEachDatabase(t, func(t *testing.T, db database) {
		ctx := t.Context()
		rng := rand.New(rand.NewPCG(seed, 0))
		dsn := db.DSN(t)
		adir, bdir := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
		a := replica(t, db, dsn, adir, "a")
		names := []string{"s0", "s1", "s2", "s3", "s4", "s5"}
		installed := map[string]bool{}
		version := 0
		for _, name := range names[:4] {
			version++
			if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, name, fmt.Sprint("v", version))}, nil); err != nil {
				t.Fatal(err)
			}
			installed[name] = true
		}
		b := replica(t, db, dsn, bdir, "b")
		syncOK(t, b)
		// The promise: at least 50 kills a database at the default length;
		// a fast machine whose syncs end before the SIGKILL needs a few
		// more rounds to get there.
		want := rounds / 2
		if rounds >= 70 {
			want = 50
		}
		kills := 0
		for round := 0; round < rounds || kills < want && round < 2*rounds; round++ {
			// What A does while B syncs, drawn now: the draws stay in order.
			type op struct {
				name    string
				remove  bool
				version int
			}
			var ops []op
			for range 2 + rng.IntN(3) {
				name := names[rng.IntN(len(names))]
				if installed[name] && rng.IntN(3) == 0 {
					ops = append(ops, op{name: name, remove: true})
					installed[name] = false
					continue
				}
				version++
				ops = append(ops, op{name: name, version: version})
				installed[name] = true
			}
			t.Logf("round %d: %+v", round, ops)
			sigkill := round%4 == 3
			spec := fmt.Sprintf("*@%d", rng.IntN(6))
			if sigkill {
				spec = "never@0"
			}
			delay := time.Duration(rng.IntN(200)) * time.Millisecond
			cmd := exec.Command(os.Args[0], "-test.run=^TestFleetCrashHelper$")
			cmd.Env = append(os.Environ(), fleetCrashEnv+"="+spec, "SKILLKIT_FLEET_MAY_FINISH=1", "SKILLKIT_FLEET_DB="+db.Name,
				"SKILLKIT_FLEET_DSN="+dsn, "SKILLKIT_FLEET_DIR="+bdir, fmt.Sprint("SKILLKIT_FLEET_CONCURRENCY=", 1+rng.IntN(4)))
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			apply := func(o op) error {
				var err error
				if o.remove {
					err = a.Uninstall(ctx, o.name, nil)
				} else {
					_, err = a.Install(ctx, installer.Source{Dir: greetSkill(t, o.name, fmt.Sprint("v", o.version))}, &installer.InstallOptions{Force: true})
				}
				if err != nil {
					return fmt.Errorf("%s on A: %w", o.name, err)
				}
				return nil
			}
			// The first change is there when B starts: each sync has work.
			if err := apply(ops[0]); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			changed := make(chan error, 1)
			go func() {
				for _, o := range ops[1 : len(ops)-1] {
					if err := apply(o); err != nil {
						changed <- err
						return
					}
				}
				changed <- nil
			}()
			if sigkill {
				time.Sleep(delay)
				cmd.Process.Kill()
			}
			err := cmd.Wait()
			if cerr := <-changed; cerr != nil {
				t.Fatal(cerr)
			}
			// The fleet moves on while B is down.
			if err := apply(ops[len(ops)-1]); err != nil {
				t.Fatal(err)
			}
			var ee *exec.ExitError
			switch {
			case err == nil: // the sync ended before its kill
			case errors.As(err, &ee) && (ee.ExitCode() == 7 || !ee.Exited()):
				kills++
			default:
				t.Fatalf("round %d (seed %d): the syncing replica: %v\n%s", round, seed, err, out.String())
			}
			rep, err := b.Sync(ctx, nil)
			if err == nil {
				err = rep.Err()
			}
			if err != nil {
				t.Fatalf("round %d (seed %d, kill %s): one more sync: %v\n%s", round, seed, spec, err, out.String())
			}
			for _, r := range []struct {
				dir    string
				placed map[string]string
			}{{adir, nil}, {bdir, rep.Placed}} {
				if err := converged(ctx, a, r.dir, r.placed); err != nil {
					t.Fatalf("round %d (seed %d, kill %s): after one more sync: %v", round, seed, spec, err)
				}
			}
		}
		t.Logf("%d kills (seed %d)", kills, seed)
		if kills < want {
			t.Fatalf("only %d of %d rounds killed the sync (want %d): the test proves little", kills, rounds, want)
		}
	})
}

// converged reports how the skills folder dir differs from what the
// registry records: every enabled recorded skill at its recorded version
// (with a placed note naming it, when placed is given: the sync's report),
// no other skill folder, nothing left in staging or the trash.
func converged(ctx context.Context, kit *skillkit.Kit, dir string, placed map[string]string) error {
	recs, err := kit.Registry().List(ctx)
	if err != nil {
		return err
	}
	want, ids := map[string]string{}, map[string]string{}
	for _, r := range recs {
		if r.Enabled && strings.HasPrefix(r.Fingerprint, registry.FingerprintPrefix) {
			want[r.Name], ids[r.Name] = r.Fingerprint, r.InstallID
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok && !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("%s holds %s, which the registry does not record", dir, e.Name())
		}
	}
	for name, fp := range want {
		got, err := registry.Fingerprint(ctx, os.DirFS(filepath.Join(dir, name)), ".")
		if err != nil || got != fp {
			return fmt.Errorf("%s holds %s at %s (%v), the registry records %s", dir, name, got, err, fp)
		}
		note, err := os.ReadFile(filepath.Join(dir, ".skillhub", "placed", name))
		if wantNote := fp + " " + ids[name]; err != nil || strings.TrimSpace(string(note)) != wantNote {
			return fmt.Errorf("%s: the placed note of %s says %q (%v), want %q", dir, name, note, err, wantNote)
		}
	}
	if placed != nil && !maps.Equal(placed, want) {
		return fmt.Errorf("%s: the sync reports it holds %v, the registry records %v", dir, placed, want)
	}
	for _, d := range []string{".skillhub/staging", ".skillhub/trash"} {
		left, _ := os.ReadDir(filepath.Join(dir, d))
		for _, e := range left {
			if e.Name() != ".lock" {
				return fmt.Errorf("%s: left over in %s: %s", dir, d, e.Name())
			}
		}
	}
	return nil
}

// An install on a replica killed between its rename and its record (or
// its note) leaves, once recovered, a folder whose note and record name
// its files: Doctor reports no FINGERPRINT_CHANGED and an update goes on.
func TestFleetInstallKilledMidSwap(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, db database) {
		for _, point := range []string{"noted", "new-moved"} {
			t.Run(point, func(t *testing.T) {
				ctx := t.Context()
				dsn := db.DSN(t)
				dir := filepath.Join(t.TempDir(), "a")
				a := replica(t, db, dsn, dir, "a")
				if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "v1")}, nil); err != nil {
					t.Fatal(err)
				}
				skillkit.SetFault(a, func(p string) error {
					if p == point {
						return skillsdir.ErrSimulatedCrash
					}
					return nil
				})
				if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "v2")}, &installer.InstallOptions{Force: true}); !errors.Is(err, skillsdir.ErrSimulatedCrash) {
					t.Fatalf("the install did not die: %v", err)
				}
				a.Close()
				a = replica(t, db, dsn, dir, "a")
				diags, err := a.Doctor(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if diags.Has(diagnostics.FingerprintChanged) {
					t.Fatalf("Doctor after the recovered install: %v", diags.WithCode(diagnostics.FingerprintChanged))
				}
				if _, err := a.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "v3")}, &installer.InstallOptions{Force: true}); err != nil {
					t.Fatalf("updating after the recovered install: %v", err)
				}
			})
		}
	})
}
