package registry

import (
	"cmp"
	"context"
	"slices"
	"sync"
)

// MemStore is a [Store] in memory. Its zero value is an empty store, ready to use.
type MemStore struct {
	mu      sync.RWMutex
	records map[string]Record
}

var (
	_ Store             = (*MemStore)(nil)
	_ CompareAndSwapper = (*MemStore)(nil)
)

// Get returns the record for name.
func (m *MemStore) Get(ctx context.Context, name string) (Record, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	rec, ok := m.records[name]
	if !ok {
		return Record{}, notFound(name)
	}
	return rec, nil
}

// Put stores rec.
func (m *MemStore) Put(ctx context.Context, rec Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := rec.Validate(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.records == nil {
		m.records = map[string]Record{}
	}
	m.records[rec.Name] = rec
	return nil
}

// Delete removes the record for name.
func (m *MemStore) Delete(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.records[name]; !ok {
		return notFound(name)
	}
	delete(m.records, name)
	return nil
}

// List returns every record sorted by name.
func (m *MemStore) List(ctx context.Context) ([]Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Record, 0, len(m.records))
	for _, rec := range m.records {
		out = append(out, rec)
	}
	slices.SortFunc(out, func(a, b Record) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// CompareAndSwap stores rec only if the stored record is still *old (none,
// with old nil).
func (m *MemStore) CompareAndSwap(ctx context.Context, old *Record, rec Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkSwap(old, rec); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !swapAllowed(old, m.lookup(rec.Name)) {
		return conflict(rec.Name)
	}
	if m.records == nil {
		m.records = map[string]Record{}
	}
	m.records[rec.Name] = rec
	return nil
}

// CompareAndDelete removes the record of old.Name only if it is still old.
func (m *MemStore) CompareAndDelete(ctx context.Context, old Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	current := m.lookup(old.Name)
	if current == nil {
		return notFound(old.Name)
	}
	if !swapAllowed(&old, current) {
		return conflict(old.Name)
	}
	delete(m.records, old.Name)
	return nil
}

// lookup returns the stored record of name, or nil.
func (m *MemStore) lookup(name string) *Record {
	rec, ok := m.records[name]
	if !ok {
		return nil
	}
	return &rec
}
