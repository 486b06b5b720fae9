package skillsdir

import (
	"encoding/json"
	"fmt"
)

// Step names a stage of an operation, in the order they happen.
type Step string

// The steps an [Event] reports.
const (
	StepFetch       Step = "fetch"        // cloning, extracting or copying into the staging area
	StepCheck       Step = "check"        // the archive and folder checks passed
	StepValidate    Step = "validate"     // SKILL.md loaded and the name checked
	StepFingerprint Step = "fingerprint"  // the staged files hashed
	StepScan        Step = "scan"         // the Scanner ran (only with a Scanner)
	StepSwap        Step = "swap"         // moving the new version into place, writing the record
	StepRemove      Step = "remove"       // uninstall: moving the skill out, deleting the record
	StepCheckRemote Step = "check-remote" // update: asking the remote for its latest commit
	StepDone        Step = "done"         // the final event: Done is true, Err says how it ended

	// The steps of InstallDeps, in order; their events carry the log lines.
	StepPython Step = "python" // a venv and the Python requirements
	StepNode   Step = "node"   // npm packages into node_modules
	StepDotnet Step = "dotnet" // dotnet restore
	StepSystem Step = "system" // the system dependencies' checks
	StepSetup  Step = "setup"  // the setup script

	// StepWrite: Create and Edit writing the agent's files into staging.
	StepWrite Step = "write"
)

// Op names what an [Event] is about.
type Op string

// The operations that report progress.
const (
	OpInstall   Op = "install"
	OpUpdate    Op = "update"
	OpUninstall Op = "uninstall"
	OpDeps      Op = "deps"     // InstallDeps: a host forwards these as skill_deps_progress
	OpCreate    Op = "create"   // an agent's new skill
	OpEdit      Op = "edit"     // an agent's change to a skill
	OpDelete    Op = "delete"   // an agent removing a skill
	OpSync      Op = "sync"     // a replica placing or removing a skill as the shared registry says
	OpRollback  Op = "rollback" // a version from the skill's history restored
)

// Event is one step of an operation, for a host to show: it forwards the
// events with Done false as skill_install_progress {step, percent, message}
// and the final one as skill_install_done {name, success, error}; for
// OpDeps, as skill_deps_progress and skill_deps_done, where each event's
// Message is one log line (a command, or a line of its output once it
// ended: a Runner returns output when the command ends, not while it runs).
type Event struct {
	Op      Op     // install, update or uninstall
	Skill   string // the skill's name, once known (a ZIP's name is known after validate)
	Source  string // the source as shown to people (a URL, a file, a folder)
	Step    Step   // what is happening; StepDone on the final event
	Percent int    // 0 to 100, rising
	Message string // one line for people
	Done    bool   // the final event of the operation
	Err     error  // the final event only: nil on success
}

// MarshalJSON writes the event with "success" and "error" (a string) in
// place of Err.
func (e Event) MarshalJSON() ([]byte, error) {
	type out struct {
		Op      Op     `json:"op"`
		Skill   string `json:"skill,omitempty"`
		Source  string `json:"source,omitempty"`
		Step    Step   `json:"step"`
		Percent int    `json:"percent"`
		Message string `json:"message,omitempty"`
		Done    bool   `json:"done"`
		Success *bool  `json:"success,omitempty"`
		Error   string `json:"error,omitempty"`
	}
	o := out{e.Op, e.Skill, e.Source, e.Step, e.Percent, e.Message, e.Done, nil, ""}
	if e.Done {
		ok := e.Err == nil
		o.Success = &ok
		if e.Err != nil {
			o.Error = e.Err.Error()
		}
	}
	return json.Marshal(o)
}

// Reporter sends one operation's events to a progress function.
type Reporter struct {
	fn      func(Event)
	op      Op
	skill   string
	source  string
	percent int
}

// NewReporter returns a Reporter for one operation; fn may be nil (no
// events).
func NewReporter(fn func(Event), op Op, skillName, source string) *Reporter {
	return &Reporter{fn: fn, op: op, skill: skillName, source: source}
}

// Op is the operation the events are about.
func (r *Reporter) Op() Op { return r.op }

// SetSkill names the skill once it is known (after a ZIP's SKILL.md was
// read).
func (r *Reporter) SetSkill(name string) { r.skill = name }

// SetSource sets the source as shown to people.
func (r *Reporter) SetSource(source string) { r.source = source }

// Step reports a step; percentages never go down.
func (r *Reporter) Step(s Step, percent int, format string, args ...any) {
	if r.fn == nil {
		return
	}
	r.percent = max(r.percent, percent)
	r.fn(Event{Op: r.op, Skill: r.skill, Source: r.source, Step: s, Percent: r.percent, Message: fmt.Sprintf(format, args...)})
}

// Done reports the end: success or err.
func (r *Reporter) Done(err error) {
	if r.fn == nil {
		return
	}
	msg, percent := "done", 100
	if err != nil {
		msg, percent = err.Error(), r.percent
	}
	r.fn(Event{Op: r.op, Skill: r.skill, Source: r.source, Step: StepDone, Percent: percent, Message: msg, Done: true, Err: err})
}
