package deps

import "github.com/skillkit-go/skillkit/internal/skillsdir"

// Event is one log line of an Install, or its final event (Done true, Err
// how it ended), with Op OpDeps; it is the type the installer package
// reports with (see installer.Event for its fields).
type Event = skillsdir.Event

// Op names what an [Event] is about.
type Op = skillsdir.Op

// Step names a kind of dependency, or the setup script.
type Step = skillsdir.Step

// OpDeps is the operation of Install's events.
const OpDeps = skillsdir.OpDeps

// The steps of Install, in order; their events carry the log lines.
const (
	StepPython = skillsdir.StepPython // a venv and the Python requirements
	StepNode   = skillsdir.StepNode   // npm packages into node_modules
	StepDotnet = skillsdir.StepDotnet // dotnet restore
	StepSystem = skillsdir.StepSystem // the system dependencies' checks
	StepSetup  = skillsdir.StepSetup  // the setup script
)
