package authoring

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

// Limits of what an agent may write with Create and Edit.
const (
	// MaxContentChars bounds SKILL.md, in characters.
	MaxContentChars = 100_000
	// MaxFileBytes bounds each attached file.
	MaxFileBytes = 1 << 20
	// MaxFiles bounds the files written (or removed) by one call.
	MaxFiles = 100
	// MaxTotalBytes bounds the files written by one call together.
	MaxTotalBytes = 10 << 20
)

// Options tune a [Writer]. A nil *Options means the defaults.
type Options struct {
	// AgentMayChangeInstalled lets Edit and Delete change skills that were
	// not written by an agent (installed from GitHub, git, a ZIP or a
	// folder, or placed by hand). Default false: an agent changes only the
	// skills it wrote.
	//
	// Even with it, an agent never writes or removes the code skillkit runs
	// for such a skill (deps.CodePaths: its entrypoint, setup scripts,
	// requirements file and .NET project, the folders holding them,
	// everything under scripts/ of a skill with a runtime or an entrypoint,
	// and package.json's file: dependencies); nor may it change the install
	// specs in its frontmatter ([ErrNotAllowed]). What remains is the risk
	// of the option: the model rewrites the instructions (SKILL.md) of a
	// skill a person chose, and its references, templates and assets — text
	// that steers the model, including the commands it runs with its own
	// shell tool, under the trust the person gave the original. The record
	// keeps its origin, so the change shows as FINGERPRINT_CHANGED and an
	// update refuses it without Force; deleting such a skill deletes code a
	// person installed.
	AgentMayChangeInstalled bool
	// ReviewAgentWrites sends every Create and Edit to the proposal queue,
	// even those the trust policy allows (a safe verdict): nothing an agent
	// writes counts before a person approves it ([Writer.ApproveProposal]).
	// Without it only the writes the policy asks about wait (by default,
	// those the scan rates caution); blocked ones are refused either way.
	// Deletes never wait (docs/decisions.md).
	ReviewAgentWrites bool
	// Progress, when set, receives the steps of every Create, Edit and
	// Delete, then one final event. It is called on the goroutine doing the
	// work and must return quickly.
	Progress func(Event)
}

// Writer writes the skills agents author into one skills folder. It is
// safe for concurrent use; operations on one skill are serialized with
// every other operation on it (installs, updates, dependency builds).
type Writer struct {
	dir                *skillsdir.Dir
	mayChangeInstalled bool
	review             bool
	progress           func(Event)
}

// New returns a Writer on the skills folder dir. It does no I/O. Hosts get
// one from skillkit.Kit, which shares the folder with the install and
// dependency packages. opts may be nil.
func New(dir *skillsdir.Dir, opts *Options) *Writer {
	w := &Writer{dir: dir}
	if opts != nil {
		w.mayChangeInstalled, w.progress = opts.AgentMayChangeInstalled, opts.Progress
		w.review = opts.ReviewAgentWrites
	}
	return w
}

// Result says what Create, Edit or ApproveProposal did.
type Result struct {
	// Name is the skill's name, which is also its folder.
	Name string `json:"name"`
	// Proposal, when set, says the write was not applied: it waits in the
	// proposal queue for a person's review, and Record, Previous and
	// Replaced are empty.
	Proposal *Proposal `json:"proposal,omitempty"`
	// Superseded is true when Proposal replaced an earlier proposal for
	// the same skill, which was never applied.
	Superseded bool `json:"superseded,omitempty"`
	// Scan is the security scan of what was written.
	Scan *scan.Report `json:"scan,omitempty"`
	// Record is what the registry holds now.
	Record registry.Record `json:"record"`
	// Previous is the record replaced by an Edit; nil after a Create.
	Previous *registry.Record `json:"previous,omitempty"`
	// Replaced is true when a skill folder was replaced (an Edit).
	Replaced bool `json:"replaced"`
	// Diagnostics are the findings of the lenient load, with paths in the
	// installed folder.
	Diagnostics diagnostics.List `json:"diagnostics,omitempty"`
}

func (w *Writer) reporter(op Op, name, source string) *skillsdir.Reporter {
	return skillsdir.NewReporter(w.progress, op, name, source)
}

// isAgentFolder reports whether an agent may write files into the skill's
// top folder dir: references, templates and scripts, and the Agent Skills
// specification's assets.
func isAgentFolder(dir string) bool {
	switch dir {
	case "references", "templates", "scripts", "assets":
		return true
	}
	return false
}

// Create writes a new skill that an agent authored (skill_manage create)
// into the skills folder: SKILL.md holding content, and files (slash paths
// relative to the skill folder, to their text). The rules:
//
//   - name follows the naming rules (skill.ValidateName, NFKC form), and no
//     skill folder or record of that name exists ([ErrExists]);
//   - content is at most MaxContentChars characters of UTF-8 and loads
//     as a skill (lenient): its frontmatter has a description and names
//     the skill, with exactly name;
//   - each file lies under references/, templates/, scripts/ or assets/,
//     is written in clean form (no "..", no absolute path, no backslash, no
//     hidden or infrastructure names, no characters Windows cannot store),
//     and holds at most MaxFileBytes; at most MaxFiles files and
//     MaxTotalBytes in all. So an agent cannot write
//     skill.config.yaml, requirements.txt or package.json: its skills have
//     no entrypoint, dependencies or setup script, and nothing it writes
//     is ever run by skillkit. Files are written without the executable
//     bit.
//
// Refusals wrap [ErrInvalidContent]. The skill is written through the same
// staging, checks, fingerprint and atomic swap as an install and recorded
// with source agent; metadata.env in its frontmatter becomes its env schema
// (Skill.Env), which the secrets vault then lists and checks. An env entry
// may have a name, a description and required, but no default: the agent
// would choose a value that is injected into processes.
//
// The scan's verdict is weighed with agent trust: a skill the trust policy
// blocks (by default: rated dangerous) is refused with [ErrScanRejected];
// one it asks about (by default: rated caution), and with
// Options.ReviewAgentWrites every one, is not written but queued as a
// [Proposal] for a person's review: Result.Proposal is then set, and the
// skill is not listed until [Writer.ApproveProposal]. A newer proposal for
// the same name replaces the older.
func (w *Writer) Create(ctx context.Context, name, content string, files map[string]string) (*Result, error) {
	rep := w.reporter(OpCreate, name, "agent")
	res, err := w.write(agentActor(ctx), request{name: name, content: content, files: files, create: true}, rep)
	rep.Done(err)
	return res, err
}

// Edit changes a skill that an agent wrote (skill_manage edit): content,
// when not empty, replaces SKILL.md; files are written (added or
// replaced); remove names files to delete. Everything else stays. The
// rules of [Writer.Create] apply to the result, and the frontmatter must
// still name the skill name. A skill the agent did not write (installed
// from GitHub, git, a ZIP or a folder, or placed by hand) is refused with
// [ErrNotAllowed] unless Options.AgentMayChangeInstalled; such an edit
// keeps the skill's record, fingerprint included, so the change shows as a
// local edit (FINGERPRINT_CHANGED; Update refuses it without Force), and
// may still not touch the code skillkit runs for the skill nor its install
// specs (see the option; [ErrNotAllowed]). A pinned skill is refused with
// [ErrPinned]. The skill's .venv and node_modules are not carried over: an
// edit may change what it needs. The scan and the proposal queue work as
// in Create: an edit waiting for review leaves the live skill as it is,
// and records the live version's fingerprint it was made against.
func (w *Writer) Edit(ctx context.Context, name, content string, files map[string]string, remove []string) (*Result, error) {
	rep := w.reporter(OpEdit, name, "agent")
	res, err := w.write(agentActor(ctx), request{name: name, content: content, files: files, remove: remove}, rep)
	rep.Done(err)
	return res, err
}

// Delete removes a skill that an agent wrote (skill_manage delete), as
// Uninstall does, atomically. Skills the agent did not write are refused
// as in Edit; pinned ones with ErrPinned. Saved secrets are never purged by
// an agent: they stay until an Uninstall with Purge. A delete never waits
// for review; it withdraws the agent's pending proposal for the skill, and
// a name that is only a proposal is deleted by withdrawing it.
func (w *Writer) Delete(ctx context.Context, name string) error {
	rep := w.reporter(OpDelete, name, "agent")
	err := w.delete(agentActor(ctx), name, rep)
	rep.Done(err)
	return err
}

// agentActor names the agent the call is for (executor.WithAgent) as the
// actor of the versions its change records, unless ctx names one already.
func agentActor(ctx context.Context) context.Context {
	if name := executor.AgentFrom(ctx); name != "" && !skillsdir.NamesActor(ctx) {
		return skillsdir.WithActor(ctx, name)
	}
	return ctx
}

// hold checks the name of a skill and takes its lock.
func (w *Writer) hold(ctx context.Context, name string) (unlock func(), err error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return w.dir.Hold(ctx, name)
}

func (w *Writer) delete(ctx context.Context, name string, rep *skillsdir.Reporter) error {
	unlock, err := w.hold(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	p, qerr := w.readProposal(name)
	if qerr == nil {
		// Withdrawing a skill that is only a proposal removes the proposal.
		if present, err := w.dir.Exists(name); err != nil || !present {
			if err != nil {
				return fmt.Errorf("authoring: %w", err)
			}
			return w.dropProposal(ctx, name, "proposal withdrawn", p)
		}
	}
	_, err = w.dir.Remove(ctx, name, false, func(_ context.Context, prev *registry.Record, present bool) error {
		return w.mayChange(name, prev, present)
	}, rep)
	if err == nil && qerr == nil {
		// A proposal against the removed skill has nothing left to change.
		err = w.dropProposal(ctx, name, "proposal withdrawn", p)
	}
	return err
}

// mayChange applies the rules of Edit and Delete to an existing skill.
func (w *Writer) mayChange(name string, prev *registry.Record, present bool) error {
	if !present {
		return fmt.Errorf("%w: %s has no skill folder", ErrNotInstalled, name)
	}
	agent := prev != nil && prev.Source == registry.SourceAgent
	if !agent && !w.mayChangeInstalled {
		from := "placed by hand"
		if prev != nil {
			from = "installed from " + string(prev.Source)
		}
		return fmt.Errorf("%w: %s was %s, not written by an agent; an agent may change only the skills it wrote", ErrNotAllowed, name, from)
	}
	if prev != nil && prev.Pinned {
		return fmt.Errorf("%w: %s; unpin it to let an agent change it", ErrPinned, name)
	}
	return nil
}

func checkName(name string) error {
	if err := skill.ValidateName(name); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidContent, err)
	}
	if name != skill.NormalizeName(name) {
		return fmt.Errorf("%w: %q is not in NFKC form", ErrInvalidContent, name)
	}
	return nil
}

// checkRequest checks everything of a Create or Edit that needs no
// disk: the name, the content, the paths and sizes.
func checkRequest(name, content string, files map[string]string, remove []string, create bool) error {
	if err := checkName(name); err != nil {
		return err
	}
	switch {
	case create && strings.TrimSpace(content) == "":
		return fmt.Errorf("%w: create needs the content of SKILL.md", ErrInvalidContent)
	case !create && content == "" && len(files) == 0 && len(remove) == 0:
		return fmt.Errorf("%w: edit needs content, files or files to remove", ErrInvalidContent)
	case !utf8.ValidString(content):
		return fmt.Errorf("%w: the content is not valid UTF-8", ErrInvalidContent)
	case len(content) > 4*MaxContentChars || utf8.RuneCountInString(content) > MaxContentChars:
		return fmt.Errorf("%w: the content has %d characters; SKILL.md may have at most %d (put long material in references/)", ErrInvalidContent, utf8.RuneCountInString(content), MaxContentChars)
	case len(files)+len(remove) > MaxFiles:
		return fmt.Errorf("%w: %d files; at most %d per call", ErrInvalidContent, len(files)+len(remove), MaxFiles)
	}
	total := 0
	for p, data := range files {
		if err := checkPath(p); err != nil {
			return err
		}
		if len(data) > MaxFileBytes {
			return fmt.Errorf("%w: %s has %d bytes; a file may have at most %d", ErrInvalidContent, p, len(data), MaxFileBytes)
		}
		total += len(data)
	}
	if total > MaxTotalBytes {
		return fmt.Errorf("%w: the files hold %d bytes; at most %d per call", ErrInvalidContent, total, MaxTotalBytes)
	}
	for _, p := range remove {
		if err := checkPath(p); err != nil {
			return err
		}
		if _, ok := files[p]; ok {
			return fmt.Errorf("%w: %s is both written and removed", ErrInvalidContent, p)
		}
	}
	return nil
}

// checkPath checks the path of a file an agent writes or removes.
func checkPath(p string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: file %q: %s", ErrInvalidContent, p, why)
	}
	if err := skill.CheckPath(p); err != nil {
		if clean, cerr := skill.CleanRelPath(p); cerr == nil {
			return bad(fmt.Sprintf("write it as %q: a relative path with \"/\", no \"..\", \".\" or empty parts", clean))
		}
		return bad(err.Error())
	}
	parts := strings.Split(p, "/")
	if len(parts) < 2 || !isAgentFolder(parts[0]) {
		return bad("files go under references/, templates/, scripts/ or assets/")
	}
	for _, e := range parts[1:] {
		if strings.HasPrefix(e, ".") || skill.IsInfraDir(e) {
			return bad(fmt.Sprintf("%q is a hidden or reserved name", e))
		}
	}
	return nil
}

// request is one Create or Edit.
type request struct {
	name, content string
	files         map[string]string
	remove        []string
	create        bool
	// reviewed: a person approved this write (ApproveProposal), which
	// answers the trust policy's ask.
	reviewed bool
}

// write is Create and Edit.
func (w *Writer) write(ctx context.Context, rq request, rep *skillsdir.Reporter) (*Result, error) {
	if err := checkRequest(rq.name, rq.content, rq.files, rq.remove, rq.create); err != nil {
		return nil, err
	}
	unlock, err := w.dir.Hold(ctx, rq.name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return w.apply(ctx, rq, rep)
}

// apply writes rq, checked, into the skills folder, or into the proposal
// queue when the trust policy asks a person (or the host reviews every
// agent write) and no person approved it yet. The caller holds the skill's
// lock.
func (w *Writer) apply(ctx context.Context, rq request, rep *skillsdir.Reporter) (*Result, error) {
	name, content, files, remove, create := rq.name, rq.content, rq.files, rq.remove, rq.create
	prev, err := w.dir.Record(ctx, name)
	if err != nil {
		return nil, err
	}
	present, err := w.dir.Exists(name)
	if err != nil {
		return nil, fmt.Errorf("authoring: %w", err)
	}
	rec := registry.Record{Name: name, Source: registry.SourceAgent}
	if create {
		if present || prev != nil {
			return nil, fmt.Errorf("%w: a skill named %s already exists; edit it, or choose another name", ErrExists, name)
		}
	} else {
		if err := w.mayChange(name, prev, present); err != nil {
			if _, qerr := w.readProposal(name); !present && !rq.reviewed && qerr == nil {
				return nil, fmt.Errorf("%w: %s is not a skill yet: it awaits a person's review as a proposal; to change the proposal, create the skill again with all of it", ErrNotInstalled, name)
			}
			return nil, err
		}
		switch {
		case prev == nil: // placed by hand, changed with the host's leave
			rec = registry.Record{Name: name, Source: registry.SourceLocal}
		case prev.Source != registry.SourceAgent: // keeps its origin; the change shows as an edit
			rec = *prev
		}
	}

	t, err := w.dir.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer t.End()
	root := w.dir.Root()
	tree := t.Staging(skillsdir.TreeName)
	if err := root.Mkdir(tree, skillsdir.DirPerm); err != nil {
		return nil, fmt.Errorf("authoring: %w", err)
	}
	rep.Step(StepWrite, 10, "writing %s", name)
	var guard *guard
	if !create {
		if check, err := archive.CopyDir(ctx, w.dir.OSPath(name), w.dir.OSPath(tree), w.dir.Limits()); err != nil {
			return nil, refusal(check, err)
		}
		if rec.Source != registry.SourceAgent {
			old, diags := skill.Load(osfs.Dir(t.StagingOS()), skillsdir.TreeName, nil)
			guard = newGuard(old, diags)
			if err := guard.check(name, files, remove); err != nil {
				return nil, err
			}
		}
	}
	if err := w.writeFiles(tree, content, files, remove); err != nil {
		return nil, err
	}
	if err := t.Fault("write"); err != nil {
		return nil, err
	}
	check, err := archive.CheckDir(ctx, w.dir.OSPath(tree), w.dir.Limits())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidContent, refusal(check, err))
	}
	rep.Step(StepCheck, 40, "%d files checked", len(check.Valid))

	s, diags := skill.Load(osfs.Dir(t.StagingOS()), skillsdir.TreeName, nil)
	if err := skillsdir.CheckStaged(s, diags); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidContent, err)
	}
	if s.Name != name {
		return nil, fmt.Errorf("%w: the frontmatter names the skill %q; it must be %q", ErrInvalidContent, s.Name, name)
	}
	if content != "" {
		if err := checkEnv(s.Frontmatter.Env); err != nil {
			return nil, err
		}
		if err := guard.checkInstall(name, s); err != nil {
			return nil, err
		}
	}
	rep.Step(StepValidate, 55, "%s is a valid %s skill", s.Name, s.Class)
	// What an agent writes is the agent's, whatever the record it keeps:
	// the scan's verdict is weighed with agent trust.
	a, err := w.dir.Admit(ctx, s, registry.Record{Name: name, Source: registry.SourceAgent})
	if err == nil {
		a.Grant(nil) // an agent's skill that asks to reach more needs a person
	}
	if err != nil {
		return nil, err
	}
	switch {
	case a.Decision == scan.Block || a.Lifted:
		return nil, fmt.Errorf("%w: %s; a person must review such a skill and install it", ErrScanRejected, a.Why())
	case rq.reviewed: // a person approved it: that answers an ask
	case a.Decision == scan.Ask || w.review:
		return w.propose(ctx, rq, a, rep)
	}
	fp, err := registry.Fingerprint(ctx, osfs.Dir(w.dir.OSPath(tree)), ".")
	if err != nil {
		return nil, err
	}
	if rec.Source == registry.SourceAgent {
		rec.Version, rec.Fingerprint = s.Frontmatter.Version, fp
	}
	t.SetFingerprint(fp)
	rep.Step(StepFingerprint, 65, "%s", fp)
	if err := skillsdir.SyncTree(w.dir.OSPath(tree)); err != nil {
		return nil, fmt.Errorf("authoring: syncing the staged skill: %w", err)
	}
	// An agent's change never waits for a person's edits: they are the
	// agent's own (or, by the host's leave, keep the installed record).
	sw, err := w.dir.Swap(ctx, t, rec, func(context.Context, *registry.Record, bool) error { return nil }, rep)
	if err != nil {
		return nil, err
	}
	return &Result{Name: name, Scan: &a.Report, Record: sw.Record, Previous: sw.Previous, Replaced: sw.Replaced, Diagnostics: skillsdir.InstalledDiagnostics(diags, w.dir.OSPath(name))}, nil
}

// refusal wraps a refusal of the archive and folder checks with
// ErrInvalidContent; other errors pass as they are.
func refusal(rep archive.Report, err error) error {
	if skillsdir.IsRefusal(rep, err) {
		return fmt.Errorf("%w: %w", ErrInvalidContent, err)
	}
	return err
}

// checkEnv refuses env declarations with a default in a SKILL.md an
// agent wrote: a default is a value injected into every process started
// with the skill's variables (its entrypoint, the host's shell tool in its
// folder), and the agent would be the one choosing it. Names, descriptions
// and required stay allowed: a person saves the values.
func checkEnv(env []skill.EnvVar) error {
	for _, ev := range env {
		if ev.Default != nil {
			return fmt.Errorf("%w: the environment variable %s has a default; an agent may declare variables (name, description, required) but not give them values", ErrInvalidContent, ev.Name)
		}
	}
	return nil
}

// guard holds what an agent may not change in a skill it did not write
// (Options.AgentMayChangeInstalled): the code skillkit runs for it and what
// decides what InstallDeps installs.
type guard struct {
	files   []string            // slash paths: the entrypoint, setup scripts, requirements file, .NET project
	dirs    []string            // slash paths of folders, everything below them protected
	install []skill.InstallSpec // the frontmatter's install specs, which must stay as they are
}

// newGuard reads old, the skill before the edit (nil when it does not
// load), with its load diagnostics.
func newGuard(old *skill.Skill, diags diagnostics.List) *guard {
	if old == nil {
		return &guard{dirs: []string{"scripts"}} // nothing known: keep the likeliest code safe
	}
	files, dirs := deps.CodePaths(old)
	if diags.Has(diagnostics.ConfigParseError) && !slices.Contains(dirs, "scripts") {
		dirs = append(dirs, "scripts") // a config that does not parse may still name code there
	}
	return &guard{files: files, dirs: dirs, install: old.Frontmatter.Install}
}

// check refuses a write or removal of a protected path.
func (g *guard) check(name string, files map[string]string, remove []string) error {
	if g == nil {
		return nil
	}
	paths := slices.Concat(slices.Collect(maps.Keys(files)), remove)
	sort.Strings(paths)
	for _, p := range paths {
		hit := slices.Contains(g.files, p)
		for _, d := range g.dirs {
			hit = hit || p == d || strings.HasPrefix(p, d+"/")
		}
		if hit {
			return fmt.Errorf("%w: %s is code skillkit runs for %s (its entrypoint, setup script, dependency files, or a file beside them or under scripts/); an agent may not change it, even when allowed to edit installed skills", ErrNotAllowed, p, name)
		}
	}
	return nil
}

// checkInstall refuses a new SKILL.md whose install specs differ: they say
// what InstallDeps installs, and the skill's record still says a person
// installed it.
func (g *guard) checkInstall(name string, s *skill.Skill) error {
	if g == nil || reflect.DeepEqual(g.install, s.Frontmatter.Install) {
		return nil
	}
	return fmt.Errorf("%w: the edit changes the install specs (metadata.install) of %s, which say what its dependencies are; an agent may not change them in a skill it did not write", ErrNotAllowed, name)
}

// writeFiles applies content, files and remove to the staged tree.
func (w *Writer) writeFiles(tree, content string, files map[string]string, remove []string) error {
	if content != "" {
		// One spelling of the skill file: the agent writes SKILL.md.
		entries, err := fs.ReadDir(w.dir.Root().FS(), tree)
		if err != nil {
			return fmt.Errorf("authoring: %w", err)
		}
		for _, other := range skill.SkillFileNames(entries) {
			if other == skill.FileName {
				continue
			}
			if err := w.dir.Root().Remove(path.Join(tree, other)); err != nil {
				return fmt.Errorf("authoring: %w", err)
			}
		}
		if err := w.dir.Root().WriteFile(path.Join(tree, skill.FileName), []byte(content), 0o644); err != nil {
			return fmt.Errorf("authoring: %w", err)
		}
	}
	for _, p := range remove {
		full := path.Join(tree, p)
		info, err := w.dir.Root().Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: there is no file %s to remove", ErrInvalidContent, p)
		}
		if err != nil {
			return fmt.Errorf("authoring: %w", err)
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%w: %s is not a file", ErrInvalidContent, p)
		}
		if err := w.dir.Root().Remove(full); err != nil {
			return fmt.Errorf("authoring: %w", err)
		}
		// Drop the folders the removal left empty, up to the top folder.
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if err := w.dir.Root().Remove(path.Join(tree, dir)); err != nil {
				break // not empty
			}
		}
	}
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		full := path.Join(tree, p)
		if err := w.dir.Root().MkdirAll(path.Dir(full), skillsdir.DirPerm); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalidContent, p, err)
		}
		if info, err := w.dir.Root().Lstat(full); err == nil && !info.Mode().IsRegular() {
			return fmt.Errorf("%w: %s is a folder, not a file", ErrInvalidContent, p)
		}
		if err := w.dir.Root().WriteFile(full, []byte(files[p]), 0o644); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalidContent, p, err)
		}
	}
	return nil
}
