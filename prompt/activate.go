package prompt

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillkit-go/skillkit/skill"
)

// Defaults for [ActivateOptions].
const (
	DefaultMaxResources   = 50
	DefaultMaxInlineChars = 20_000 // one inlined reference
	DefaultMaxInlineTotal = 60_000 // all inlined references together
)

// ActivateOptions tune [Activate]. A nil *ActivateOptions means the defaults.
type ActivateOptions struct {
	// Task is what the model is about to do. Routes whose keywords occur in
	// it (case-insensitive substrings, so Chinese works) make their
	// references required, and those are included in the answer.
	Task     string
	Language Language
	Texts    *Texts
	// HideLocation leaves out the skill folder line, for hosts that do not
	// show the model file paths.
	HideLocation bool
	// MaxResources caps the <skill_optional_references> and
	// <skill_resources> listings (default 50 each); required references are
	// always listed in full.
	MaxResources int
	// MaxInlineChars caps each included reference (default 20,000
	// characters); MaxInlineTotal caps them together (default 60,000).
	MaxInlineChars, MaxInlineTotal int
}

func (o *ActivateOptions) orDefault() ActivateOptions {
	var v ActivateOptions
	if o != nil {
		v = *o
	}
	if v.MaxResources <= 0 {
		v.MaxResources = DefaultMaxResources
	}
	if v.MaxInlineChars <= 0 {
		v.MaxInlineChars = DefaultMaxInlineChars
	}
	if v.MaxInlineTotal <= 0 {
		v.MaxInlineTotal = DefaultMaxInlineTotal
	}
	return v
}

// Activation is what read_skill returns for a skill.
type Activation struct {
	// Text is the answer for the model: the instructions inside
	// <skill_content name="..">, the folder line, the references to read and
	// the skill's other files.
	Text string
	// Required are the references the model must read, including those of
	// matched routes; Inlined are the ones included in Text.
	Required, Inlined []string
	// Missing are declared references that do not exist.
	Missing []string
}

// Activate renders a skill for the model (seed 000 §5.4, §10.10): its body
// without frontmatter, the folder it lives in, <skill_required_references>
// with the must-read text, <skill_optional_references>, and
// <skill_resources> (capped). With a task, matched routes' references are
// read and included, each and all together capped, so the model needs no
// second call. Hidden characters in the body and the included references
// are marked (skill.MarkHidden), never passed on. The error is for the
// host: the skill file could not be read.
func Activate(s *skill.Skill, opts *ActivateOptions) (Activation, error) {
	o := opts.orDefault()
	t := resolveTexts(o.Language, o.Texts)
	body, err := s.Body()
	if err != nil {
		return Activation{}, err
	}
	refs := s.References
	var act Activation
	// A reference exists when the skill lists it among its files: no I/O,
	// and infrastructure files (.env, skill.config.yaml), which are never
	// listed, count as missing, as read_skill_file refuses them.
	exists := func(p string) bool {
		clean, err := skill.CleanRelPath(p)
		return err == nil && slices.Contains(s.Files, clean)
	}

	required := slices.Clone(refs.Required)
	var routed []string
	if task := fold(o.Task); task != "" {
		for _, r := range refs.Routes {
			if slices.ContainsFunc(r.Match, func(kw string) bool { kw = fold(kw); return kw != "" && strings.Contains(task, kw) }) {
				for _, ref := range r.RequiredRefs {
					if !slices.Contains(routed, ref) {
						routed = append(routed, ref)
					}
				}
			}
		}
	}
	for _, ref := range routed {
		if !slices.Contains(required, ref) {
			required = append(required, ref)
		}
	}
	act.Required = required

	var b strings.Builder
	fmt.Fprintf(&b, "<skill_content name=\"%s\">\n", Escape(s.Name))
	b.WriteString(skill.MarkHidden(body))
	b.WriteString("\n")
	if !o.HideLocation {
		if dir := skillFolder(s); dir != "" {
			b.WriteString("\n")
			fmt.Fprintf(&b, t.SkillFolder, dir)
			b.WriteString("\n")
		}
	}

	// Included references: those of matched routes, within the caps.
	if len(routed) > 0 {
		var inl strings.Builder
		budget := o.MaxInlineTotal
		for _, ref := range routed {
			if !exists(ref) {
				continue // listed below as missing
			}
			// Read through the skill's guarded Open (os.Root: no link leaves
			// the folder; no pipe blocks), a little past the cap so a cut
			// shows.
			data, err := s.ReadFileLimit(ref, int64(o.MaxInlineChars)*utf8.UTFMax+1)
			if err != nil {
				continue
			}
			content := skill.MarkHidden(string(data))
			if !IsText(data) {
				content = t.InlineBinary
			}
			limit := min(o.MaxInlineChars, budget)
			if limit <= 0 {
				break
			}
			truncated := runes(content) > limit
			if truncated {
				content = string([]rune(content)[:limit])
			}
			budget -= runes(content)
			fmt.Fprintf(&inl, "<skill_reference path=\"%s\">\n%s", Escape(ref), content)
			if !strings.HasSuffix(content, "\n") {
				inl.WriteString("\n")
			}
			if truncated {
				fmt.Fprintf(&inl, t.InlineTruncated+"\n", ref)
			}
			inl.WriteString("</skill_reference>\n")
			act.Inlined = append(act.Inlined, ref)
		}
		if len(act.Inlined) > 0 {
			b.WriteString("\n<skill_task_references>\n")
			fmt.Fprintf(&b, t.Inlined+"\n", o.Task)
			b.WriteString(inl.String())
			b.WriteString("</skill_task_references>\n")
		}
	}

	mustRead := []string{}
	for _, ref := range required {
		if !slices.Contains(act.Inlined, ref) {
			mustRead = append(mustRead, ref)
		}
	}
	// limit caps a list (0: every entry; required references are never cut).
	listRefs := func(tag, intro, outro string, list []string, limit int) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n<%s>\n%s\n", tag, intro)
		for i, ref := range list {
			if i == limit && limit > 0 {
				fmt.Fprintf(&b, t.MoreResources+"\n", len(list)-i)
				break
			}
			line := "- " + ref
			if !exists(ref) {
				line += " " + t.Missing
				if !slices.Contains(act.Missing, ref) {
					act.Missing = append(act.Missing, ref)
				}
			}
			b.WriteString(line + "\n")
		}
		if outro != "" {
			b.WriteString(outro + "\n")
		}
		fmt.Fprintf(&b, "</%s>\n", tag)
	}
	listRefs("skill_required_references", t.RequiredRefs, t.RequiredRefsAfter, mustRead, 0)
	var optional []string
	for _, ref := range refs.Optional {
		if !slices.Contains(required, ref) {
			optional = append(optional, ref)
		}
	}
	listRefs("skill_optional_references", t.OptionalRefs, "", optional, o.MaxResources)

	// Resources: attached files not already named above.
	var resources []string
	for _, f := range s.Files {
		if !slices.Contains(required, f) && !slices.Contains(optional, f) {
			resources = append(resources, f)
		}
	}
	if len(resources) > 0 {
		b.WriteString("\n<skill_resources>\n")
		for i, f := range resources {
			if i == o.MaxResources {
				fmt.Fprintf(&b, "  "+t.MoreResources+"\n", len(resources)-i)
				break
			}
			b.WriteString("  <file>" + Escape(f) + "</file>\n")
		}
		b.WriteString("</skill_resources>\n")
	}
	b.WriteString("</skill_content>")
	act.Text = b.String()
	return act, nil
}

// fold prepares text for keyword matching: NFKC (full-width letters become
// ASCII) and lower case.
func fold(s string) string {
	return strings.ToLower(norm.NFKC.String(strings.TrimSpace(s)))
}

func skillFolder(s *skill.Skill) string {
	if s.DiskDir != "" {
		return s.DiskDir
	}
	return ""
}

// IsText reports whether a file's bytes look like text (valid UTF-8, no NUL),
// the test used before a file's content is given to the model.
func IsText(data []byte) bool {
	return utf8.Valid(data) && !bytes.ContainsRune(data, 0)
}
