package sqlstore_test

import (
	"testing"

	"github.com/skillkit-go/skillkit/internal/testdb"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/sqlstore"
)

// BenchmarkRegistryUpdate measures one read-change-write of a record
// through registry.Update (a Get and a CompareAndSwap) with no contention.
func BenchmarkRegistryUpdate(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			dsn := be.dsn(b)
			db, err := sqlstore.Open(b.Context(), testdb.Open(b, be.driver, dsn), be.dialect)
			if err != nil {
				b.Fatal(err)
			}
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
		b.Run(be.name, func(b *testing.B) {
			db, err := sqlstore.Open(b.Context(), testdb.Open(b, be.driver, be.dsn(b)), be.dialect)
			if err != nil {
				b.Fatal(err)
			}
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
