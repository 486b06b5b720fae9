package sqlstore_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"testing"

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

// TestRotateKillHelper is not a test: run by TestRotationResumesAfterAKill
// in a child process.
func TestRotateKillHelper(t *testing.T) {
	dsn := os.Getenv(rotateKillEnv)
	if dsn == "" {
		t.Skip("helper process only")
	}
	b := backends[slices.IndexFunc(backends, func(b backend) bool { return b.Name == os.Getenv("SKILLKIT_ROTATE_KILL_DB") })]
	db := b.Store(t, dsn)
	v := secrets.NewVault(&dyingSecrets{Secrets: db.Secrets()}, &secrets.Options{Keyring: secretstest.Keyring(t, secretstest.OldSecret)})
	_, err := v.Rotate(context.Background(), secretstest.Keyring(t, secretstest.NewSecret))
	t.Fatalf("the rotation returned: %v", err)
}

// A replica process killed in the middle of a key rotation leaves every
// value whole, under the old key or the new; any replica holding both
// keys reads them all, and rotating again finishes the job.
func TestRotationResumesAfterAKill(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		dsn := b.DSN(t)
		db := b.Store(t, dsn)
		secretstest.RotationResumes(t, db.Secrets(), func(context.Context, secrets.Store) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestRotateKillHelper$")
			cmd.Env = append(os.Environ(), rotateKillEnv+"="+dsn, "SKILLKIT_ROTATE_KILL_DB="+b.Name)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 7 {
				t.Fatalf("helper: %v\n%s", err, out)
			}
		})
	})
}
