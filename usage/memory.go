package usage

import (
	"context"
	"sync"
)

// Memory is a Store in the process's memory.
type Memory struct {
	mu    sync.Mutex
	stats map[key]*Stat
}

// NewMemory returns an empty Memory store.
func NewMemory() *Memory { return &Memory{stats: map[key]*Stat{}} }

// Record implements Store.
func (m *Memory) Record(ctx context.Context, u Use) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	add(m.stats, u)
	return nil
}

// Stats implements Store.
func (m *Memory) Stats(ctx context.Context) ([]Stat, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return sorted(m.stats), nil
}
