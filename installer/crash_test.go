package installer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

// installPoints are the fault points of an install, in order; commitAt is
// the first point reached after the record was written (the commit point).
var installPoints = []string{"fetch", "check", "validate", "fingerprint", "scan", "journal", "old-moved", "new-moved", "recorded"}

// TestInstallFaults fails every step of an install in turn, as an error the
// process handles and as a crash the next New settles, over a fresh install
// and over an installed version. Afterwards the skill is the old version or
// the new one, complete, with its record, and nothing is left over.
func TestInstallFaults(t *testing.T) {
	for _, replace := range []bool{false, true} {
		for _, crash := range []bool{false, true} {
			for _, point := range installPoints {
				if point == "old-moved" && !replace {
					continue
				}
				t.Run(fmt.Sprintf("replace=%v/crash=%v/%s", replace, crash, point), func(t *testing.T) {
					testInstallFault(t, replace, crash, point)
				})
			}
		}
	}
}

func testInstallFault(t *testing.T, replace, crash bool, point string) {
	ctx := t.Context()
	in, dir := newTestInstaller(t, nil)
	src := skillFolder(t, "victim", "old", map[string]string{"references/a.md": "old a"})
	old := fixture.State{}
	if replace {
		if _, err := in.Install(ctx, Source{Dir: src}, nil); err != nil {
			t.Fatal(err)
		}
		old = fixture.StateOf(t, dir, "victim")
	}
	writeTree(t, src, map[string]string{"SKILL.md": skillMD("victim", "new"), "references/a.md": "new a", "references/b.md": "b"})
	fail := errors.New("injected")
	if crash {
		fail = skillsdir.ErrSimulatedCrash
	}
	reached := faultAt(in.dir, point, fail)
	res, err := in.Install(ctx, Source{Dir: src}, nil)
	if !*reached {
		t.Fatalf("point %s not reached", point)
	}
	committed := point == "recorded"
	switch {
	case committed && !crash:
		if err != nil {
			t.Fatalf("a failure after the commit point failed the install: %v", err)
		}
	case !errors.Is(err, fail):
		t.Fatalf("err %v, want %v", err, fail)
	}
	if crash {
		// The process died: a new Installer settles what it left.
		in.dir.Close()
		in = openTestInstaller(t, dir, nil)
	} else if !committed {
		assertNoLeftovers(t, dir)
	}
	in.dir.Close()
	in = openTestInstaller(t, dir, nil)
	assertNoLeftovers(t, dir)

	got := fixture.StateOf(t, dir, "victim")
	wantNew := committed || crash && point == "new-moved"
	if got.Files != got.Record {
		t.Fatalf("files %s but record %s", got.Files, got.Record)
	}
	if wantNew {
		if got.Files == "" || got.Files == old.Files {
			t.Fatalf("want the new version, got %+v (old %+v)", got, old)
		}
		if !strings.Contains(readFile(t, filepath.Join(dir, "victim", "SKILL.md")), "new") {
			t.Fatal("SKILL.md is not the new one")
		}
		if res != nil && res.Record.Fingerprint != got.Files {
			t.Fatalf("result fingerprint %s, files %s", res.Record.Fingerprint, got.Files)
		}
	} else if got != old {
		t.Fatalf("want the old version %+v, got %+v", old, got)
	}
	// The skill works normally afterwards.
	if _, err := in.Install(ctx, Source{Dir: src}, nil); err != nil {
		t.Fatalf("install after recovery: %v", err)
	}
	assertNoLeftovers(t, dir)
}

func TestUninstallFaults(t *testing.T) {
	for _, crash := range []bool{false, true} {
		for _, point := range []string{"u-journal", "u-moved", "u-unrecorded"} {
			t.Run(fmt.Sprintf("crash=%v/%s", crash, point), func(t *testing.T) {
				ctx := t.Context()
				var purged []string
				dopts := &skillsdir.Options{Purge: func(_ context.Context, name string) error {
					purged = append(purged, name)
					return nil
				}}
				dir := filepath.Join(t.TempDir(), "skills")
				in := openTestInstallerWith(t, dir, nil, dopts, nil)
				if _, err := in.Install(ctx, Source{Dir: skillFolder(t, "goner", "x", nil)}, nil); err != nil {
					t.Fatal(err)
				}
				old := fixture.StateOf(t, dir, "goner")
				fail := errors.New("injected")
				if crash {
					fail = skillsdir.ErrSimulatedCrash
				}
				in.dir.Fault = func(p string) error {
					if p == point {
						return fail
					}
					return nil
				}
				err := in.Uninstall(ctx, "goner", nil)
				committed := point == "u-unrecorded"
				if committed && !crash {
					if err != nil {
						t.Fatalf("a failure after the commit point failed the uninstall: %v", err)
					}
				} else if !errors.Is(err, fail) {
					t.Fatalf("err %v", err)
				}
				in.dir.Close()
				openTestInstallerWith(t, dir, nil, dopts, nil)
				assertNoLeftovers(t, dir)
				got := fixture.StateOf(t, dir, "goner")
				if committed || crash && point == "u-moved" {
					if got != (fixture.State{}) {
						t.Fatalf("want it gone, got %+v", got)
					}
					if len(purged) != 1 {
						t.Fatalf("purged %v", purged)
					}
				} else if got != old || len(purged) != 0 {
					t.Fatalf("want it kept (%+v), got %+v, purged %v", old, got, purged)
				}
			})
		}
	}
}

// A crash at the fetch of a git install leaves a clone in staging, which
// the next New removes.
func TestCrashDuringClone(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("cloned", "x")})
	r.Commit("x")
	in, dir := newTestInstaller(t, nil)
	in.dir.Fault = func(p string) error {
		if p == "fetch" {
			return skillsdir.ErrSimulatedCrash
		}
		return nil
	}
	if _, err := in.Install(t.Context(), Source{Git: r.URL()}, nil); !errors.Is(err, skillsdir.ErrSimulatedCrash) {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(skillsdir.StagingDir)))
	if len(entries) < 2 {
		t.Fatalf("the simulated crash left nothing: %v", entries)
	}
	in.dir.Close()
	openTestInstaller(t, dir, nil)
	assertNoLeftovers(t, dir)
	if got := fixture.StateOf(t, dir, "cloned"); got != (fixture.State{}) {
		t.Fatalf("got %+v", got)
	}
}

// crashHelperEnv makes TestCrashHelper run an install that kills its own
// process at the point named.
const crashHelperEnv = "SKILLKIT_INSTALLER_CRASH_AT"

// TestCrashHelper is not a test: run by TestRealCrash in a child process.
func TestCrashHelper(t *testing.T) {
	point := os.Getenv(crashHelperEnv)
	if point == "" {
		t.Skip("helper process only")
	}
	in, err := openFolder(os.Getenv("SKILLKIT_DIR"))
	if err != nil {
		t.Fatal(err)
	}
	in.dir.Fault = func(p string) error {
		if p == point {
			os.Exit(7) // no deferred cleanup, no unlock: the system releases the locks
		}
		return nil
	}
	_, err = in.Install(context.Background(), Source{Dir: os.Getenv("SKILLKIT_SRC")}, nil)
	t.Fatalf("the install returned: %v", err)
}

// TestRealCrash kills a real process between the two renames of a swap
// (the old version in the trash, the new one still staged) and after them
// (the new version in place, no record yet), and checks what the next New
// makes of it.
func TestRealCrash(t *testing.T) {
	for _, tc := range []struct {
		point   string
		wantNew bool
	}{{"old-moved", false}, {"new-moved", true}} {
		t.Run(tc.point, func(t *testing.T) {
			in, dir := newTestInstaller(t, nil)
			src := skillFolder(t, "crashy", "old", nil)
			if _, err := in.Install(t.Context(), Source{Dir: src}, nil); err != nil {
				t.Fatal(err)
			}
			in.dir.Close()
			old := fixture.StateOf(t, dir, "crashy")
			writeTree(t, src, map[string]string{"SKILL.md": skillMD("crashy", "new")})
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$")
			cmd.Env = append(os.Environ(), crashHelperEnv+"="+tc.point, "SKILLKIT_DIR="+dir, "SKILLKIT_SRC="+src)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 7 {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			if _, err := os.Lstat(filepath.Join(dir, "crashy")); tc.point == "old-moved" && !os.IsNotExist(err) {
				t.Fatalf("the crash did not happen between the renames: %v", err)
			}
			openTestInstaller(t, dir, nil)
			assertNoLeftovers(t, dir)
			got := fixture.StateOf(t, dir, "crashy")
			if got.Files != got.Record || got.Files == "" {
				t.Fatalf("after recovery: %+v", got)
			}
			if (got != old) != tc.wantNew {
				t.Fatalf("got %+v, old %+v, want new: %v", got, old, tc.wantNew)
			}
		})
	}
}

// Recovery leaves a live operation of another Installer alone.
func TestRecoverySparesLiveOperations(t *testing.T) {
	in, dir := newTestInstaller(t, nil)
	entered, release := make(chan struct{}), make(chan struct{})
	in.dir.Fault = func(p string) error {
		if p == "journal" {
			close(entered)
			<-release
		}
		return nil
	}
	done := make(chan error, 1)
	go func() {
		_, err := in.Install(context.Background(), Source{Dir: skillFolder(t, "slow", "x", nil)}, nil)
		done <- err
	}()
	<-entered
	other := openTestInstaller(t, dir, nil) // runs recovery
	if _, err := other.Install(t.Context(), Source{Dir: skillFolder(t, "fast", "x", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("the live install was disturbed: %v", err)
	}
	for _, n := range []string{"slow", "fast"} {
		if got := fixture.StateOf(t, dir, n); got.Files == "" || got.Files != got.Record {
			t.Errorf("%s: %+v", n, got)
		}
	}
	assertNoLeftovers(t, dir)
}

// A leftover recovery cannot settle (a journal skillkit did not write) is
// logged and left; it blocks neither New nor installs.
func TestUnsettledLeftoverDoesNotBlock(t *testing.T) {
	in, dir := newTestInstaller(t, nil)
	in.dir.Close()
	junk := filepath.Join(dir, filepath.FromSlash(skillsdir.StagingDir), "0123456789abcdef")
	writeTree(t, junk, map[string]string{"journal.json": `{"version":1,"op":"install","name":"../../etc"}`})
	var logged strings.Builder
	in = openTestInstallerWith(t, dir, nil, &skillsdir.Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))}, nil)
	if _, err := in.Install(t.Context(), Source{Dir: skillFolder(t, "fine", "x", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(junk, "journal.json")); err != nil {
		t.Errorf("the foreign journal was removed: %v", err)
	}
	if !strings.Contains(logged.String(), "0123456789abcdef") || !strings.Contains(logged.String(), "not one skillkit wrote") {
		t.Errorf("log: %s", logged.String())
	}
}

// Settling a dead operation waits for no one: when its skill is busy, it
// is left for a later operation, and installs of other skills go on.
func TestRecoveryDoesNotWaitForABusySkill(t *testing.T) {
	in, dir := newTestInstaller(t, nil)
	src := skillFolder(t, "busy", "old", nil)
	if _, err := in.Install(t.Context(), Source{Dir: src}, nil); err != nil {
		t.Fatal(err)
	}
	old := fixture.StateOf(t, dir, "busy")
	in.dir.Fault = func(p string) error {
		if p == "old-moved" {
			return skillsdir.ErrSimulatedCrash
		}
		return nil
	}
	writeTree(t, src, map[string]string{"SKILL.md": skillMD("busy", "new")})
	if _, err := in.Install(t.Context(), Source{Dir: src}, &InstallOptions{Force: true}); !errors.Is(err, skillsdir.ErrSimulatedCrash) {
		t.Fatal(err)
	}
	in.dir.Fault = nil
	unlock, err := in.dir.Lock(t.Context(), "busy") // a live operation on the skill
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := in.Install(ctx, Source{Dir: skillFolder(t, "other", "x", nil)}, nil); err != nil {
		t.Fatalf("an install of another skill waited for the busy one: %v", err)
	}
	if got := fixture.StateOf(t, dir, "busy"); got.Files != "" {
		t.Fatalf("settled while busy: %+v", got)
	}
	unlock()
	if err := in.SetEnabled(t.Context(), "other", true); err != nil { // any operation settles it now
		t.Fatal(err)
	}
	assertNoLeftovers(t, dir)
	if got := fixture.StateOf(t, dir, "busy"); got != old {
		t.Fatalf("got %+v, want the old version %+v", got, old)
	}
}

// lyingStore writes a record and then reports a failure, once: a store
// whose write took effect although the caller was told otherwise.
type lyingStore struct {
	registry.Store
	lie bool
}

func (s *lyingStore) Put(ctx context.Context, rec registry.Record) error {
	if err := s.Store.Put(ctx, rec); err != nil {
		return err
	}
	if s.lie {
		s.lie = false
		return errors.New("injected: the record was written, the store says it was not")
	}
	return nil
}

// TestCrashDuringRollbackAfterARecordWrite: the record write fails after
// taking effect, and the process dies while undoing the swap (the new
// version already back in staging). Recovery must restore the previous
// record too, not leave the new record over the old files.
func TestCrashDuringRollbackAfterARecordWrite(t *testing.T) {
	for _, replace := range []bool{false, true} {
		for _, point := range []string{"rollback-new-out", "rollback-old-back"} {
			if point == "rollback-old-back" && !replace {
				continue
			}
			t.Run(fmt.Sprintf("replace=%v/%s", replace, point), func(t *testing.T) {
				ctx := t.Context()
				dir := filepath.Join(t.TempDir(), "skills")
				store := &lyingStore{Store: registry.NewFSStore(dir)}
				in := openTestInstallerWith(t, dir, store, nil, nil)
				src := skillFolder(t, "victim", "old", nil)
				old := fixture.State{}
				if replace {
					if _, err := in.Install(ctx, Source{Dir: src}, nil); err != nil {
						t.Fatal(err)
					}
					old = fixture.StateOf(t, dir, "victim")
				}
				writeTree(t, src, map[string]string{"SKILL.md": skillMD("victim", "new")})
				store.lie = true
				crashAt(t, in, point, func() error {
					_, err := in.Install(ctx, Source{Dir: src}, nil)
					return err
				})
				openTestInstaller(t, dir, nil)
				assertNoLeftovers(t, dir)
				if got := fixture.StateOf(t, dir, "victim"); got != old {
					t.Fatalf("after recovery %+v, want the old version %+v", got, old)
				}
			})
		}
	}
}

// crashAt runs op with a simulated crash at the fault point and returns
// once the process "died" there; the caller then changes the folder as
// another party would, before the next Installer settles it.
func crashAt(t *testing.T, in *Installer, point string, op func() error) {
	t.Helper()
	reached := faultAt(in.dir, point, skillsdir.ErrSimulatedCrash)
	if err := op(); !errors.Is(err, skillsdir.ErrSimulatedCrash) || !*reached {
		t.Fatalf("crash at %s: reached %v, err %v", point, *reached, err)
	}
	in.dir.Close()
}

// faultAt makes d fail with fail at the fault point; what it returns says
// whether the point was reached.
func faultAt(d *skillsdir.Dir, point string, fail error) *bool {
	reached := new(bool)
	d.Fault = func(p string) error {
		if p == point {
			*reached = true
			return fail
		}
		return nil
	}
	return reached
}

// Recovery finishes an install whose new version is in place only when the
// folder still holds what the journal fingerprinted and no one wrote
// another record since; otherwise it leaves the record as it finds it.
func TestRecoveryRollsForwardOnlyWhatItWrote(t *testing.T) {
	for _, tamper := range []string{"files", "record"} {
		t.Run(tamper, func(t *testing.T) {
			ctx := t.Context()
			in, dir := newTestInstaller(t, nil)
			src := skillFolder(t, "victim", "old", nil)
			if _, err := in.Install(ctx, Source{Dir: src}, nil); err != nil {
				t.Fatal(err)
			}
			writeTree(t, src, map[string]string{"SKILL.md": skillMD("victim", "new")})
			crashAt(t, in, "new-moved", func() error { _, err := in.Install(ctx, Source{Dir: src}, nil); return err })
			store := registry.NewFSStore(dir)
			before, err := store.Get(ctx, "victim")
			if err != nil {
				t.Fatal(err)
			}
			want := before
			switch tamper {
			case "files": // someone else's files are in place now
				writeTree(t, filepath.Join(dir, "victim"), map[string]string{"SKILL.md": skillMD("victim", "someone else's")})
			case "record": // someone else wrote a record since
				want.Pinned, want.UpdatedAt = true, before.UpdatedAt.Add(time.Minute)
				if err := store.Put(ctx, want); err != nil {
					t.Fatal(err)
				}
			}
			openTestInstaller(t, dir, nil)
			got, err := store.Get(ctx, "victim")
			if err != nil {
				t.Fatal(err)
			}
			if got.Fingerprint != want.Fingerprint || got.Pinned != want.Pinned || !got.UpdatedAt.Equal(want.UpdatedAt) {
				t.Fatalf("recovery wrote over the record: got %+v, want %+v", got, want)
			}
		})
	}
}

// Recovery of an uninstall whose folder was moved out deletes the record
// only when it is still the one the uninstall meant to delete.
func TestRecoveryKeepsARecordWrittenAfterAnUninstall(t *testing.T) {
	ctx := t.Context()
	in, dir := newTestInstaller(t, nil)
	if _, err := in.Install(ctx, Source{Dir: skillFolder(t, "goner", "x", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	crashAt(t, in, "u-moved", func() error { return in.Uninstall(ctx, "goner", nil) })
	store := registry.NewFSStore(dir)
	rec, err := store.Get(ctx, "goner")
	if err != nil {
		t.Fatal(err)
	}
	rec.URL, rec.UpdatedAt = "", rec.UpdatedAt.Add(time.Minute) // another party's record
	if err := store.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	openTestInstaller(t, dir, nil)
	if got, err := store.Get(ctx, "goner"); err != nil || !got.UpdatedAt.Equal(rec.UpdatedAt) {
		t.Fatalf("the record written after the uninstall: %+v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "goner")); !os.IsNotExist(err) {
		t.Fatalf("the uninstalled folder: %v", err)
	}
}

// The temporary files of atomic writes killed before their rename (in
// .skillhub, placed/, origins/) go at the next operation once old enough.
func TestRecoveryRemovesStaleTemporaryFiles(t *testing.T) {
	f := newFleet()
	in, dir := f.replica(t, nil)
	if _, err := in.Install(t.Context(), Source{Dir: skillFolder(t, "notes", "v1", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	var stale []string
	for _, folder := range []string{".skillhub", ".skillhub/placed", ".skillhub/origins"} {
		if err := os.MkdirAll(filepath.Join(dir, folder), 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, folder, ".notes.0123456789abcdef.tmp")
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, p)
	}
	in.dir.Close()
	in = f.open(t, dir, nil)
	if _, err := in.Install(t.Context(), Source{Dir: skillFolder(t, "other", "v1", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s stayed: %v", p, err)
		}
	}
}
