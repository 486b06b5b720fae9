package skillkit_test

import (
	"errors"
	"fmt"
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
	"github.com/skillkit-go/skillkit/secrets"
)

// loadWorkerEnv carries a load worker's folder, seed and sources.
const loadWorkerEnv = "SKILLKIT_TEST_LOAD_WORKER"

// loadNames are the skills the load workers fight over.
var loadNames = []string{"alpha", "beta", "gamma"}

// TestLoadWorkerHelper is one process of TestProcessesOnOneFolderAgree:
// random installs (from one of two origins per name), uninstalls, secret
// saves and flag changes on a folder other processes change at once.
func TestLoadWorkerHelper(t *testing.T) {
	spec := os.Getenv(loadWorkerEnv)
	if spec == "" {
		t.Skip("helper process only")
	}
	parts := strings.Split(spec, "\n")
	dir, sourceRoot := parts[0], parts[2]
	seed, _ := strconv.ParseUint(parts[1], 10, 64)
	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range 30 {
		name := loadNames[rng.IntN(len(loadNames))]
		var err error
		op := rng.IntN(4)
		switch op {
		case 0:
			src := filepath.Join(sourceRoot, fmt.Sprintf("v%d", 1+rng.IntN(2)), name)
			_, err = kit.Install(ctx, installer.Source{Dir: src}, &installer.InstallOptions{Force: true})
		case 1:
			err = kit.Uninstall(ctx, name, nil)
		case 2:
			err = kit.SaveSecrets(ctx, name, map[string]string{"GREET_TOKEN": fmt.Sprintf("seed%d-op%d", seed, i)})
		case 3:
			err = kit.SetEnabled(ctx, name, rng.IntN(2) == 0)
		}
		// The trace of every operation: the parent shows it when the
		// folder does not agree, to find the interleaving that broke it.
		fmt.Printf("%s seed%d op%d %s %d: %v\n", time.Now().Format("15:04:05.000000"), seed, i, name, op, err)
		// Another process uninstalled the skill first: the one answer a
		// race may give.
		if err != nil && !errors.Is(err, installer.ErrNotInstalled) && !errors.Is(err, skillkit.ErrNoSuchSkill) {
			t.Errorf("op %d on %s: %v", i, name, err)
		}
	}
}

// Several processes changing one skills folder at once leave it
// consistent: every record has its folder with its origin's files and
// fingerprint, every folder a record, secrets only for installed skills and
// none damaged, nothing left in staging.
func TestProcessesOnOneFolderAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("starts several processes")
	}
	dir := filepath.Join(t.TempDir(), "skills")
	sources := t.TempDir()
	for _, v := range []string{"v1", "v2"} {
		for _, name := range loadNames {
			src := greetSkill(t, name, name+"-"+v)
			if err := os.MkdirAll(filepath.Join(sources, v), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(src, filepath.Join(sources, v, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	const workers = 4
	cmds := make([]*exec.Cmd, workers)
	outs := make([]strings.Builder, workers)
	for w := range workers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLoadWorkerHelper$")
		cmd.Env = append(os.Environ(), loadWorkerEnv+"="+dir+"\n"+strconv.Itoa(w+1)+"\n"+sources)
		cmd.Stdout, cmd.Stderr = &outs[w], &outs[w]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[w] = cmd
	}
	for w, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("worker %d: %v\n%s", w, err, outs[w].String())
		}
	}

	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	records, err := kit.Registry().List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, rec := range records {
		recorded = append(recorded, rec.Name)
		md, err := os.ReadFile(filepath.Join(dir, rec.Name, "SKILL.md"))
		if err != nil {
			t.Errorf("%s is recorded (%+v) but its folder is not there: %v", rec.Name, rec, err)
			continue
		}
		origin := filepath.Base(filepath.Dir(rec.URL))
		if !strings.Contains(string(md), "Greets with "+rec.Name+"-"+origin+".") {
			t.Errorf("%s is recorded from %s but holds:\n%s", rec.Name, rec.URL, md)
		}
		statuses, err := kit.Vault().Configured(ctx, rec.Name, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range statuses {
			if st.Damaged {
				t.Errorf("%s: the secret %s is damaged", rec.Name, st.Name)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !slices.Contains(recorded, e.Name()) {
			t.Errorf("the folder %s has no record", e.Name())
		}
	}
	withSecrets, err := secrets.NewFSStore(dir).Skills(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range withSecrets {
		if !slices.Contains(recorded, name) {
			t.Errorf("secrets are kept for %s, which is not installed", name)
		}
	}
	if staged, _ := os.ReadDir(filepath.Join(dir, ".skillhub", "staging")); len(slices.DeleteFunc(staged, func(e os.DirEntry) bool { return e.Name() == ".lock" })) > 0 {
		t.Errorf("left in staging: %v", staged)
	}
	diags, err := kit.Doctor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if bad := diags.AtLeast(diagnostics.Warning); len(bad) > 0 {
		t.Errorf("doctor after the load: %v", bad)
	}
	t.Logf("after %d workers: installed %v, secrets for %v", workers, recorded, withSecrets)
	if t.Failed() {
		for w := range workers {
			t.Logf("worker %d:\n%s", w, outs[w].String())
		}
	}
}

// A Kit whose snapshot still shows a skill that another Kit (another
// process) uninstalled does not bring it back: a flag change and a secret
// save fail and write nothing.
func TestStaleSnapshotDoesNotResurrect(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "skills")
	first, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := first.Install(ctx, installer.Source{Dir: greetSkill(t, "greet", "hello")}, nil); err != nil {
		t.Fatal(err)
	}
	// The first Kit scans: its snapshot holds greet from now on.
	if l, err := first.Loader(ctx); err != nil {
		t.Fatal(err)
	} else if _, ok := l.Get("greet"); !ok {
		t.Fatal("the first Kit's snapshot lacks greet")
	}
	second, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if err := second.Uninstall(ctx, "greet", nil); err != nil {
		t.Fatal(err)
	}
	if err := first.SetEnabled(ctx, "greet", false); !errors.Is(err, installer.ErrNotInstalled) {
		t.Errorf("SetEnabled on the stale Kit: %v", err)
	}
	if err := first.SaveSecrets(ctx, "greet", map[string]string{"GREET_TOKEN": "x"}); !errors.Is(err, skillkit.ErrNoSuchSkill) {
		t.Errorf("SaveSecrets on the stale Kit: %v", err)
	}
	if recs, _ := second.Registry().List(ctx); len(recs) != 0 {
		t.Errorf("records after the uninstall: %+v", recs)
	}
	if names, _ := secrets.NewFSStore(dir).Skills(ctx); len(names) != 0 {
		t.Errorf("secrets after the uninstall: %v", names)
	}
}
