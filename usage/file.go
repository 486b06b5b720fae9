package usage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/filelock"
)

// File is a Store in one JSON file (a list of Stat), shared by the
// processes of a machine: each Record takes an exclusive lock on the file
// beside it (name + ".lock"), reads the file, adds the use and replaces the
// file atomically; Stats takes a shared lock. The file grows with the
// skills, agents and tools used, not with the uses.
type File struct {
	path string
}

// NewFile returns the store in the file at path; the file and its folder
// are created on the first Record.
func NewFile(path string) *File { return &File{path: path} }

// Record implements Store.
func (f *File) Record(ctx context.Context, u Use) error {
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("usage: %w", err)
	}
	lock, err := filelock.Lock(ctx, f.path+".lock")
	if err != nil {
		return fmt.Errorf("usage: %w", err)
	}
	defer lock.Unlock()
	list, err := f.read()
	if err != nil {
		return err
	}
	stats := make(map[key]*Stat, len(list)+1)
	for i := range list {
		st := &list[i]
		stats[key{st.Skill, st.Agent, st.Tool}] = st
	}
	add(stats, u)
	data, err := json.MarshalIndent(sorted(stats), "", "  ")
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("usage: %w", err)
	}
	defer root.Close()
	if err := atomicfile.WriteFile(root, filepath.Base(f.path), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("usage: %w", err)
	}
	return nil
}

// Stats implements Store.
func (f *File) Stats(ctx context.Context) ([]Stat, error) {
	if _, err := os.Stat(filepath.Dir(f.path)); errors.Is(err, fs.ErrNotExist) {
		return []Stat{}, nil
	}
	lock, err := filelock.RLock(ctx, f.path+".lock")
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	defer lock.Unlock()
	list, err := f.read()
	if err != nil {
		return nil, err
	}
	m := make(map[key]*Stat, len(list))
	for i := range list {
		st := &list[i]
		m[key{st.Skill, st.Agent, st.Tool}] = st
	}
	return sorted(m), nil
}

func (f *File) read() ([]Stat, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	var list []Stat
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("usage: %s is not a usage file: %w", f.path, err)
	}
	return list, nil
}
