package sqlstore_test

import (
	"testing"

	"github.com/skillkit-go/skillkit/registry"
)

// BenchmarkRegistryUpdate measures one read-change-write of a record
// through registry.Update (a Get and a CompareAndSwap) with no contention.
func BenchmarkRegistryUpdate(b *testing.B) {
	for _, be := range backends {
		b.Run(be.Name, func(b *testing.B) {
			dsn := be.DSN(b)
			db := be.Store(b, dsn)
			reg := db.Registry()
			for b.Loop() {
				if _, err := registry.Update(b.Context(), reg, "pdf", func(rec *registry.Record, _ bool) error {
					rec.Enabled = !rec.Enabled
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSecretsGet measures reading one sealed value.
func BenchmarkSecretsGet(b *testing.B) {
	for _, be := range backends {
		b.Run(be.Name, func(b *testing.B) {
			db := be.Store(b, be.DSN(b))
			s := db.Secrets()
			if err := s.Put(b.Context(), "pdf", "API_KEY", make([]byte, 64)); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := s.Get(b.Context(), "pdf", "API_KEY"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
