package secrets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/skillkit-go/skillkit/skill"
)

// ErrNotFound is wrapped by [Store] errors for a value that does not exist.
var ErrNotFound = errors.New("secrets: value not found")

// ErrConflict is wrapped by a conditional write ([CompareAndSwapper]) that
// found another value than the one the caller read. Read again and retry.
var ErrConflict = errors.New("secrets: value changed since it was read")

// Store holds sealed values, never plaintext, by skill and variable name.
// Implementations are safe for concurrent use and check names with
// [ValidateNames] (errors wrap [skill.ErrInvalidName] or
// [skill.ErrInvalidEnvName]). They return the context's error when it is
// done before they start. A sealed value is never empty. secretstest.TestStore
// is the conformance suite; a store may also implement [CompareAndSwapper].
type Store interface {
	// Get returns the sealed value; an error wrapping ErrNotFound when there
	// is none. The caller may modify the returned slice.
	Get(ctx context.Context, skill, key string) ([]byte, error)
	// Put stores the sealed value, replacing any value of the same names in
	// one step: a reader sees the old value or the new one, never a mix.
	// The store keeps no reference to sealed.
	Put(ctx context.Context, skill, key string, sealed []byte) error
	// Delete removes the value; an error wrapping ErrNotFound when there is
	// none.
	Delete(ctx context.Context, skill, key string) error
	// Keys returns the names of the skill's values, sorted; empty when it
	// has none.
	Keys(ctx context.Context, skill string) ([]string, error)
	// Skills returns the names of the skills that hold at least one value,
	// sorted.
	Skills(ctx context.Context) ([]string, error)
}

// CompareAndSwapper is the optional capability of a [Store] to write one
// value only when it still holds what the caller read, so that a writer
// that reads, re-seals and writes a value (a rotation, an adoption) never
// overwrites a value another writer saved meanwhile. Find it with a type
// assertion; the [Vault] uses it when the store has it. Values are compared
// byte for byte; a sealed value is never empty, so an empty old stands for
// "no value".
type CompareAndSwapper interface {
	// CompareAndSwap stores sealed only if the stored value is old, or,
	// with old empty, only if there is none. Otherwise it stores nothing
	// and the error wraps ErrConflict. Names are checked as Put checks
	// them.
	CompareAndSwap(ctx context.Context, skill, key string, old, sealed []byte) error
	// CompareAndDelete removes the value only if it is old. The error
	// wraps ErrNotFound when there is none, ErrConflict when there is
	// another.
	CompareAndDelete(ctx context.Context, skill, key string, old []byte) error
}

// MemStore is a [Store] in memory. Its zero value is ready to use.
type MemStore struct {
	mu sync.RWMutex
	m  map[string]map[string][]byte
}

var (
	_ Store             = (*MemStore)(nil)
	_ CompareAndSwapper = (*MemStore)(nil)
)

// Get implements [Store].
func (s *MemStore) Get(ctx context.Context, skillName, key string) ([]byte, error) {
	if err := begin(ctx, skillName, key); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.m[skillName][key]
	if !ok {
		return nil, notFound(skillName, key)
	}
	return slices.Clone(v), nil
}

// Put implements [Store].
func (s *MemStore) Put(ctx context.Context, skillName, key string, sealed []byte) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.set(skillName, key, sealed)
	return nil
}

// Delete implements [Store].
func (s *MemStore) Delete(ctx context.Context, skillName, key string) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[skillName][key]; !ok {
		return notFound(skillName, key)
	}
	s.remove(skillName, key)
	return nil
}

// CompareAndSwap implements [CompareAndSwapper].
func (s *MemStore) CompareAndSwap(ctx context.Context, skillName, key string, old, sealed []byte) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	current, ok := s.m[skillName][key]
	if !swapAllowed(old, current, ok) {
		return conflict(skillName, key)
	}
	s.set(skillName, key, sealed)
	return nil
}

// CompareAndDelete implements [CompareAndSwapper].
func (s *MemStore) CompareAndDelete(ctx context.Context, skillName, key string, old []byte) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	current, ok := s.m[skillName][key]
	if !ok {
		return notFound(skillName, key)
	}
	if !swapAllowed(old, current, ok) {
		return conflict(skillName, key)
	}
	s.remove(skillName, key)
	return nil
}

func (s *MemStore) set(skillName, key string, sealed []byte) {
	if s.m == nil {
		s.m = map[string]map[string][]byte{}
	}
	if s.m[skillName] == nil {
		s.m[skillName] = map[string][]byte{}
	}
	s.m[skillName][key] = slices.Clone(sealed)
}

func (s *MemStore) remove(skillName, key string) {
	delete(s.m[skillName], key)
	if len(s.m[skillName]) == 0 {
		delete(s.m, skillName)
	}
}

// Keys implements [Store].
func (s *MemStore) Keys(ctx context.Context, skillName string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := skill.ValidateKey(skillName); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Sorted(maps.Keys(s.m[skillName])), nil
}

// Skills implements [Store].
func (s *MemStore) Skills(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Sorted(maps.Keys(s.m)), nil
}

// begin checks the context and both names before a store operation.
func begin(ctx context.Context, skillName, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return checkNames(skillName, key)
}

// swapAllowed reports whether a compare-and-swap expecting old may replace
// the current value (exists false when there is none).
func swapAllowed(old, current []byte, exists bool) bool {
	if len(old) == 0 {
		return !exists
	}
	return exists && bytes.Equal(old, current)
}

func notFound(skillName, key string) error {
	return fmt.Errorf("%w: %s of skill %s", ErrNotFound, key, skillName)
}

func conflict(skillName, key string) error {
	return fmt.Errorf("%w: %s of skill %s", ErrConflict, key, skillName)
}
