package sqlstore_test

import (
	"context"
	"testing"

	"github.com/skillkit-go/skillkit/usage"
	"github.com/skillkit-go/skillkit/usage/usagetest"
)

// The replicas of a fleet count into one table: the conformance test's
// concurrent records go through separate pools.
func TestUsageConformance(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		usagetest.Run(t, func(t *testing.T) usage.Store {
			dbs := openN(t, b, 2)
			return splitStore{dbs[0].Usage(), dbs[1].Usage()}
		})
	})
}

// splitStore records through one client and reads through another, as two
// replicas do.
type splitStore struct{ write, read usage.Store }

func (s splitStore) Record(ctx context.Context, u usage.Use) error   { return s.write.Record(ctx, u) }
func (s splitStore) Stats(ctx context.Context) ([]usage.Stat, error) { return s.read.Stats(ctx) }
