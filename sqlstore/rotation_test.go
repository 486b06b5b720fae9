package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testdb"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/secrets/secretstest"
	"github.com/skillkit-go/skillkit/sqlstore"
)

// rotateKillEnv makes TestRotateKillHelper rotate and kill its own process
// before its sixth write.
const rotateKillEnv = "SKILLKIT_ROTATE_KILL_DSN"

// dyingSecrets is the database's secrets store in a process that dies
// before its sixth conditional write, as a replica killed mid-rotation.
type dyingSecrets struct {
	*sqlstore.Secrets
	writes int
}

func (d *dyingSecrets) CompareAndSwap(ctx context.Context, skill, key string, old, sealed []byte) error {
	if d.writes++; d.writes == 6 {
		os.Exit(7) // no deferred cleanup: the connections just drop
	}
	return d.Secrets.CompareAndSwap(ctx, skill, key, old, sealed)
}

func vaultOn(store secrets.Store, kr *secrets.Keyring) *secrets.Vault {
	return secrets.NewVault(store, &secrets.Options{Keyring: kr, Getenv: func(string) string { return "" }})
}

// TestRotateKillHelper is not a test: run by TestRotationResumesAfterAKill
// in a child process.
func TestRotateKillHelper(t *testing.T) {
	dsn := os.Getenv(rotateKillEnv)
	if dsn == "" {
		t.Skip("helper process only")
	}
	b := backends[slices.IndexFunc(backends, func(b backend) bool { return b.name == os.Getenv("SKILLKIT_ROTATE_KILL_DB") })]
	db, err := sqlstore.Open(context.Background(), testdb.Open(t, b.driver, dsn), b.dialect)
	if err != nil {
		t.Fatal(err)
	}
	_, err = vaultOn(&dyingSecrets{Secrets: db.Secrets()}, secretstest.Keyring(t, secretstest.OldSecret)).
		Rotate(context.Background(), secretstest.Keyring(t, secretstest.NewSecret))
	t.Fatalf("the rotation returned: %v", err)
}

// A replica process killed in the middle of a key rotation leaves every
// value whole, under the old key or the new; any replica holding both
// keys reads them all, and rotating again finishes the job.
func TestRotationResumesAfterAKill(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := t.Context()
		dsn := b.dsn(t)
		db, err := sqlstore.Open(ctx, testdb.Open(t, b.driver, dsn), b.dialect)
		if err != nil {
			t.Fatal(err)
		}
		store := db.Secrets()
		want := map[string]map[string]string{}
		for i := range 3 {
			s := fmt.Sprintf("skill-%d", i)
			want[s] = map[string]string{}
			for j := range 4 {
				want[s][fmt.Sprintf("KEY_%d", j)] = fmt.Sprintf("value %d/%d", i, j)
			}
			if err := vaultOn(store, secretstest.Keyring(t, secretstest.OldSecret)).Save(ctx, s, want[s]); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestRotateKillHelper$")
		cmd.Env = append(os.Environ(), rotateKillEnv+"="+dsn, "SKILLKIT_ROTATE_KILL_DB="+b.name)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Fatalf("helper: %v\n%s", err, out)
		}
		oldID, newID := secretstest.Keyring(t, secretstest.OldSecret).Primary().ID(), secretstest.Keyring(t, secretstest.NewSecret).Primary().ID()
		count := map[uint32]int{}
		for _, h := range secretstest.SealedHeaders(t, store) {
			count[h.KeyID]++
		}
		if count[newID] != 5 || count[oldID] != 7 {
			t.Fatalf("after the kill: %v values by key id", count)
		}
		both := vaultOn(store, secretstest.Keyring(t, secretstest.NewSecret, secretstest.OldSecret))
		for s, vals := range want {
			if got, err := both.ResolveEnv(ctx, s, nil); err != nil || !maps.Equal(got, vals) {
				t.Fatalf("%s with both keys after the kill: %v", s, err)
			}
		}
		stats, err := vaultOn(store, secretstest.Keyring(t, secretstest.OldSecret)).Rotate(ctx, secretstest.Keyring(t, secretstest.NewSecret))
		if err != nil || stats != (secrets.RotateStats{Resealed: 7, Unchanged: 5}) {
			t.Fatalf("the second rotation: %+v, %v", stats, err)
		}
		after := vaultOn(store, secretstest.Keyring(t, secretstest.NewSecret))
		for s, vals := range want {
			if got, err := after.ResolveEnv(ctx, s, nil); err != nil || !maps.Equal(got, vals) {
				t.Fatalf("%s with the new key alone: %v", s, err)
			}
		}
	})
}
