package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// everything lifts the loader's limits: validate and inspect check every
// skill they are pointed at, however many, nested ones included.
func everything() *loader.Options {
	return &loader.Options{MaxDirs: loader.Unlimited, MaxDepth: loader.Unlimited, MaxSkills: loader.Unlimited, NestedSkills: true}
}

// checked is what loadPaths found: how many skill files it read, and the
// skills that loaded.
type checked struct {
	files  int
	skills []*skill.Skill
}

// loadPaths loads every skill under each path: a path is a skill folder, or a
// folder holding skills at any depth, found by the loader's discovery without
// its limits, nested skills included. Every skill is loaded, colliding names
// included, so each is checked; each folder is listed once
// (loader.LoadAll). Diagnostic paths of skills start with the
// path as given. Problems with a path itself are READ_ERROR diagnostics.
func loadPaths(ctx context.Context, paths []string, strict bool) (checked, diagnostics.List) {
	var out checked
	var diags diagnostics.List
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil || !st.IsDir() {
			if err == nil {
				err = errors.New("not a folder")
			}
			diags = append(diags, diagnostics.New(diagnostics.ReadError, "", root, "%v", err))
			continue
		}
		opts := everything()
		opts.Strict = strict
		found, skills, d := loader.LoadAll(ctx, loader.Source{Name: root, Dir: root}, opts)
		diags = append(diags, asGiven(d, root)...)
		if len(found) == 0 && !d.HasErrors() {
			diags = append(diags, diagnostics.New(diagnostics.ReadError, "", root, "no skill found: no folder here holds a %s", skill.FileName))
		}
		out.files += len(found)
		for _, s := range skills {
			if s != nil {
				out.skills = append(out.skills, s)
			}
		}
	}
	return out, diags
}

// asGiven rewrites the paths of discovery's diagnostics, which are absolute,
// to start with root as the user typed it, like the skills' own.
func asGiven(diags diagnostics.List, root string) diagnostics.List {
	abs, err := filepath.Abs(root)
	if err != nil {
		return diags
	}
	for i, d := range diags {
		if rest, ok := strings.CutPrefix(d.Path, abs); ok && (rest == "" || rest[0] == filepath.Separator) {
			diags[i].Path = strings.TrimSuffix(root, string(filepath.Separator)) + rest
		}
	}
	return diags
}
