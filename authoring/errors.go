package authoring

import "errors"

// Errors. Every error Create, Edit and Delete return for one of these
// conditions wraps the sentinel, so errors.Is finds it.
var (
	// ErrInvalidContent: what the agent asked to write breaks the rules of
	// Create and Edit (name, size, paths, frontmatter).
	ErrInvalidContent = errors.New("authoring: invalid skill content")
	// ErrExists: Create of a name a skill folder or record already has.
	ErrExists = errors.New("authoring: a skill of that name exists")
	// ErrNotAllowed: an agent's change to a skill it did not write without
	// Options.AgentMayChangeInstalled, or to the code skillkit runs for it
	// even with it.
	ErrNotAllowed = errors.New("authoring: not allowed")
	// ErrPinned: the skill is pinned; a person unpins it first.
	ErrPinned = errors.New("authoring: skill is pinned")
	// ErrNotInstalled: Edit or Delete of a name no skill folder has.
	ErrNotInstalled = errors.New("authoring: no such skill")
	// ErrScanRejected: the security scan and the trust policy for agents'
	// skills refuse what the agent wrote (by default: what the scan rates
	// dangerous). The error names the worst findings.
	ErrScanRejected = errors.New("authoring: refused by the security scan")
	// ErrQueueFull: the write would wait for review, but the proposal queue
	// is at its bounds (MaxProposals, MaxQueueBytes).
	ErrQueueFull = errors.New("authoring: the proposal queue is full")
	// ErrNoProposal: no proposal waits for the skill (or its file is
	// damaged and can only be rejected).
	ErrNoProposal = errors.New("authoring: no such proposal")
	// ErrStale: the live skill changed since the proposal was made;
	// ApproveOptions.Force applies it anyway.
	ErrStale = errors.New("authoring: the skill changed since the proposal")
	// ErrProposalChanged: a newer proposal replaced the one the person saw
	// (ApproveOptions.ID).
	ErrProposalChanged = errors.New("authoring: the proposal changed")
)
