// Package skillset builds the skill tools of one skills folder straight from
// skillkit's packages: skill.Load for each skill folder, executor.New,
// tools.ReadSkill, tools.ReadSkillFile, tools.ExecuteSkill and
// prompt.Catalog. It is the only wiring in this example; once the Kit lands,
// [Load] becomes a single skillkit.Open(...).Toolset(...) call.
//
// Every example module carries its own copy: Go's internal packages cannot
// be shared across module boundaries.
package skillset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// Set is the tool set of one skills folder.
type Set struct {
	// Tools are read_skill and read_skill_file for every skill, and
	// execute_skill when at least one compute-entry skill can run.
	Tools []tools.Tool
	// Catalog is the <available_skills> section for the system prompt.
	Catalog string
	// Diagnostics holds what loading found, skills that could not be loaded
	// included.
	Diagnostics diagnostics.List
}

// Load loads every skill folder directly under dir (folders whose names
// start with a dot are skipped) and builds the tools for them. A skill that
// cannot be loaded is left out, with its diagnostics in Set.Diagnostics. It
// fails when dir cannot be read, when no skill loads, or when two folders
// hold skills of the same name.
func Load(dir string) (*Set, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("skills folder: %w", err)
	}
	fsys := os.DirFS(root)
	set := &Set{Diagnostics: diagnostics.List{}}
	byName := lookup{}
	var loaded []*skill.Skill
	var names, runnable []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		s, diags := skill.Load(fsys, e.Name(), &skill.LoadOptions{DiskRoot: root})
		set.Diagnostics = append(set.Diagnostics, diags...)
		if s == nil {
			continue
		}
		if _, dup := byName[s.Name]; dup {
			return nil, fmt.Errorf("two folders in %s hold a skill named %q", root, s.Name)
		}
		byName[s.Name] = s
		loaded = append(loaded, s)
		names = append(names, s.Name)
		if s.Runnable() {
			runnable = append(runnable, s.Name)
		}
	}
	if len(loaded) == 0 {
		return nil, errors.New("no skill could be loaded from " + root)
	}
	slices.SortFunc(loaded, func(a, b *skill.Skill) int { return strings.Compare(a.Name, b.Name) })

	read, err := tools.ReadSkill(byName, names, nil)
	if err != nil {
		return nil, err
	}
	readFile, err := tools.ReadSkillFile(byName, names, nil)
	if err != nil {
		return nil, err
	}
	set.Tools = []tools.Tool{read, readFile}
	if len(runnable) > 0 {
		execute, err := tools.ExecuteSkill(executor.New(byName, nil), runnable)
		if err != nil {
			return nil, err
		}
		set.Tools = append(set.Tools, execute)
	}
	catalog := prompt.Catalog(loaded, nil)
	set.Catalog = catalog.Text
	set.Diagnostics = append(set.Diagnostics, catalog.Diagnostics...).Sorted()
	return set, nil
}

// lookup finds a loaded skill by name, for the tools and the executor.
type lookup map[string]*skill.Skill

// Get returns the skill called name.
func (l lookup) Get(name string) (*skill.Skill, bool) {
	s, ok := l[name]
	return s, ok
}
