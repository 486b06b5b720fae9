//go:build !lean

package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// withSuggestions adds to err, when it says that no skill is called name,
// the names of the skills folder closest to it.
func withSuggestions(ctx context.Context, kit *skillkit.Kit, name string, err error) error {
	if !isNotFound(err) {
		return err
	}
	s := suggest(name, skillNames(ctx, kit))
	if len(s) == 0 {
		return err
	}
	return fmt.Errorf("%w%s", err, didYouMean(s))
}

// isNotFound reports whether err says a skill is not there.
func isNotFound(err error) bool {
	for _, target := range []error{executor.ErrNotFound, installer.ErrNotInstalled, deps.ErrNotInstalled, registry.ErrNotFound} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// skillNames are the names of the skills in the Kit's skills folder: those
// with a record and the folders holding a SKILL.md, sorted. It scans
// nothing.
func skillNames(ctx context.Context, kit *skillkit.Kit) []string {
	names := map[string]bool{}
	if recs, err := kit.Registry().List(ctx); err == nil {
		for _, r := range recs {
			names[r.Name] = true
		}
	}
	if entries, err := os.ReadDir(kit.Dir()); err == nil {
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(kit.Dir(), e.Name(), skill.FileName)); err == nil {
				names[e.Name()] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(names))
}
