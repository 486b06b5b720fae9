package authoring

import "github.com/skillkit-go/skillkit/internal/skillsdir"

// Event is one step of a Create, Edit or Delete, or its final event; it is
// the type the installer package reports with (see installer.Event for its
// fields).
type Event = skillsdir.Event

// Op names what an [Event] is about.
type Op = skillsdir.Op

// Step names a stage of an operation.
type Step = skillsdir.Step

// The operations of this package.
const (
	OpCreate = skillsdir.OpCreate // an agent's new skill
	OpEdit   = skillsdir.OpEdit   // an agent's change to a skill
	OpDelete = skillsdir.OpDelete // an agent removing a skill
)

// The steps Create and Edit report (Delete reports StepRemove).
const (
	StepWrite       = skillsdir.StepWrite       // writing the agent's files into staging
	StepCheck       = skillsdir.StepCheck       // the folder checks passed
	StepValidate    = skillsdir.StepValidate    // SKILL.md loaded and the name checked
	StepFingerprint = skillsdir.StepFingerprint // the staged files hashed
	StepSwap        = skillsdir.StepSwap        // moving the skill into place, writing the record
	StepRemove      = skillsdir.StepRemove      // Delete: moving the skill out, deleting the record
	StepDone        = skillsdir.StepDone        // the final event
	// StepPropose: the write went to the proposal queue instead of the
	// skills folder; a person reviews it.
	StepPropose Step = "propose"
)
