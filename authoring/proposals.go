package authoring

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/filelock"
	"github.com/skillkit-go/skillkit/internal/linediff"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

// Bounds of the proposal queue of one skills folder.
const (
	// MaxProposals bounds the skills waiting for review at once; a newer
	// proposal for a skill replaces the older and does not count twice.
	MaxProposals = 64
	// MaxQueueBytes bounds the queue's files on disk together.
	MaxQueueBytes = 64 << 20
)

// ProposalsDir is the queue in the skills folder: one file NAME.json per
// skill, written atomically under the skill's lock.
const ProposalsDir = registry.HubDir + "/proposals"

// queueLock serializes the writers of the queue, so its bounds hold across
// processes; it starts with a dot, which no skill name does.
const queueLock = ProposalsDir + "/.lock"

// proposalVersion is the format of the queue's files.
const proposalVersion = 1

// The actions a [Proposal] applies.
const (
	ActionCreate = "create" // a new skill
	ActionEdit   = "edit"   // a change to a live skill
)

// Proposal is an agent's Create or Edit waiting in the queue for a
// person's review: what the agent asked to write, who asked, when, what
// the scan said, and the live version it was made against. Nothing of it
// is in the skill folder; the loader never lists it.
type Proposal struct {
	// ID names this proposal; a newer proposal for the skill has another.
	ID     string `json:"id"`
	Name   string `json:"name"`
	Action string `json:"action"` // ActionCreate or ActionEdit
	// Agent is the agent the skill_manage call was for
	// (executor.WithAgent, tools.Agent.Name); "" when unnamed.
	Agent   string    `json:"agent,omitempty"`
	Created time.Time `json:"created"`
	// Base is the fingerprint of the live skill the edit was made against;
	// "" for a create.
	Base string `json:"base,omitempty"`
	// Reason says why the write waits: the scan's verdict and worst
	// findings, or the host's rule that every agent write is reviewed.
	Reason   string            `json:"reason"`
	Trust    scan.Trust        `json:"trust"`
	Decision scan.Decision     `json:"decision"`
	Scan     scan.Report       `json:"scan"`
	Content  string            `json:"content,omitempty"` // the new SKILL.md; "" keeps the live one (edit)
	Files    map[string][]byte `json:"files,omitempty"`   // files written, by slash path
	Remove   []string          `json:"remove_files,omitempty"`

	// Set when the queue is read, never stored:

	// Stale is true when the live skill changed since Base (an edit), or a
	// skill of the name appeared (a create): approving then needs Force.
	Stale bool `json:"stale,omitempty"`
	// Damaged says why the queue's file for Name cannot be read; the
	// proposal can only be rejected.
	Damaged string `json:"damaged,omitempty"`
}

// FileChange is one file a proposal changes, with its unified diff against
// the live version.
type FileChange struct {
	Path   string `json:"path"`
	Change string `json:"change"` // "added", "modified" or "removed"
	Diff   string `json:"diff"`
}

// Review is a proposal with what it changes in the live skill.
type Review struct {
	Proposal
	Changes []FileChange `json:"changes"`
}

// ApproveOptions tune [Writer.ApproveProposal].
type ApproveOptions struct {
	// ID, when set, is the proposal the person saw: a newer one for the
	// same skill is refused with [ErrProposalChanged].
	ID string
	// Force applies an edit even though the live skill changed since the
	// proposal was made ([ErrStale] otherwise): the agent's changes go on
	// top of the current version.
	Force bool
}

// propose queues rq as a proposal instead of applying it; a holds the
// scan's verdict. The caller holds the skill's lock.
func (w *Writer) propose(ctx context.Context, rq request, a skillsdir.Admission, rep *skillsdir.Reporter) (*Result, error) {
	p := &Proposal{ID: newID(), Name: rq.name, Action: ActionEdit, Agent: executor.AgentFrom(ctx),
		Created: time.Now().UTC().Truncate(time.Millisecond), Reason: a.Why(), Trust: a.Trust, Decision: a.Decision,
		Scan: a.Report, Content: rq.content, Files: map[string][]byte{}, Remove: rq.remove}
	p.Scan.Path = ""
	for k, v := range rq.files {
		p.Files[k] = []byte(v)
	}
	if a.Decision == scan.Allow {
		p.Reason = "the host has every agent's write reviewed; " + p.Reason
	}
	if rq.create {
		p.Action = ActionCreate
	} else {
		fp, err := w.dir.Fingerprint(ctx, rq.name)
		if err != nil {
			return nil, err
		}
		p.Base = fp
	}
	superseded, err := w.enqueue(ctx, p)
	if err != nil {
		return nil, err
	}
	rep.SetSource("proposal")
	rep.Step(StepPropose, 90, "%s awaits a person's review", rq.name)
	if log := w.dir.Logger(); log != nil {
		log.InfoContext(ctx, "skill proposed", "skill", p.Name, "action", p.Action, "agent", p.Agent,
			"proposal", p.ID, "verdict", p.Scan.Verdict, "decision", p.Decision, "base", p.Base)
	}
	return &Result{Name: rq.name, Proposal: p, Superseded: superseded, Scan: &p.Scan}, nil
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// entryPath is the queue's file of a skill.
func entryPath(name string) string { return path.Join(ProposalsDir, name+".json") }

// enqueue writes p to the queue, replacing an earlier proposal for the
// skill (superseded), within the queue's bounds.
func (w *Writer) enqueue(ctx context.Context, p *Proposal) (superseded bool, err error) {
	data, err := json.Marshal(struct {
		Version int `json:"version"`
		*Proposal
	}{proposalVersion, p})
	if err != nil {
		return false, fmt.Errorf("authoring: %w", err)
	}
	root := w.dir.Root()
	if err := root.MkdirAll(ProposalsDir, skillsdir.DirPerm); err != nil {
		return false, fmt.Errorf("authoring: %w", err)
	}
	h, err := filelock.Lock(ctx, w.dir.OSPath(queueLock))
	if err != nil {
		return false, err
	}
	defer h.Unlock()
	names, sizes, err := w.queued()
	if err != nil {
		return false, err
	}
	count, total := 1, int64(len(data))
	for i, n := range names {
		if n == p.Name {
			superseded = true
			continue
		}
		count++
		total += sizes[i]
	}
	if count > MaxProposals || total > MaxQueueBytes {
		return false, fmt.Errorf("%w: %d skills (%d bytes) would wait for review; at most %d (%d bytes): a person must approve or reject some first (skillkit proposals)",
			ErrQueueFull, count, total, MaxProposals, MaxQueueBytes)
	}
	if err := atomicfile.WriteFile(root, entryPath(p.Name), data, 0o644); err != nil {
		return false, fmt.Errorf("authoring: %w", err)
	}
	return superseded, nil
}

// queued lists the names in the queue and the size of each file, by name.
func (w *Writer) queued() (names []string, sizes []int64, err error) {
	entries, err := fs.ReadDir(w.dir.Root().FS(), ProposalsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("authoring: reading the proposal queue: %w", err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() || checkName(name) != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		names, sizes = append(names, name), append(sizes, info.Size())
	}
	return names, sizes, nil
}

// readProposal reads the queue's file of name: [ErrNoProposal] when there
// is none, a *Proposal with Damaged set when it cannot be read.
func (w *Writer) readProposal(name string) (*Proposal, error) {
	f, err := w.dir.Root().Open(entryPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoProposal, name)
	}
	if err != nil {
		return nil, fmt.Errorf("authoring: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxQueueBytes+1))
	if err != nil {
		return nil, fmt.Errorf("authoring: %w", err)
	}
	p, err := ParseProposal(name, data)
	if err != nil {
		return &Proposal{Name: name, Damaged: err.Error()}, nil
	}
	return p, nil
}

// ParseProposal reads a file of the queue, whose name says it holds a
// proposal for the skill name, and checks everything in it by the rules
// an agent's write follows (name, content, paths, sizes).
func ParseProposal(name string, data []byte) (*Proposal, error) {
	if len(data) > MaxQueueBytes {
		return nil, fmt.Errorf("authoring: the proposal file has %d bytes; at most %d", len(data), MaxQueueBytes)
	}
	var e struct {
		Version *int `json:"version"`
		Proposal
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("authoring: the proposal file does not parse: %w", err)
	}
	if dec.More() {
		return nil, errors.New("authoring: the proposal file holds more than one value")
	}
	p := &e.Proposal
	bad := func(format string, args ...any) error {
		return fmt.Errorf("authoring: the proposal file: "+format, args...)
	}
	switch {
	case e.Version == nil || *e.Version != proposalVersion:
		return nil, bad("version is not %d", proposalVersion)
	case p.Name != name:
		return nil, bad("it names %q, not %q", p.Name, name)
	case len(p.ID) != 16 || !isLowerHex(p.ID):
		return nil, bad("the id %q is not 16 hex digits", p.ID)
	case p.Created.IsZero():
		return nil, bad("no creation time")
	case p.Action != ActionCreate && p.Action != ActionEdit:
		return nil, bad("unknown action %q", p.Action)
	case (p.Action == ActionCreate) != (p.Base == ""):
		return nil, bad("a create has no base fingerprint and an edit has one")
	case p.Base != "" && (!strings.HasPrefix(p.Base, registry.FingerprintPrefix) || len(p.Base) != len(registry.FingerprintPrefix)+64 || !isLowerHex(p.Base[len(registry.FingerprintPrefix):])):
		return nil, bad("the base %q is not a fingerprint", p.Base)
	case p.Decision != scan.Allow && p.Decision != scan.Ask:
		return nil, bad("the decision %q is not allow or ask", p.Decision)
	case p.Stale || p.Damaged != "":
		return nil, bad("it stores what is only known when the queue is read")
	}
	if _, err := scan.ParseTrust(string(p.Trust)); err != nil || string(p.Trust) != strings.ToLower(strings.TrimSpace(string(p.Trust))) {
		return nil, bad("the trust %q is not a trust level", p.Trust)
	}
	if err := checkRequest(name, p.Content, p.files(), p.Remove, p.Action == ActionCreate); err != nil {
		return nil, err
	}
	if len(p.Files) == 0 {
		p.Files = nil
	}
	if len(p.Remove) == 0 {
		p.Remove = nil
	}
	return p, nil
}

func isLowerHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// files returns the proposal's files as the Writer takes them.
func (p *Proposal) files() map[string]string {
	if p.Files == nil {
		return nil
	}
	out := make(map[string]string, len(p.Files))
	for k, v := range p.Files {
		out[k] = string(v)
	}
	return out
}

// request is what approving the proposal writes.
func (p *Proposal) request() request {
	return request{name: p.Name, content: p.Content, files: p.files(), remove: p.Remove, create: p.Action == ActionCreate, reviewed: true}
}

// stale reports whether the live skill moved from the proposal's base.
func (w *Writer) stale(ctx context.Context, p *Proposal) (bool, error) {
	present, err := w.dir.Exists(p.Name)
	if err != nil {
		return false, fmt.Errorf("authoring: %w", err)
	}
	if p.Action == ActionCreate {
		rec, err := w.dir.Record(ctx, p.Name)
		return present || rec != nil, err
	}
	if !present {
		return true, nil
	}
	fp, err := w.dir.Fingerprint(ctx, p.Name)
	if err != nil {
		return false, err
	}
	return fp != p.Base, nil
}

// Proposals lists the agents' writes waiting for review, by skill name,
// each with Stale set; a file of the queue that cannot be read is listed
// with Damaged.
func (w *Writer) Proposals(ctx context.Context) ([]Proposal, error) {
	names, _, err := w.queued()
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]Proposal, 0, len(names))
	for _, name := range names {
		p, err := w.Proposal(ctx, name)
		if errors.Is(err, ErrNoProposal) {
			continue // approved or rejected meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, nil
}

// Proposal returns the proposal for the skill name, with Stale set:
// [ErrNoProposal] when there is none.
func (w *Writer) Proposal(ctx context.Context, name string) (*Proposal, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	p, err := w.readProposal(name)
	if err != nil || p.Damaged != "" {
		return p, err
	}
	if p.Stale, err = w.stale(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// Review returns the proposal for the skill name with what it changes in
// the live skill: per file, whether it is added, modified or removed, and
// its unified diff (a/NAME/PATH against b/NAME/PATH).
func (w *Writer) Review(ctx context.Context, name string) (*Review, error) {
	p, err := w.Proposal(ctx, name)
	if err != nil {
		return nil, err
	}
	if p.Damaged != "" {
		return nil, fmt.Errorf("%w: the proposal for %s is damaged (%s); reject it", ErrNoProposal, name, p.Damaged)
	}
	r := &Review{Proposal: *p, Changes: []FileChange{}}
	live := func(rel string) ([]byte, bool) {
		if p.Action == ActionCreate {
			return nil, false
		}
		full := path.Join(name, rel)
		if info, err := w.dir.Root().Lstat(full); err != nil || !info.Mode().IsRegular() {
			return nil, false
		}
		data, err := w.dir.Root().ReadFile(full)
		return data, err == nil
	}
	change := func(rel string, next []byte, removed bool) {
		old, had := live(rel)
		c := FileChange{Path: rel, Change: "modified"}
		from, to := "a/"+name+"/"+rel, "b/"+name+"/"+rel
		switch {
		case removed:
			c.Change, to, next = "removed", "/dev/null", nil
		case !had:
			c.Change, from = "added", "/dev/null"
		}
		if c.Diff = linediff.Unified(from, to, old, next); c.Diff == "" && c.Change == "modified" {
			return // written as it was
		}
		r.Changes = append(r.Changes, c)
	}
	if p.Content != "" {
		change(skill.FileName, []byte(p.Content), false)
		if entries, err := fs.ReadDir(w.dir.Root().FS(), name); err == nil && p.Action == ActionEdit {
			for _, other := range skill.SkillFileNames(entries) {
				if other != skill.FileName {
					change(other, nil, true)
				}
			}
		}
	}
	for _, rel := range slices.Sorted(func(yield func(string) bool) {
		for k := range p.Files {
			if !yield(k) {
				return
			}
		}
	}) {
		change(rel, p.Files[rel], false)
	}
	for _, rel := range p.Remove {
		change(rel, nil, true)
	}
	sort.SliceStable(r.Changes, func(i, j int) bool { return r.Changes[i].Path < r.Changes[j].Path })
	return r, nil
}

// ApproveProposal applies the proposal for the skill name, as a person's
// decision: through the same checks, scan and transaction as an agent's
// Create or Edit, whose trust policy's ask this approval answers (a skill
// the policy blocks stays refused, [ErrScanRejected]: the scan runs again
// on what is applied, whatever it said when the proposal was made). An
// edit whose live skill changed since the proposal is refused with
// [ErrStale] unless opts.Force; a create whose name a skill took meanwhile
// fails with [ErrExists]. On success the proposal leaves the queue; on a
// refusal it stays, for a person to reject. opts may be nil.
func (w *Writer) ApproveProposal(ctx context.Context, name string, opts *ApproveOptions) (*Result, error) {
	var o ApproveOptions
	if opts != nil {
		o = *opts
	}
	unlock, err := w.hold(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p, err := w.readProposal(name)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Damaged != "":
		return nil, fmt.Errorf("%w: the proposal for %s is damaged (%s); reject it", ErrNoProposal, name, p.Damaged)
	case o.ID != "" && o.ID != p.ID:
		return nil, fmt.Errorf("%w: %s now has the proposal %s, not %s; review it again", ErrProposalChanged, name, p.ID, o.ID)
	}
	if stale, err := w.stale(ctx, p); err != nil {
		return nil, err
	} else if stale && p.Action == ActionEdit && !o.Force {
		return nil, fmt.Errorf("%w: %s changed since the agent's proposal was made; review it again and approve with force, or reject it", ErrStale, name)
	}
	op := OpEdit
	if p.Action == ActionCreate {
		op = OpCreate
	}
	rep := w.reporter(op, name, "review")
	if !skillsdir.NamesActor(ctx) {
		// The version is the agent's text, applied by the person who approved it.
		ctx = skillsdir.WithActor(ctx, skillsdir.ActorPerson)
	}
	rq := p.request()
	err = checkRequest(rq.name, rq.content, rq.files, rq.remove, rq.create)
	var res *Result
	if err == nil {
		res, err = w.apply(ctx, rq, rep)
	}
	if err == nil {
		err = w.dropProposal(ctx, name, "proposal approved", p)
	}
	rep.Done(err)
	return res, err
}

// RejectProposal removes the proposal for the skill name from the queue,
// unapplied: [ErrNoProposal] when there is none.
func (w *Writer) RejectProposal(ctx context.Context, name string) error {
	unlock, err := w.hold(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	p, err := w.readProposal(name)
	if err != nil {
		return err
	}
	return w.dropProposal(ctx, name, "proposal rejected", p)
}

// dropProposal removes the queue's file of name, if any, and writes the
// audit line msg about p (nil: nothing to say). The caller holds the
// skill's lock.
func (w *Writer) dropProposal(ctx context.Context, name, msg string, p *Proposal) error {
	err := w.dir.Root().Remove(entryPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("authoring: removing the proposal for %s: %w", name, err)
	}
	if err := atomicfile.SyncDir(w.dir.Root(), ProposalsDir); err != nil {
		return fmt.Errorf("authoring: %w", err)
	}
	if log := w.dir.Logger(); log != nil && p != nil {
		log.InfoContext(ctx, msg, "skill", name, "proposal", p.ID, "agent", p.Agent)
	}
	return nil
}
