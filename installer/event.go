package installer

import "github.com/skillkit-go/skillkit/internal/skillsdir"

// Event is one step of an install, update or uninstall, for a host to show:
// it forwards the events with Done false as skill_install_progress {step,
// percent, message} and the final one as skill_install_done {name,
// success, error}. Its fields: Op, Skill (once known: a ZIP's name is
// known after the validate step), Source (as shown to people), Step,
// Percent (0 to 100, rising), Message (one line for people), Done (the
// final event) and Err (the final event only: nil on success). Its JSON
// form has "success" and "error" (a string) in place of Err. The
// dependency and authoring packages report their operations with the same
// type.
//
// The steps, in order: "fetch" (cloning, extracting or copying into the
// staging area), "check" (the archive and folder checks passed),
// "validate" (SKILL.md loaded and the name checked), "fingerprint",
// "scan" (with a Scanner), "swap" (the new version into place, the record
// written); "check-remote" for an update asking its remote first; "remove"
// for an uninstall; "done" on the final event.
type Event = skillsdir.Event

// Op names what an [Event] is about.
type Op = skillsdir.Op

// Step names a stage of an operation, in the order they happen.
type Step = skillsdir.Step

// The operations of this package.
const (
	OpInstall   = skillsdir.OpInstall
	OpUpdate    = skillsdir.OpUpdate
	OpUninstall = skillsdir.OpUninstall
	OpSync      = skillsdir.OpSync     // a replica placing or removing a skill as the shared registry says
	OpRollback  = skillsdir.OpRollback // a version from the skill's history restored (Rollback)
)
