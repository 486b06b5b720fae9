package deps

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/skillkit-go/skillkit/skill"
)

// State is what a skill declares and what of it is in place, found without
// running anything.
type State struct {
	// Declared are the kinds of dependency the skill declares, in order:
	// StepPython, StepNode, StepDotnet.
	Declared []Step `json:"declared,omitempty"`
	// Built are the declared kinds whose .venv or node_modules is in place
	// and was built from the requirements declared now. A .NET restore
	// leaves nothing in the skill, so it is never listed.
	Built []Step `json:"built,omitempty"`
	// Setup is the setup script the skill declares for this system, "" for
	// none.
	Setup string `json:"setup,omitempty"`
}

// Missing lists the declared kinds that are not built.
func (s State) Missing() []Step {
	var out []Step
	for _, d := range s.Declared {
		if !containsStep(s.Built, d) {
			out = append(out, d)
		}
	}
	return out
}

func containsStep(steps []Step, s Step) bool {
	for _, x := range steps {
		if x == s {
			return true
		}
	}
	return false
}

// State returns what skill name declares and what of it is in place. A
// declaration that does not check (a bad package name) counts as declared
// and not built: Install would refuse it and say why.
func (d *Installer) State(ctx context.Context, name string) (State, error) {
	if err := skill.ValidateKey(name); err != nil {
		return State{}, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	if err := ctx.Err(); err != nil {
		return State{}, err
	}
	return stateOf(d.dir.OSPath(name)), nil
}

// stateOf reads the state of the skill folder dir.
func stateOf(dir string) State {
	s, _ := skill.Load(os.DirFS(filepath.Dir(dir)), filepath.Base(dir), nil)
	if s == nil {
		return State{}
	}
	var st State
	if s.Config != nil {
		st.Setup = s.Config.Setup.Posix
		if runtime.GOOS == "windows" {
			st.Setup = s.Config.Setup.Win32
		}
	}
	plan, err := planDeps(s, os.DirFS(dir))
	if err != nil {
		python, node := s.DeclaredDeps()
		if python {
			st.Declared = append(st.Declared, StepPython)
		}
		if node {
			st.Declared = append(st.Declared, StepNode)
		}
		return st
	}
	for _, b := range builders(plan) {
		st.Declared = append(st.Declared, b.step)
		if b.target != "" && upToDate(os.DirFS(filepath.Dir(dir)), filepath.Base(dir)+"/"+b.target, b.stamp(os.DirFS(dir)), b.marker) {
			st.Built = append(st.Built, b.step)
		}
	}
	return st
}

// Keep returns what an installed skill (the folder oldDir) has built that
// its new version (the folder newDir, staged) can take over as it is: its
// .venv and node_modules, when they were built from the requirements the
// new version declares. The skills folder calls it when an update replaces
// a skill, and moves them over, so an update that leaves the requirements
// alone needs no new dependency install.
func Keep(oldDir, newDir string) []string {
	s, _ := skill.Load(os.DirFS(filepath.Dir(newDir)), filepath.Base(newDir), nil)
	if s == nil {
		return nil
	}
	plan, err := planDeps(s, os.DirFS(newDir))
	if err != nil {
		return nil
	}
	var keep []string
	old := os.DirFS(oldDir)
	for _, b := range builders(plan) {
		if b.target != "" && upToDate(old, b.target, b.stamp(os.DirFS(newDir)), b.marker) {
			keep = append(keep, b.target)
		}
	}
	return keep
}
