package prompt

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillkit-go/skillkit/hidden"
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
	// Task is what the model is about to do. Routes whose keywords it
	// names make their references required, and those are included in the
	// answer. Matching ignores case and width (NFKC); a keyword in a script
	// that separates words with spaces matches whole words ("new" does not
	// match "renew"), one holding CJK characters matches anywhere.
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
	// Arguments, when not empty, are what a person typed after the skill's
	// name to invoke it, as Claude Code passes them: $ARGUMENTS in the body
	// becomes the whole text, $ARGUMENTS[N] and $N the Nth word (from 0,
	// split as a shell would, quotes removed; a word that is not there
	// leaves the text as it is). A body where none of them was replaced
	// gets "ARGUMENTS: <text>" at its end, so the arguments are never lost.
	Arguments string
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

// Activate renders a skill for the model: its body without frontmatter,
// the folder it lives in, <skill_required_references> with the must-read
// text, <skill_optional_references>, and <skill_resources> (capped). With a task, matched routes' references are
// read and included, each and all together capped, so the model needs no
// second call. Hidden characters in the body and the included references
// are marked (hidden.Mark), never passed on. The error is for the
// host: the skill file could not be read.
//
// It decides first and acts after: planActivation says, from the skill and
// the options alone, which references are required, which routes matched,
// what may be included and what is listed; reading the files to include,
// cutting them to their caps and writing the text follow the plan.
func Activate(s *skill.Skill, opts *ActivateOptions) (Activation, error) {
	o := opts.orDefault()
	t := resolveTexts(o.Language, o.Texts)
	body, err := s.Body()
	if err != nil {
		return Activation{}, err
	}
	if o.Arguments != "" {
		body = substituteArguments(body, o.Arguments)
	}
	p := planActivation(s, o)
	inlined := inlineRefs(p.Inline, readRefs(s, p.Inline, o.MaxInlineChars), o.MaxInlineChars, o.MaxInlineTotal, t)
	return Activation{
		Text:     renderActivation(s, body, p, inlined, o, t),
		Required: p.Required,
		Inlined:  inlinedPaths(inlined),
		Missing:  p.missing(inlined),
	}, nil
}

// activationPlan is what Activate shows of a skill, decided from the skill
// and the options alone.
type activationPlan struct {
	// Routes are the indexes of the routes whose keywords the task names.
	Routes []int
	// Required are the required references, then those of matched routes
	// not already required, in order.
	Required []string
	// Inline are the references of matched routes that exist, in order:
	// each is included in the answer when it reads as text within the caps.
	Inline []string
	// Optional are the optional references not required, in order: the
	// first MaxResources of them listed, OptionalMore not.
	Optional     []string
	OptionalMore int
	// Resources are the skill's other files: the first MaxResources listed,
	// ResourcesMore not.
	Resources     []string
	ResourcesMore int
	// Absent are the listed references that do not exist.
	Absent map[string]bool
}

// planActivation decides what Activate shows; it reads no file. A reference
// exists when the skill lists it among its files: infrastructure files
// (.env, skill.config.yaml), never listed, count as missing, as
// read_skill_file refuses them.
func planActivation(s *skill.Skill, o ActivateOptions) activationPlan {
	refs := s.References
	p := activationPlan{Required: slices.Clone(refs.Required), Absent: map[string]bool{}}
	exists := func(ref string) bool {
		clean, err := skill.CleanRelPath(ref)
		if err != nil {
			return false
		}
		_, found := slices.BinarySearch(s.Files, clean)
		return found
	}
	var routed []string
	if task := fold(o.Task); task != "" {
		for i, r := range refs.Routes {
			if slices.ContainsFunc(r.Match, func(kw string) bool { return mentions(task, fold(kw)) }) {
				p.Routes = append(p.Routes, i)
				routed = appendNew(routed, r.RequiredRefs...)
			}
		}
	}
	p.Required = appendNew(p.Required, routed...)
	for _, ref := range routed {
		if exists(ref) {
			p.Inline = append(p.Inline, ref)
		}
	}
	for _, ref := range refs.Optional {
		if !slices.Contains(p.Required, ref) {
			p.Optional = append(p.Optional, ref)
		}
	}
	p.Optional, p.OptionalMore = capList(p.Optional, o.MaxResources)
	for _, f := range s.Files {
		if !slices.Contains(p.Required, f) && !slices.Contains(refs.Optional, f) {
			p.Resources = append(p.Resources, f)
		}
	}
	p.Resources, p.ResourcesMore = capList(p.Resources, o.MaxResources)
	for _, ref := range append(slices.Clone(p.Required), p.Optional...) {
		if !exists(ref) {
			p.Absent[ref] = true
		}
	}
	return p
}

// mustRead are the required references not included in the answer.
func (p activationPlan) mustRead(inlined []inlinedRef) []string {
	out := []string{}
	for _, ref := range p.Required {
		if !slices.ContainsFunc(inlined, func(in inlinedRef) bool { return in.Path == ref }) {
			out = append(out, ref)
		}
	}
	return out
}

// missing are the listed references that do not exist, in the order the
// answer lists them.
func (p activationPlan) missing(inlined []inlinedRef) []string {
	var out []string
	for _, ref := range append(p.mustRead(inlined), p.Optional...) {
		if p.Absent[ref] {
			out = appendNew(out, ref)
		}
	}
	return out
}

func capList(list []string, limit int) ([]string, int) {
	if len(list) > limit {
		return list[:limit], len(list) - limit
	}
	return list, 0
}

func appendNew(list []string, add ...string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

// refContent is a reference read for inclusion: its bytes, or why not.
type refContent struct {
	data []byte
	err  error
}

// readRefs reads the references to include through the skill's guarded
// Open (os.Root: no link leaves the folder; no pipe blocks), a little past
// the cap so a cut shows.
func readRefs(s *skill.Skill, refs []string, maxChars int) []refContent {
	out := make([]refContent, len(refs))
	for i, ref := range refs {
		out[i].data, out[i].err = s.ReadFileLimit(ref, int64(maxChars)*utf8.UTFMax+1)
	}
	return out
}

// inlinedRef is a reference included in the answer.
type inlinedRef struct {
	Path      string
	Content   string
	Truncated bool
}

// inlineRefs decides what of the references read is included: in order,
// each cut to maxEach characters and to what is left of maxTotal, until
// that is spent. A file that could not be read is left to the must-read
// list; one that is not text is named as such.
func inlineRefs(refs []string, contents []refContent, maxEach, maxTotal int, t Texts) []inlinedRef {
	var out []inlinedRef
	left := maxTotal
	for i, ref := range refs {
		if contents[i].err != nil {
			continue
		}
		limit := min(maxEach, left)
		if limit <= 0 {
			break
		}
		in := inlinedRef{Path: ref, Content: hidden.Mark(string(contents[i].data))}
		if !IsText(contents[i].data) {
			in.Content = t.InlineBinary
		}
		if runes(in.Content) > limit {
			in.Content, in.Truncated = string([]rune(in.Content)[:limit]), true
		}
		left -= runes(in.Content)
		out = append(out, in)
	}
	return out
}

func inlinedPaths(in []inlinedRef) []string {
	var out []string
	for _, r := range in {
		out = append(out, r.Path)
	}
	return out
}

// renderActivation writes the answer the plan and the included references
// describe.
func renderActivation(s *skill.Skill, body string, p activationPlan, inlined []inlinedRef, o ActivateOptions, t Texts) string {
	var b strings.Builder
	if s.Origin != "" {
		fmt.Fprintf(&b, "<skill_content name=\"%s\" origin=\"%s\">\n%s\n", Escape(s.Name), Escape(s.Origin), hidden.Mark(body))
	} else {
		fmt.Fprintf(&b, "<skill_content name=\"%s\">\n%s\n", Escape(s.Name), hidden.Mark(body))
	}
	if dir := skillFolder(s); dir != "" && !o.HideLocation {
		b.WriteString("\n")
		fmt.Fprintf(&b, t.SkillFolder, dir)
		b.WriteString("\n")
	}
	if len(inlined) > 0 {
		b.WriteString("\n<skill_task_references>\n")
		fmt.Fprintf(&b, t.Inlined+"\n", o.Task)
		for _, in := range inlined {
			fmt.Fprintf(&b, "<skill_reference path=\"%s\">\n%s", Escape(in.Path), in.Content)
			if !strings.HasSuffix(in.Content, "\n") {
				b.WriteString("\n")
			}
			if in.Truncated {
				fmt.Fprintf(&b, t.InlineTruncated+"\n", in.Path)
			}
			b.WriteString("</skill_reference>\n")
		}
		b.WriteString("</skill_task_references>\n")
	}
	refList := func(tag, intro, outro string, list []string, more int) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n<%s>\n%s\n", tag, intro)
		for _, ref := range list {
			b.WriteString("- " + ref)
			if p.Absent[ref] {
				b.WriteString(" " + t.Missing)
			}
			b.WriteString("\n")
		}
		if more > 0 {
			fmt.Fprintf(&b, t.MoreResources+"\n", more)
		}
		if outro != "" {
			b.WriteString(outro + "\n")
		}
		fmt.Fprintf(&b, "</%s>\n", tag)
	}
	refList("skill_required_references", t.RequiredRefs, t.RequiredRefsAfter, p.mustRead(inlined), 0)
	refList("skill_optional_references", t.OptionalRefs, "", p.Optional, p.OptionalMore)
	if len(p.Resources) > 0 {
		b.WriteString("\n<skill_resources>\n")
		for _, f := range p.Resources {
			b.WriteString("  <file>" + Escape(f) + "</file>\n")
		}
		if p.ResourcesMore > 0 {
			fmt.Fprintf(&b, "  "+t.MoreResources+"\n", p.ResourcesMore)
		}
		b.WriteString("</skill_resources>\n")
	}
	b.WriteString("</skill_content>")
	return b.String()
}

// fold prepares text for keyword matching: NFKC (full-width letters become
// ASCII) and lower case.
func fold(s string) string {
	return strings.ToLower(norm.NFKC.String(strings.TrimSpace(s)))
}

// mentions reports whether a task (folded) names a keyword (folded): a
// keyword holding CJK characters anywhere in the task, since those scripts
// do not separate words with spaces; any other keyword as whole words, so
// "new" does not match "renew" nor "edit" "credit".
func mentions(task, kw string) bool {
	if kw == "" {
		return false
	}
	if strings.ContainsFunc(kw, isCJK) {
		return strings.Contains(task, kw)
	}
	for from := 0; ; {
		i := strings.Index(task[from:], kw)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(kw)
		before, _ := utf8.DecodeLastRuneInString(task[:start])
		after, _ := utf8.DecodeRuneInString(task[end:])
		if !inWord(before) && !inWord(after) {
			return true
		}
		_, size := utf8.DecodeRuneInString(task[start:])
		from = start + size
	}
}

// inWord reports whether r continues a word of a script that separates
// words with spaces; utf8.RuneError (the text's edge) does not.
func inWord(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') && !isCJK(r)
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
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
