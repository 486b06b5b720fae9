package sqlstore_test

import (
	"errors"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
)

// The signer column holds the record's signer as JSON; a value that does
// not decode (written by another program into the shared database) is a
// corrupt record, not a skill without a signer.
func TestSignerColumn(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		pool, db := openWithPool(t, b)
		reg := db.Registry()
		signer := &registry.Signer{State: "verified", Principals: []string{"alice@example.com"}, Key: "SHA256:AAAA", Object: "tag v1"}
		if err := reg.Put(t.Context(), registry.Record{Name: "notes", Signer: signer}); err != nil {
			t.Fatal(err)
		}
		var stored string
		if err := pool.QueryRowContext(t.Context(), "SELECT signer FROM skillkit_registry WHERE name = 'notes'").Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != `{"state":"verified","principals":["alice@example.com"],"key":"SHA256:AAAA","object":"tag v1"}` {
			t.Errorf("signer column %s", stored)
		}
		if _, err := pool.ExecContext(t.Context(), "UPDATE skillkit_registry SET signer = '{not json' WHERE name = 'notes'"); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Get(t.Context(), "notes"); !errors.Is(err, registry.ErrCorrupt) {
			t.Fatalf("a signer that does not decode: %v, want ErrCorrupt", err)
		}
	})
}
