// Package skillset opens a skills folder with skillkit's Kit and returns what
// the model gets: the tools and the catalog. The example programs that are
// modules of their own (mcp-server, openai, anthropic) share it: Go allows an
// internal package to every import path under its parent, whatever module
// holds it.
package skillset

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/tools"
)

// Set is the tool set of one skills folder.
type Set struct {
	// Tools are read_skill, read_skill_file, execute_skill when a
	// compute-entry skill can run, and skill_manage.
	Tools []tools.Tool
	// Catalog is the <available_skills> section for the system prompt.
	Catalog string
	// Diagnostics holds what loading found (skills that could not be loaded
	// included) and the Toolset's warnings are folded into them as the Kit
	// reports them.
	Diagnostics diagnostics.List

	kit *skillkit.Kit
}

// Close releases the skills folder; the tools must not be called
// afterwards.
func (s *Set) Close() error { return s.kit.Close() }

// Load opens dir with skillkit.Open and resolves the tools of an agent that
// has a bash tool (so compute-toolkit skills are offered too). Unlike Open,
// which creates a missing skills folder for a host's first run, it refuses
// one: a folder given on a command line that does not exist is a typo.
func Load(ctx context.Context, dir string) (*Set, error) {
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("skills folder: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("skills folder: %s is not a folder", dir)
	}
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir})
	if err != nil {
		return nil, err
	}
	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		return nil, errors.Join(err, kit.Close())
	}
	diags, err := kit.Doctor(ctx)
	if err != nil {
		return nil, errors.Join(err, kit.Close())
	}
	if len(ts.Visibility.Catalog) == 0 {
		return nil, errors.Join(fmt.Errorf("no skill in %s can be offered (%d diagnostics)", dir, len(diags)), kit.Close())
	}
	return &Set{Tools: ts.Tools, Catalog: ts.Prompt, Diagnostics: diags, kit: kit}, nil
}
