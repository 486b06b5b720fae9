package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
)

// SkillManageName is the name of the skill_manage tool.
const SkillManageName = "skill_manage"

// Manager writes the skills an agent authors into the host's writable
// skills folder; *authoring.Writer implements it (see
// [authoring.Writer.Create] for the rules it enforces). skill_manage
// only ever calls these three methods: it never installs dependencies or
// runs a setup script.
type Manager interface {
	Create(ctx context.Context, name, content string, files map[string]string) (*authoring.Result, error)
	Edit(ctx context.Context, name, content string, files map[string]string, remove []string) (*authoring.Result, error)
	Delete(ctx context.Context, name string) error
}

var _ Manager = (*authoring.Writer)(nil)

// ManageOptions tune skill_manage. A nil *ManageOptions means no lookup
// and no refresh.
type ManageOptions struct {
	// Skills, when set, are every skill the host has, in every source:
	// create refuses their names, so an agent cannot shadow a bundled or
	// user skill with one of its own (the writable folder comes first).
	Skills Lookup
	// Changed, when set, runs after each successful change; the Resolver
	// passes the loader's rescan, so the next Resolve lists the change. Its
	// error does not undo the change: the answer mentions it.
	Changed func(ctx context.Context) error
}

// agentPathPattern is what the schema allows as a file path; the Manager
// checks the full rules.
const agentPathPattern = `^(references|templates|scripts|assets)/[^/\\.][^\\]*$`

// SkillManage returns the skill_manage tool: the model
// creates, edits and deletes skills of its own for later use.
//
//	{action: "create", name, content, files?}
//	{action: "edit",   name, content?, files?, remove_files?}  (at least one of the three)
//	{action: "delete", name}
//
// content is the whole SKILL.md; files maps paths under references/,
// templates/, scripts/ or assets/ to their text. The schema bounds every
// field (a name pattern, content of at most 100,000 characters, at most 100
// files); which fields each action takes is checked in code and documented
// in the description, because the providers' tool APIs refuse oneOf and
// if/then at a schema's top. A mistake — a missing field, a name in use, a
// skill the agent did not write, content that does not load — is an
// IsError result saying what to fix; a Go error is for the host (I/O, a
// cancelled context). The tool is not read-only.
func SkillManage(m Manager, opts *ManageOptions) (Tool, error) {
	if m == nil {
		return Tool{}, errors.New("tools: skill_manage needs a Manager")
	}
	if opts == nil {
		opts = &ManageOptions{}
	}
	pathSchema := map[string]any{"type": "string", "pattern": agentPathPattern, "maxLength": 512}
	schema := objectSchema([]property{
		{"action", map[string]any{"type": "string", "enum": []string{"create", "edit", "delete"},
			"description": "create a new skill; edit one you created (content replaces SKILL.md, files are added or replaced, remove_files are deleted); delete one you created."}},
		{"name", map[string]any{"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 64,
			"description": "The skill's name: lower-case letters, digits and single hyphens, at most 64 characters. It is also its folder."}},
		{"content", map[string]any{"type": "string", "minLength": 1, "maxLength": authoring.MaxContentChars,
			"description": "The complete SKILL.md: YAML frontmatter between --- lines with name (exactly the name above) and description (what the skill does and when to use it), then the instructions in Markdown. Required for create; for edit it replaces SKILL.md (omit to keep it); not for delete. metadata.env in the frontmatter declares environment variables the user configures."}},
		{"files", map[string]any{"type": "object", "maxProperties": authoring.MaxFiles,
			"propertyNames":        pathSchema,
			"additionalProperties": map[string]any{"type": "string"},
			"description":          "Extra files: path relative to the skill folder, under references/, templates/, scripts/ or assets/, to its text (at most 1 MiB each). For create and edit."}},
		{"remove_files", map[string]any{"type": "array", "maxItems": authoring.MaxFiles, "uniqueItems": true, "items": pathSchema,
			"description": "Files to delete from the skill. For edit only."}},
	}, "action", "name")
	type args struct {
		Action  string            `json:"action"`
		Name    string            `json:"name"`
		Content *string           `json:"content"`
		Files   map[string]string `json:"files"`
		Remove  []string          `json:"remove_files"`
	}
	return newTool(SkillManageName,
		"Create, edit or delete a skill of your own, saved for future tasks: reusable instructions, with reference files, templates and scripts. "+
			"create takes name and content (the full SKILL.md), optionally files; edit takes name and at least one of content, files, remove_files; delete takes name only. "+
			"You can change only skills you created. This tool never runs code: scripts you add are run later, by you, with your own tools. "+
			"A skill or change the security scan flags (or, on some hosts, every one) waits for a person's review before it counts; the result says so.",
		schema, false,
		func(ctx context.Context, a args) (Result, error) {
			content := ""
			if a.Content != nil {
				content = *a.Content
			}
			if msg := actionMistake(a.Action, a.Content != nil, len(a.Files) > 0, len(a.Remove) > 0); msg != "" {
				return Errorf("skill_manage %s: %s", a.Action, msg), nil
			}
			var (
				res *authoring.Result
				err error
			)
			switch a.Action {
			case "create":
				if opts.Skills != nil {
					if s, ok := opts.Skills.Get(a.Name); ok && s != nil {
						return Errorf("skill_manage create: a skill named %s already exists; choose another name (or edit it, if you created it)", a.Name), nil
					}
				}
				res, err = m.Create(ctx, a.Name, content, a.Files)
			case "edit":
				res, err = m.Edit(ctx, a.Name, content, a.Files, a.Remove)
			case "delete":
				err = m.Delete(ctx, a.Name)
			}
			if err != nil {
				if ctx.Err() != nil || !modelMistake(err) {
					return Result{}, fmt.Errorf("skill_manage %s %s: %w", a.Action, a.Name, err)
				}
				return Errorf("skill_manage %s %s failed: %v", a.Action, a.Name, err), nil
			}
			if res != nil && res.Proposal != nil {
				return proposedResult(a.Action, res), nil
			}
			return manageResult(ctx, opts, a.Action, a.Name, res), nil
		})
}

// actionMistake says what an action lacks or must not have, "" if nothing.
func actionMistake(action string, content, files, remove bool) string {
	switch {
	case action == "create" && !content:
		return "content (the full SKILL.md) is required"
	case action == "create" && remove:
		return "remove_files is for edit only"
	case action == "edit" && !content && !files && !remove:
		return "give content, files or remove_files"
	case action == "delete" && (content || files || remove):
		return "delete takes only the name"
	}
	return ""
}

// modelMistake reports whether err is about what the model asked, which it
// can fix, rather than a failure of the host.
func modelMistake(err error) bool {
	for _, target := range []error{
		authoring.ErrInvalidContent, authoring.ErrExists, authoring.ErrNotAllowed, authoring.ErrPinned,
		authoring.ErrNotInstalled, authoring.ErrScanRejected, authoring.ErrQueueFull,
	} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// manageResult answers a successful change, with the skill's warnings.
func manageResult(ctx context.Context, opts *ManageOptions, action, name string, res *authoring.Result) Result {
	var b strings.Builder
	out := struct {
		Action      string           `json:"action"`
		Name        string           `json:"name"`
		Source      registry.Source  `json:"source,omitempty"`
		Fingerprint string           `json:"fingerprint,omitempty"`
		Warnings    diagnostics.List `json:"warnings"`
	}{Action: action, Name: name, Warnings: diagnostics.List{}}
	switch action {
	case "create":
		fmt.Fprintf(&b, "Created the skill %s. It is saved for future tasks and is listed in <available_skills> from your next turn.", name)
	case "edit":
		fmt.Fprintf(&b, "Updated the skill %s.", name)
	case "delete":
		fmt.Fprintf(&b, "Deleted the skill %s.", name)
	}
	if res != nil {
		out.Source, out.Fingerprint = res.Record.Source, res.Record.Fingerprint
		out.Warnings = res.Diagnostics.AtLeast(diagnostics.Warning)
		for _, d := range out.Warnings {
			fmt.Fprintf(&b, "\nWarning %s: %s", d.Code, d.Message)
		}
	}
	if opts.Changed != nil {
		if err := opts.Changed(ctx); err != nil {
			fmt.Fprintf(&b, "\n(The skill list could not be refreshed yet: %v)", err)
		}
	}
	structured, _ := json.Marshal(out)
	return Result{Text: b.String(), Structured: structured}
}

// proposedResult answers a create or edit that went to the proposal queue:
// nothing changed yet, and the model must not count on it.
func proposedResult(action string, res *authoring.Result) Result {
	p := res.Proposal
	var b strings.Builder
	what := "new skill " + p.Name
	if action == "edit" {
		what = "change to the skill " + p.Name
	}
	fmt.Fprintf(&b, "Your %s was NOT saved yet: it awaits a person's review (%s). ", what, p.Reason)
	if res.Superseded {
		b.WriteString("It replaces your earlier proposal for it, which had not been reviewed. ")
	}
	if action == "edit" {
		fmt.Fprintf(&b, "Until a person approves it, %s stays as it was.", p.Name)
	} else {
		fmt.Fprintf(&b, "Until a person approves it, %s is not in <available_skills> and cannot be read or run.", p.Name)
	}
	out := struct {
		Action   string       `json:"action"`
		Name     string       `json:"name"`
		Status   string       `json:"status"`
		Proposal string       `json:"proposal"`
		Verdict  scan.Verdict `json:"verdict"`
	}{Action: action, Name: p.Name, Status: "awaiting_review", Proposal: p.ID, Verdict: p.Scan.Verdict}
	structured, _ := json.Marshal(out)
	return Result{Text: b.String(), Structured: structured}
}
