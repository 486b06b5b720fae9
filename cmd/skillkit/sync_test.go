package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/testdb"
)

// greetFolder writes a compute-entry skill that prints its secret's
// length, and returns its folder.
func greetFolder(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	files := map[string]string{
		"SKILL.md":          "---\nname: " + name + "\ndescription: Greets.\n---\nRun it.\n",
		"skill.config.yaml": "runtime: bash\nentrypoint: run.sh\nenv:\n  - name: GREET_TOKEN\n",
		"run.sh":            `printf '{"token_len":%d}' "${#GREET_TOKEN}"` + "\n",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Two skills folders on one SQLite database through the command line:
// install on A, sync on B, run on B with the secret saved on A; doctor
// tells that B lags; an uninstall on A is synced away on B.
func TestSyncCommand(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	env := map[string]string{
		"SKILLKIT_DB":      "sqlite:" + filepath.Join(base, "fleet.db"),
		"SKILL_SECRET_KEY": "a test secret of at least sixteen bytes",
	}
	cli := func(args ...string) (string, string) {
		t.Helper()
		code, out, errOut := runCLIEnv(t, env, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		return out, errOut
	}
	// A holds the fleet's private key; B trusts its public key.
	keyFile := filepath.Join(base, "fleet.key")
	out, _ := cli("fleet", "keygen", keyFile)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	pub := lines[len(lines)-1]
	if !strings.HasPrefix(pub, "ed25519:") {
		t.Fatalf("keygen printed %q", out)
	}
	if code, _, _ := runCLIEnv(t, env, "fleet", "keygen", keyFile); code != exitFailure {
		t.Error("keygen overwrote a key")
	}
	env["SKILLKIT_FLEET_KEY"] = keyFile
	cli("install", "--dir", a, greetFolder(t, "greet"))
	delete(env, "SKILLKIT_FLEET_KEY")
	if err := os.MkdirAll(b, 0o755); err != nil {
		t.Fatal(err)
	}
	// Without a trusted key B refuses to sync.
	if code, _, errOut := runCLIEnv(t, env, "sync", "--dir", b); code != exitFailure || !strings.Contains(errOut, "no trusted fleet key") {
		t.Fatalf("sync without trust: exit %d %s", code, errOut)
	}
	env["SKILLKIT_FLEET_TRUST"] = pub
	out, errOut := cli("sync", "--dir", b)
	if !strings.HasPrefix(out, "installed greet (") || !strings.Contains(errOut, "1 installed, 0 updated, 0 removed, 0 failed; this replica holds 1 skills") {
		t.Fatalf("sync: %q %q", out, errOut)
	}
	cli("secrets", "--dir", a, "set", "greet", "GREET_TOKEN=abcd")
	if out, _ := cli("run", "--dir", b, "greet"); !strings.Contains(out, `"token_len":4`) {
		t.Fatalf("run on B: %s", out)
	}

	cli("install", "--dir", a, "--fleet-key", keyFile, greetFolder(t, "wave"))
	out, _ = cli("doctor", "--dir", a, "--level", "warning")
	if !strings.Contains(out, "REPLICA_BEHIND") || !strings.Contains(out, "lacks wave") {
		t.Fatalf("doctor on A does not say B lags:\n%s", out)
	}
	cli("uninstall", "--dir", a, "--fleet-key", keyFile, "greet")
	out, _ = cli("sync", "--dir", b, "--json")
	var rep struct {
		Results []struct{ Name, Action, Error string } `json:"results"`
		Placed  map[string]string                      `json:"placed"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(rep.Results) != 2 || rep.Results[0].Name != "greet" || rep.Results[0].Action != "removed" || rep.Results[1].Action != "installed" || len(rep.Placed) != 1 {
		t.Fatalf("sync --json: %s", out)
	}
	if _, err := os.Stat(filepath.Join(b, "greet")); !os.IsNotExist(err) {
		t.Fatal("greet is still on B")
	}
	if out, _ := cli("doctor", "--dir", a, "--level", "warning"); strings.Contains(out, "REPLICA_BEHIND") {
		t.Fatalf("doctor after B synced:\n%s", out)
	}
}

func TestSyncCommandUsage(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
		code int
	}{
		{nil, []string{"sync", "--dir", t.TempDir()}, "no database", exitUsage},
		{map[string]string{"SKILLKIT_DB": "sqlite:x.db"}, []string{"sync", "--dir", t.TempDir(), "--listen"}, "--listen needs --watch", exitUsage},
		{map[string]string{"SKILLKIT_DB": "sqlite:" + filepath.Join(t.TempDir(), "x.db")}, []string{"sync", "--dir", t.TempDir(), "--watch", "1m", "--listen"}, "needs a PostgreSQL", exitUsage},
		{nil, []string{"list", "--db", "mysql://root:hunter2@db/skills", t.TempDir()}, "mysql://root:xxxxx@db/skills: not a database URL", exitUsage},
	} {
		code, _, errOut := runCLIEnv(t, tc.env, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "hunter2") {
			t.Errorf("%v: exit %d, %q; want %d with %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// lockedBuffer is a bytes.Buffer two goroutines may use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// sync --watch --listen on PostgreSQL places a skill installed on another
// replica as soon as the registry announces it, long before its interval.
func TestSyncListens(t *testing.T) {
	dsn := testdb.PostgresDSN(t)
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	// What is tested is the wake-up; signed rows are fleet_test's.
	env := map[string]string{"SKILLKIT_DB": dsn, "SKILLKIT_FLEET_UNSIGNED": "1"}
	if code, _, errOut := runCLIEnv(t, env, "sync", "--dir", b); code != exitOK { // migrates, makes B
		t.Fatal(errOut)
	}
	id, err := os.ReadFile(filepath.Join(b, ".skillhub", "replica"))
	if err != nil {
		t.Fatal(err)
	}
	pool := testdb.Open(t, testdb.PostgresDriver, dsn)
	syncs := func() (n int) {
		t.Helper()
		var at time.Time
		if err := pool.QueryRowContext(t.Context(), "SELECT synced_at FROM skillkit_replicas WHERE id = $1", strings.TrimSpace(string(id))).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return int(at.UnixMicro())
	}
	first := syncs()
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr lockedBuffer
	done := make(chan int)
	go func() {
		c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(k string) string { return env[k] }}
		done <- run(ctx, []string{"sync", "--dir", b, "--watch", "1h", "--listen"}, c)
	}()
	defer func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("sync --watch ended with %d: %s", code, stderr.String())
		}
	}()
	// The watch's first sync, at its start, must be over before A
	// installs, so that only an announcement can bring the skill within
	// the hour.
	for i := 0; syncs() == first; i++ {
		if i == 600 {
			t.Fatalf("the watch never synced: %q", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The listener may not be up yet when A installs: install until the
	// announcement reaches B (each install of the same files is a swap
	// that writes the record again, announced again).
	for i := 0; !strings.Contains(stdout.String(), "installed greet"); i++ {
		if i == 600 {
			t.Fatalf("B never synced; stdout %q, stderr %q", stdout.String(), stderr.String())
		}
		if i%20 == 0 {
			if code, _, errOut := runCLIEnv(t, env, "install", "--dir", a, "--force", greetFolder(t, "greet")); code != exitOK {
				t.Fatal(errOut)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(b, "greet", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
}
