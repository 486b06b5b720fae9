package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// loadPaths loads every skill under each path: a path is a skill folder, or a
// folder holding skills at any depth. Diagnostic paths start with the path
// as given. Problems with a path itself are READ_ERROR diagnostics.
func loadPaths(paths []string, strict bool) ([]*skill.Skill, diagnostics.List) {
	var skills []*skill.Skill
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
		fsys := os.DirFS(root)
		dirs, err := findSkillDirs(fsys)
		if err != nil {
			diags = append(diags, diagnostics.New(diagnostics.ReadError, "", root, "%v", err))
		}
		if len(dirs) == 0 && err == nil {
			diags = append(diags, diagnostics.New(diagnostics.ReadError, "", root, "no skill found: no folder here holds a %s", skill.SkillFile))
		}
		for _, dir := range dirs {
			s, d := skill.Load(fsys, dir, &skill.LoadOptions{Strict: strict, DiskRoot: root})
			diags = append(diags, d...)
			if s != nil {
				skills = append(skills, s)
			}
		}
	}
	return skills, diags
}

// findSkillDirs returns the folders holding SKILL.md or skill.md, not looking
// below a skill folder, skipping dot folders, node_modules and .skillhub.
func findSkillDirs(fsys fs.FS) ([]string, error) {
	var dirs []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != "." && (d.Name()[0] == '.' || slices.Contains(skill.InfraDirs, d.Name())) {
			return fs.SkipDir
		}
		for _, name := range []string{skill.SkillFile, skill.SkillFileLower} {
			if st, err := fs.Stat(fsys, path.Join(p, name)); err == nil && !st.IsDir() {
				dirs = append(dirs, p)
				return fs.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		return dirs, fmt.Errorf("cannot search for skills: %w", err)
	}
	return dirs, nil
}
