package prompt

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// Format is the layout of the catalog.
type Format string

// The catalog formats.
const (
	// FormatSeed is the seed's layout (seed 000 §5.3): one
	// <skill name=".." type=".." category=".."> element per skill holding its
	// description, how to use it and, for compute-entry skills, a one-line
	// summary of the input, so the model can call execute_skill directly.
	FormatSeed Format = "seed"
	// FormatAgentSkills is the Agent Skills standard layout, byte for byte
	// the one pi-mono and OpenClaw emit:
	// <skill><name/><description/><location/></skill>.
	FormatAgentSkills Format = "agentskills"
)

// DefaultMaxChars is the catalog's default budget, in characters.
const DefaultMaxChars = 30_000

// Options tune [Catalog]. A nil *Options means the defaults: seed format,
// English, a 30,000-character budget.
type Options struct {
	Format   Format
	Language Language
	// Texts replaces built-in sentences; empty fields keep the built-in ones.
	Texts *Texts
	// MaxChars is the budget for the whole text, guidance included, in
	// characters (default 30,000).
	MaxChars int
	// MaxDescriptionChars cuts each description to this many characters
	// (with "…"); zero leaves descriptions whole.
	MaxDescriptionChars int
	// HideLocation leaves <location> out of the agentskills format, for hosts
	// that do not show the model file paths. The seed format has none.
	HideLocation bool
	// Executable reports whether the agent can run a compute-entry skill
	// with execute_skill. Nil means it can run all of them. Skills it cannot
	// run are listed with the hint to read them, without an input summary,
	// and the guidance mentions execute_skill only when some skill can run.
	Executable func(name string) bool
}

func (o *Options) orDefault() Options {
	var v Options
	if o != nil {
		v = *o
	}
	if v.Format == "" {
		v.Format = FormatSeed
	}
	if v.MaxChars <= 0 {
		v.MaxChars = DefaultMaxChars
	}
	return v
}

// CatalogResult is a rendered catalog.
type CatalogResult struct {
	// Text is the prompt section: guidance, then <available_skills>, then a
	// note on skills left out. Empty when no skill is listed.
	Text string `json:"text"`
	// Listed names the skills in the catalog, in order.
	Listed []string `json:"listed"`
	// Omitted names the skills left out to stay within the budget.
	Omitted []string `json:"omitted"`
	// Compact is true when descriptions were dropped to fit the budget.
	Compact bool `json:"compact"`
	// Diagnostics holds one PROMPT_TRUNCATED per omitted skill.
	Diagnostics diagnostics.List `json:"diagnostics"`
}

// Catalog renders the <available_skills> section for the given skills, in the
// order given (a loader snapshot gives them sorted by name). Hidden skills
// (disable-model-invocation) are never listed. Every value is XML-escaped.
// When the text exceeds the budget, descriptions are dropped (the compact
// form); if it still does not fit, skills are dropped from the end, the text
// says how many were left out, and a PROMPT_TRUNCATED diagnostic names each.
// With no skill to list, Text is empty: no guidance, no empty element.
func Catalog(skills []*skill.Skill, opts *Options) CatalogResult {
	o := opts.orDefault()
	t := resolveTexts(o.Language, o.Texts)
	var visible []*skill.Skill
	for _, s := range skills {
		if s != nil && !s.Hidden() {
			visible = append(visible, s)
		}
	}
	res := CatalogResult{Listed: []string{}, Omitted: []string{}, Diagnostics: diagnostics.List{}}
	if len(visible) == 0 {
		return res
	}
	runnable := func(s *skill.Skill) bool {
		return s.Class == skill.ClassComputeEntry && (o.Executable == nil || o.Executable(s.Name))
	}
	if slices.ContainsFunc(visible, runnable) && t.GuidanceExecute != "" {
		t.Guidance += "\n" + t.GuidanceExecute
	}
	render := func(compact bool) []string {
		entries := make([]string, len(visible))
		for i, s := range visible {
			entries[i] = renderSkill(s, o, t, compact, runnable(s))
		}
		return entries
	}
	entries := render(false)
	text := assemble(t, entries, 0)
	if runes(text) > o.MaxChars {
		entries, res.Compact = render(true), true
		text = assemble(t, entries, 0)
	}
	n := len(entries)
	if runes(text) > o.MaxChars {
		// The largest prefix that fits, with the note on what is left out.
		lo, hi := 0, len(entries)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if runes(assemble(t, entries[:mid], len(entries)-mid)) <= o.MaxChars {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		n = lo
		text = assemble(t, entries[:n], len(entries)-n)
		if n == 0 {
			text = "" // not even one skill fits: no catalog beats a misleading one
		}
	}
	res.Text = text
	for i, s := range visible {
		if i < n {
			res.Listed = append(res.Listed, s.Name)
			continue
		}
		res.Omitted = append(res.Omitted, s.Name)
		res.Diagnostics = append(res.Diagnostics, diagnostics.New(diagnostics.PromptTruncated, s.Name, skillPath(s),
			"left out of the catalog: %d skills do not fit in %d characters", len(visible)-n, o.MaxChars).
			With("max_chars", o.MaxChars).With("omitted", len(visible)-n))
	}
	return res
}

func assemble(t Texts, entries []string, omitted int) string {
	var b strings.Builder
	n := len(t.Guidance) + len(t.Truncated) + 64
	for _, e := range entries {
		n += len(e)
	}
	b.Grow(n)
	b.WriteString(t.Guidance)
	b.WriteString("\n\n<available_skills>\n")
	for _, e := range entries {
		b.WriteString(e)
	}
	b.WriteString("</available_skills>")
	if omitted > 0 {
		b.WriteString("\n")
		fmt.Fprintf(&b, t.Truncated, omitted)
	}
	return b.String()
}

func renderSkill(s *skill.Skill, o Options, t Texts, compact, runnable bool) string {
	var b strings.Builder
	desc := s.Description
	b.Grow(len(desc) + len(s.Name) + len(s.DiskDir) + 160)
	if o.MaxDescriptionChars > 0 {
		desc = cut(desc, o.MaxDescriptionChars)
	}
	if o.Format == FormatAgentSkills {
		b.WriteString("  <skill>\n")
		b.WriteString("    <name>" + Escape(s.Name) + "</name>\n")
		if !compact {
			b.WriteString("    <description>" + Escape(desc) + "</description>\n")
		}
		if loc := skillPath(s); loc != "" && !o.HideLocation {
			b.WriteString("    <location>" + Escape(loc) + "</location>\n")
		}
		b.WriteString("  </skill>\n")
		return b.String()
	}
	b.WriteString(`  <skill name="` + Escape(s.Name) + `" type="` + Escape(string(s.Class)) + `"`)
	if c := s.Frontmatter.Category; c != "" {
		b.WriteString(` category="` + Escape(c) + `"`)
	}
	if compact {
		b.WriteString("/>\n")
		return b.String()
	}
	b.WriteString(">\n    ")
	writeOneLine(&b, desc)
	class := s.Class
	if class == skill.ClassComputeEntry && !runnable {
		class = skill.ClassPrompt // the agent reads it; it cannot run it
	}
	b.WriteString(" (" + Escape(useHint(class, t)) + ")\n")
	if runnable && s.Config != nil && len(s.Config.Interface.InputFields) > 0 {
		b.WriteString("    " + Escape(inputSummary(s.Config.Interface.InputFields, t)) + "\n")
	}
	b.WriteString("  </skill>\n")
	return b.String()
}

func useHint(c skill.Class, t Texts) string {
	switch c {
	case skill.ClassComputeEntry:
		return t.UseComputeEntry
	case skill.ClassComputeToolkit:
		return t.UseComputeToolkit
	}
	return t.UsePrompt
}

// inputSummary is the one-line summary of a compute-entry skill's input:
// "Input: image_path (string, required), language (string, default: auto)".
func inputSummary(fields []skill.Field, t Texts) string {
	parts := make([]string, 0, len(fields))
	for _, f := range fields {
		var attrs []string
		if f.Type != "" {
			attrs = append(attrs, f.Type)
		}
		if f.Required {
			attrs = append(attrs, t.Required)
		}
		if f.Default != nil {
			attrs = append(attrs, fmt.Sprintf("%s: %v", t.Default, f.Default))
		}
		if len(f.Enum) > 0 {
			vals := make([]string, len(f.Enum))
			for i, v := range f.Enum {
				vals[i] = fmt.Sprint(v)
			}
			attrs = append(attrs, strings.Join(vals, "|"))
		}
		p := f.Name
		if len(attrs) > 0 {
			p += " (" + strings.Join(attrs, ", ") + ")"
		}
		parts = append(parts, p)
	}
	return t.Input + ": " + strings.Join(parts, ", ")
}

// skillPath is where the skill file is: on disk when known, else its path in
// its file system.
func skillPath(s *skill.Skill) string {
	if s.DiskDir != "" {
		return filepath.Join(s.DiskDir, s.File)
	}
	if s.Dir == "" {
		return ""
	}
	return path.Join(s.Dir, s.File)
}

// Escape escapes & < > " and ' for XML text and attribute values, and
// marks hidden characters (skill.MarkHidden): "[U+202E]" instead of an
// invisible override, so no skill text reaches the model in a form a
// person reading it would not see.
func Escape(s string) string {
	s = skill.MarkHidden(s)
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	return escaper.Replace(s)
}

// writeOneLine writes s escaped, with each run of ASCII white space as one
// space and none at the ends: Escape(strings.Join(strings.Fields(s), " "))
// without the allocations, since it runs for every skill of every catalog.
// It copies runs of ordinary bytes at once; UTF-8 sequences never contain
// the bytes it looks for.
func writeOneLine(b *strings.Builder, s string) {
	s = strings.TrimSpace(skill.MarkHidden(s))
	start, space := 0, false
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			b.WriteString(s[start:i])
			start, space = i+1, true
			continue
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '"':
			rep = "&quot;"
		case '\'':
			rep = "&apos;"
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if rep != "" {
			b.WriteString(s[start:i])
			b.WriteString(rep)
			start = i + 1
		}
	}
	b.WriteString(s[start:])
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func runes(s string) int { return utf8.RuneCountInString(s) }

// cut shortens s to at most n characters, ending with "…" when cut, at a
// word boundary when one is in the second half.
func cut(s string, n int) string {
	if runes(s) <= n {
		return s
	}
	r := []rune(s)
	if n <= 1 {
		return string(r[:n])
	}
	head := string(r[:n-1])
	if i := strings.LastIndexAny(head, " \t\n"); i >= len(head)/2 {
		head = head[:i]
	}
	return strings.TrimRight(head, " \t\n") + "…"
}
