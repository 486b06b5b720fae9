package prompt

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/hidden"
	"github.com/skillkit-go/skillkit/skill"
)

// Format is the layout of the catalog.
type Format string

// The catalog formats.
const (
	// FormatSkillkit, the default, is skillkit's own layout: one
	// <skill name=".." type=".." category=".."> element per skill holding its
	// description, how to use it and, for compute-entry skills, a one-line
	// summary of the input, so the model can call execute_skill directly;
	// origin=".." names who serves a skill that is not the host's own
	// (Skill.Origin, an MCP server).
	FormatSkillkit Format = "skillkit"
	// FormatAgentSkills is the Agent Skills standard layout, byte for byte
	// the one pi-mono and OpenClaw emit:
	// <skill><name/><description/><location/></skill>, with <origin/>
	// after the name for a skill that is not the host's own (Skill.Origin).
	FormatAgentSkills Format = "agentskills"
)

// DefaultMaxChars is the catalog's default budget, in characters.
const DefaultMaxChars = 30_000

// Options tune [Catalog]. A nil *Options means the defaults: the skillkit
// format, English, a 30,000-character budget.
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
	// that do not show the model file paths. The skillkit format has none.
	HideLocation bool
	// Priority ranks the skills for a catalog that cannot list them all,
	// even by name: the highest are kept. Hosts rank by precedence (the
	// first source first; tools.Resolver does when Priority is nil) and by
	// usage where they record it. Among skills ranked alike, and when
	// Priority is nil, the catalog keeps a stable spread of them: an order
	// drawn from a hash of each name, so what is left out does not depend on
	// where names fall in the alphabet, and changes little as skills come
	// and go. Skills kept are listed in the order given.
	Priority func(s *skill.Skill) float64
	// Executable reports whether the agent can run a compute-entry skill
	// with execute_skill. Nil means it can run all of them. Skills it cannot
	// run are listed with the hint to read them, without an input summary,
	// and the guidance mentions execute_skill only when some skill can run.
	Executable func(name string) bool
	// Search says the agent has the search_skills tool: when skills are
	// left out, the note saying how many tells the model to find them with
	// it (Texts.TruncatedSearch) instead of asking the user
	// (Texts.Truncated). It changes nothing when every skill is listed.
	Search bool
}

func (o *Options) orDefault() Options {
	var v Options
	if o != nil {
		v = *o
	}
	if v.Format == "" {
		v.Format = FormatSkillkit
	}
	if v.MaxChars <= 0 {
		v.MaxChars = DefaultMaxChars
	}
	return v
}

// Compaction says how a catalog was shortened to fit its budget.
type Compaction string

// The compaction steps, in the order the catalog takes them.
const (
	// CompactionNone: every description is whole.
	CompactionNone Compaction = ""
	// CompactionTerse: every description is whole; what the guidance says
	// once is not repeated per entry (the hint to load a skill with
	// read_skill), and agentskills locations are given relative to a folder
	// the guidance names, or left out when even that does not fit.
	CompactionTerse Compaction = "terse"
	// CompactionShortened: the longest descriptions are cut to an even
	// share of the room left for descriptions, at the end of a sentence or
	// else of a word ("…" marks a cut inside a sentence); shorter ones stay
	// whole.
	CompactionShortened Compaction = "shortened"
	// CompactionNamesOnly: descriptions are left out; only names are
	// listed.
	CompactionNamesOnly Compaction = "names_only"
)

// MinDescriptionChars is the shortest share a shortened description gets;
// when even that does not fit, descriptions are left out instead.
const MinDescriptionChars = 20

// CatalogResult is a rendered catalog.
type CatalogResult struct {
	// Text is the prompt section: guidance, then <available_skills>, then a
	// note on skills left out. Empty when no skill is listed.
	Text string `json:"text"`
	// Listed names the skills in the catalog, in order.
	Listed []string `json:"listed"`
	// Omitted names the skills left out to stay within the budget.
	Omitted []string `json:"omitted"`
	// Compaction says how descriptions were shortened to fit the budget.
	Compaction Compaction `json:"compaction"`
	// Shortened names the listed skills whose description was shortened
	// (CompactionShortened), in order.
	Shortened []string `json:"shortened"`
	// DescriptionChars is the share a shortened description got: the most
	// characters one may have, "…" included. Zero unless shortened.
	DescriptionChars int `json:"description_chars,omitempty"`
	// Diagnostics reports every degradation: one PROMPT_COMPACTED when
	// descriptions were shortened or left out, one PROMPT_TRUNCATED naming
	// the skills left out.
	Diagnostics diagnostics.List `json:"diagnostics"`
}

// Catalog renders the <available_skills> section for the given skills, in the
// order given (a loader snapshot gives them sorted by name). Hidden skills
// (disable-model-invocation) are never listed. Every value is XML-escaped.
//
// Over budget the catalog degrades step by step, and says so each time (in
// the guidance the model reads and in a diagnostic): first what the guidance
// says once is no longer repeated per entry, and agentskills locations are
// given relative to one folder, or left out (CompactionTerse); then the
// longest descriptions are shortened to an even share of the room left for
// descriptions, each cut at the end of a sentence, else of a word
// (CompactionShortened); when even a share of [MinDescriptionChars] does
// not fit, descriptions are left out (CompactionNamesOnly); only then are
// skills left out, the text saying how many: those of lowest
// Options.Priority, then a stable spread of names (not the alphabet's
// tail). With no skill to
// list, or not even one fitting, Text is empty: no guidance, no empty
// element.
//
// A catalog that fits is rendered in one pass. Over budget, each entry is
// rendered once per form needed, and the text is built once, so the cost
// grows with what is listed: when most skills must be left out, only those
// listed are rendered.
func Catalog(skills []*skill.Skill, opts *Options) CatalogResult {
	o := opts.orDefault()
	t := resolveTexts(o.Language, o.Texts)
	res := CatalogResult{Listed: []string{}, Omitted: []string{}, Shortened: []string{}, Diagnostics: diagnostics.List{}}
	c := &catalog{o: o, t: t, skills: make([]*skill.Skill, 0, len(skills))}
	anyRunnable := false
	for _, s := range skills {
		if s != nil && !s.Hidden() {
			c.skills = append(c.skills, s)
			anyRunnable = anyRunnable || c.runnable(s)
		}
	}
	if len(c.skills) == 0 {
		return res
	}
	guidance := t.Guidance
	if anyRunnable && t.GuidanceExecute != "" {
		guidance += "\n" + t.GuidanceExecute
	}
	frame := runes(catalogOpen) + runes(catalogClose)
	// Most catalogs fit: render them once, and nothing else.
	if text, ok := c.whole(guidance, frame); ok {
		c.finish(&res, len(c.skills), CompactionNone, 0)
		res.Text = text
		return res
	}
	// Over budget, the budget goes to descriptions first. Locations are
	// given relative to a folder said once, or, when that does not make
	// every description fit, left out (read_skill is the way in); the
	// hint to load a skill with read_skill, which the guidance gives, is
	// not repeated after each entry.
	c.terse = true
	if c.o.Format == FormatAgentSkills && !c.o.HideLocation {
		if root := commonRoot(c.skills); root != "" {
			c.locRoot = root
			if text, ok := c.whole(withNote(guidance, fmt.Sprintf(t.LocationRoot, root)), frame); ok {
				c.finish(&res, len(c.skills), CompactionTerse, 0)
				res.Text = text
				return res
			}
		}
		c.locRoot, c.o.HideLocation = "", true
	}
	namesOnly := withNote(guidance, t.NamesOnly)

	// Names only, in order, until the budget runs out: when not every name
	// fits, skills are dropped, and nothing else needs rendering.
	room := o.MaxChars - runes(namesOnly) - frame
	if _, all := c.compactPrefix(room); !all {
		n := c.keepRanked(room)
		n = c.withNote(n, room)
		c.finish(&res, n, CompactionNamesOnly, 0)
		if n > 0 {
			res.Text = c.build(namesOnly, n, CompactionNamesOnly, 0)
		}
		return res
	}
	c.renderFull()
	full, fixed, descs := c.sums()
	if runes(guidance)+frame+full <= o.MaxChars {
		c.finish(&res, len(c.skills), CompactionTerse, 0)
		res.Text = c.build(guidance, len(c.skills), CompactionNone, 0)
		return res
	}
	shortened := withNote(guidance, t.Shortened)
	if share, ok := c.share(o.MaxChars-runes(shortened)-frame-fixed, descs); ok {
		c.finish(&res, len(c.skills), CompactionShortened, share)
		res.Text = c.build(shortened, len(c.skills), CompactionShortened, share)
		return res
	}
	c.finish(&res, len(c.skills), CompactionNamesOnly, 0)
	res.Text = c.build(namesOnly, len(c.skills), CompactionNamesOnly, 0)
	return res
}

const (
	catalogOpen  = "\n\n<available_skills>\n"
	catalogClose = "</available_skills>"
)

func withNote(guidance, note string) string {
	if note == "" {
		return guidance
	}
	return guidance + "\n" + note
}

// catalog is one Catalog call. Every piece it renders goes to buf once;
// entries keep their pieces as spans of it.
type catalog struct {
	o      Options
	t      Texts
	skills []*skill.Skill // the visible skills, in order
	// entries are the skills rendered so far, in order: when skills are
	// left out, only those that fit (and one more).
	entries []entry
	buf     strings.Builder
	text    string // buf's content, once rendering is done
	// The word ends and sentence ends of every description, entry by entry.
	words, sentences []cutAt
	// terse leaves out the per-entry hint to load a skill with read_skill
	// (the guidance says it once); locRoot, when set, is the folder the
	// agentskills locations are given relative to.
	terse   bool
	locRoot string
}

// entry is one skill: its full form is pre + desc + post, its names-only
// form compact.
type entry struct {
	s                        *skill.Skill
	pre, desc, post, compact span
	// catalog.words[words[0]:words[1]] are desc's word ends, and the same
	// for sentences.
	words, sentences [2]int
}

// span is a piece of the catalog's buffer and its length in characters.
type span struct{ start, end, runes int }

// cutAt is a place in a description: bytes and characters before it
// (int32: a description is far smaller than 2 GB).
type cutAt struct{ bytes, runes int32 }

func (c *catalog) runnable(s *skill.Skill) bool {
	return s.Class == skill.ClassComputeEntry && (c.o.Executable == nil || c.o.Executable(s.Name))
}

// piece renders with write and returns the span it took.
func (c *catalog) piece(write func(b *strings.Builder)) span {
	start := c.buf.Len()
	write(&c.buf)
	return span{start: start, end: c.buf.Len()}
}

// measure fills in the character counts of spans rendered since the last
// call, once the buffer is final for them.
func (c *catalog) measure(sp *span) {
	if c.text == "" || len(c.text) < sp.end {
		c.text = c.buf.String()
	}
	sp.runes = runes(c.text[sp.start:sp.end])
}

// compactPrefix renders names-only entries in order while they fit in room
// and returns how many did and whether all did.
func (c *catalog) compactPrefix(room int) (int, bool) {
	// Room for the entries that fit, and a little: a names-only entry is
	// rarely under 25 characters.
	c.buf.Grow(min(len(c.skills)*80, 3*max(room, 0)+256))
	c.entries = make([]entry, 0, min(len(c.skills), max(room, 0)/25+1))
	used := 0
	for i, s := range c.skills {
		c.entries = append(c.entries, entry{s: s})
		e := &c.entries[i]
		e.compact = c.piece(func(b *strings.Builder) { c.writeCompact(b, s) })
		c.measure(&e.compact)
		if used+e.compact.runes > room {
			return i, false
		}
		used += e.compact.runes
	}
	return len(c.skills), true
}

// keepRanked chooses the skills a names-only catalog that cannot list them
// all keeps: in the order of rank (see Options.Priority), each while it
// fits in room beside the note on those left out. It renders the names-only
// entries of those it keeps (and the first that does not fit), then puts
// the kept skills first, in the order given, the others after them, and
// returns how many it kept.
func (c *catalog) keepRanked(room int) int {
	order := c.rankOrder()
	c.buf.Reset()
	c.text = ""
	c.entries = c.entries[:0]
	kept := make([]bool, len(c.skills))
	used := 0
	// The note's length changes only with the number of digits it writes.
	noteLen, noteDigits := 0, 0
	for {
		i, ok := order.pop()
		if !ok {
			break
		}
		s := c.skills[i]
		e := entry{s: s}
		e.compact = c.piece(func(b *strings.Builder) { c.writeCompact(b, s) })
		c.measure(&e.compact)
		left := len(c.skills) - len(c.entries) - 1
		if d := len(strconv.Itoa(left)); d != noteDigits {
			noteLen, noteDigits = runes(c.truncationNote(left)), d
		}
		if used+e.compact.runes+noteLen > room {
			break
		}
		used += e.compact.runes
		kept[i] = true
		c.entries = append(c.entries, e)
	}
	// The kept entries in the order given, then the skills left out.
	index := make(map[*skill.Skill]int, len(c.entries))
	for i, s := range c.skills {
		if kept[i] {
			index[s] = i
		}
	}
	slices.SortFunc(c.entries, func(a, b entry) int { return index[a.s] - index[b.s] })
	skills := make([]*skill.Skill, 0, len(c.skills))
	for _, e := range c.entries {
		skills = append(skills, e.s)
	}
	for i, s := range c.skills {
		if !kept[i] {
			skills = append(skills, s)
		}
	}
	c.skills = skills
	return len(c.entries)
}

// ranked is a skill's place in the order of keeping: Priority, highest
// first, then the spread of spreadKey, then the order given.
type ranked struct {
	prio   float64
	spread uint64
	i      int
}

func (a ranked) before(b ranked) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	if a.spread != b.spread {
		return a.spread < b.spread
	}
	return a.i < b.i
}

// rankQueue hands out the skills' indexes in the order of keeping, from a
// heap: a catalog that keeps k of n skills pays for n keys and k pops, not
// for sorting all n.
type rankQueue []ranked

func (c *catalog) rankOrder() rankQueue {
	q := make(rankQueue, len(c.skills))
	for i, s := range c.skills {
		q[i] = ranked{spread: spreadKey(s.Name), i: i}
		if c.o.Priority != nil {
			q[i].prio = c.o.Priority(s)
		}
	}
	for i := len(q)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
	return q
}

// pop removes and returns the next index; ok is false when none is left.
func (q *rankQueue) pop() (int, bool) {
	h := *q
	if len(h) == 0 {
		return 0, false
	}
	top := h[0].i
	h[0] = h[len(h)-1]
	*q = h[:len(h)-1]
	q.down(0)
	return top, true
}

func (q rankQueue) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(q) {
			return
		}
		m := l
		if r := l + 1; r < len(q) && q[r].before(q[l]) {
			m = r
		}
		if !q[m].before(q[i]) {
			return
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
}

// spreadKey is a stable, well-mixed key for a name (64-bit FNV-1a): skills
// ranked alike are kept in its order.
func spreadKey(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}

// withNote returns how many of the first n names-only entries fit in room
// together with the note saying how many skills are left out.
func (c *catalog) withNote(n, room int) int {
	used := 0
	for _, e := range c.entries[:n] {
		used += e.compact.runes
	}
	for ; n > 0; n-- {
		if used+runes(c.truncationNote(len(c.skills)-n)) <= room {
			return n
		}
		used -= c.entries[n-1].compact.runes
	}
	return 0
}

func (c *catalog) truncationNote(omitted int) string {
	if c.o.Search {
		return "\n" + fmt.Sprintf(c.t.TruncatedSearch, omitted)
	}
	return "\n" + fmt.Sprintf(c.t.Truncated, omitted)
}

// renderFull renders every entry's full form and reads its description's
// word ends and first sentence.
// entrySize is about the bytes of s's full entry, to size buffers once.
func entrySize(s *skill.Skill) int {
	return len(s.Name) + len(s.Description) + len(s.DiskDir) + 160
}

// writeEntry writes the full entry of s: the part before the description,
// the description, the part after it, calling split(0) and split(1) at the
// two boundaries.
func (c *catalog) writeEntry(b *strings.Builder, s *skill.Skill, split func(part int)) {
	// Marked before anything is measured: a marker is what the model reads,
	// and what the budget counts.
	desc, marked := s.Description, c.o.Format != FormatAgentSkills
	if c.o.MaxDescriptionChars > 0 {
		desc, marked = cut(hidden.Mark(desc), c.o.MaxDescriptionChars), true
	} else if marked {
		desc = hidden.Mark(desc)
	}
	if c.o.Format == FormatAgentSkills {
		writeAgentHead(b, s)
		b.WriteString("    <description>")
		split(0)
		if marked {
			writeEscaped(b, desc)
		} else {
			writeText(b, desc) // marked as it goes
		}
		split(1)
		b.WriteString("</description>\n")
		c.writeAgentTail(b, s)
		return
	}
	writeSkillkitHead(b, s)
	b.WriteString(">\n    ")
	split(0)
	writeOneLine(b, desc)
	split(1)
	c.writeSkillkitTail(b, s)
}

// whole renders the catalog with every skill and every description whole,
// in one pass, when it fits the budget; ok is false when it does not, or
// cannot: names and descriptions alone already take more characters than
// the budget allows (then nothing is rendered).
func (c *catalog) whole(guidance string, frame int) (text string, ok bool) {
	// A character takes a byte or more: bytes bound characters from
	// above, and are counted only when they could exceed the budget.
	size := len(guidance) + len(catalogOpen) + len(catalogClose)
	least := size
	for _, s := range c.skills {
		least += len(s.Name) + len(s.Description)
		size += entrySize(s)
	}
	if least > c.o.MaxChars && c.tooLong(guidance, frame) {
		return "", false
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(guidance)
	b.WriteString(catalogOpen)
	for _, s := range c.skills {
		c.writeEntry(&b, s, func(int) {})
	}
	b.WriteString(catalogClose)
	text = b.String()
	return text, len(text) <= c.o.MaxChars || runes(text) <= c.o.MaxChars
}

// tooLong reports whether the guidance, the frame and every name and
// description, in characters, already exceed the budget.
func (c *catalog) tooLong(guidance string, frame int) bool {
	least := runes(guidance) + frame
	for _, s := range c.skills {
		d := runes(s.Description)
		if m := c.o.MaxDescriptionChars; m > 0 {
			d = min(d, m)
		}
		least += runes(s.Name) + d
		if least > c.o.MaxChars {
			return true
		}
	}
	return false
}

func (c *catalog) renderFull() {
	size := 0
	for _, e := range c.entries {
		size += entrySize(e.s)
	}
	c.buf.Grow(size)
	for i := range c.entries {
		e := &c.entries[i]
		start := c.buf.Len()
		c.writeEntry(&c.buf, e.s, func(part int) {
			if part == 0 {
				e.pre = span{start: start, end: c.buf.Len()}
			} else {
				e.desc = span{start: e.pre.end, end: c.buf.Len()}
			}
		})
		e.post = span{start: e.desc.end, end: c.buf.Len()}
	}
	c.text = c.buf.String()
	for i := range c.entries {
		e := &c.entries[i]
		c.measure(&e.pre)
		c.measure(&e.desc)
		c.measure(&e.post)
	}
}

// scanPrefixes records the word and sentence ends of every description
// longer than shortest, up to character limit: what shortening to a share
// of at most limit looks at.
func (c *catalog) scanPrefixes(shortest, limit int) {
	size := 0
	for _, e := range c.entries {
		size += min(e.desc.runes, limit)
	}
	c.words = make([]cutAt, 0, size/6) // words of about six characters
	for i := range c.entries {
		e := &c.entries[i]
		e.words[0], e.sentences[0] = len(c.words), len(c.sentences)
		if e.desc.runes > shortest {
			c.scanDescription(c.text[e.desc.start:e.desc.end], limit)
		}
		e.words[1], e.sentences[1] = len(c.words), len(c.sentences)
	}
}

// scanDescription records the word ends (where a run of white space
// starts) and sentence ends of a rendered description's first limit
// characters
// (after a full stop, question or exclamation mark followed by white space
// and then not by a lower-case letter, so "e.g. this" goes on; after their
// CJK forms anywhere). Every mark it looks for is ASCII or a fixed UTF-8
// sequence, so it decodes only what is not ASCII.
func (c *catalog) scanDescription(d string, limit int) {
	n := int32(0)
	space := false
	for i, size := 0, 1; i < len(d) && int(n) < limit; i += size {
		ch := d[i]
		if size = 1; ch >= utf8.RuneSelf {
			_, size = utf8.DecodeRuneInString(d[i:]) // a byte that is not UTF-8 counts as one character, as everywhere
		}
		isSpace := ch == ' ' || ch == '\n' || ch == '\t'
		if isSpace && !space && n > 0 {
			c.words = append(c.words, cutAt{bytes: int32(i), runes: n})
		}
		space = isSpace
		n++
		end := 0
		switch ch {
		case '.', '!', '?':
			if endsSentence(d[i+1:]) {
				end = i + 1
			}
		case 0xE3, 0xEF:
			for _, mark := range cjkStops {
				if strings.HasPrefix(d[i:], mark) {
					end = i + len(mark)
				}
			}
		}
		if end > 0 {
			c.sentences = append(c.sentences, cutAt{bytes: int32(end), runes: n})
		}
	}
}

var cjkStops = []string{"。", "！", "？"}

// endsSentence reports whether a full stop, question or exclamation mark
// followed by rest ends a sentence; see scanDescription.
func endsSentence(rest string) bool {
	if rest == "" || (rest[0] != ' ' && rest[0] != '\n') {
		return false
	}
	next, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest, " \n"))
	return !unicode.IsLower(next)
}

// sums returns the full entries' total length, the part of it that is not
// description, and the descriptions' part.
func (c *catalog) sums() (full, fixed, descs int) {
	for _, e := range c.entries {
		fixed += e.pre.runes + e.post.runes
		descs += e.desc.runes
	}
	return fixed + descs, fixed, descs
}

// share finds the largest share k (at least MinDescriptionChars) such that
// the descriptions, each shortened to fit k, take at most room characters.
// Shortening to fit k only ever grows with k, so a binary search finds it.
//
// It reads only the descriptions' first characters. A description
// shortened to fit k keeps at least k/2 of them (or is whole), so k cannot
// exceed twice the largest share that fits when every description may take
// all k characters (a bound found from lengths alone); word and sentence
// ends are read up to there, and the search stays below it.
func (c *catalog) share(room, descs int) (int, bool) {
	if room >= descs {
		return 0, false
	}
	bound := func(k int) int {
		n := 0
		for _, e := range c.entries {
			n += min(e.desc.runes, k)
		}
		return n
	}
	longest := 0
	for _, e := range c.entries {
		longest = max(longest, e.desc.runes)
	}
	lo, hi := MinDescriptionChars, longest
	for lo < hi { // the largest k whose bound fits
		mid := (lo + hi + 1) / 2
		if bound(mid) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	lo, hi = MinDescriptionChars, min(longest, 2*lo+1)
	c.scanPrefixes(lo, hi)
	total := func(k int) int {
		n := 0
		for i := range c.entries {
			n += c.shortLen(&c.entries[i], k)
		}
		return n
	}
	if hi < lo || total(lo) > room {
		return 0, false
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if total(mid) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// shortLen is the length of e's description shortened to fit k characters:
// whole when it fits; else cut at the last sentence end that keeps at least
// half of k; else at the last word end that does, with "…"; else at k-1
// characters, with "…". Rendering may cut a character or two shorter, never
// longer (it does not split an XML entity). The length only grows with k.
func (c *catalog) shortLen(e *entry, k int) int {
	if e.desc.runes <= k {
		return e.desc.runes
	}
	if at, ok := lastBefore(c.sentences[e.sentences[0]:e.sentences[1]], k); ok {
		return int(at.runes)
	}
	if at, ok := lastBefore(c.words[e.words[0]:e.words[1]], k-1); ok {
		return int(at.runes) + 1
	}
	return k
}

// lastBefore returns the last place at or before character h, when it keeps
// at least half of h.
func lastBefore(places []cutAt, h int) (cutAt, bool) {
	i, _ := slices.BinarySearchFunc(places, int32(h+1), func(p cutAt, n int32) int { return int(p.runes - n) })
	if i == 0 || int(places[i-1].runes)*2 < h {
		return cutAt{}, false
	}
	return places[i-1], true
}

// writeShortened writes e's description shortened to fit k; see shortLen.
func (c *catalog) writeShortened(b *strings.Builder, e *entry, k int) {
	d := c.text[e.desc.start:e.desc.end]
	if e.desc.runes <= k {
		b.WriteString(d)
		return
	}
	if at, ok := lastBefore(c.sentences[e.sentences[0]:e.sentences[1]], k); ok {
		b.WriteString(d[:at.bytes])
		return
	}
	end := 0
	if at, ok := lastBefore(c.words[e.words[0]:e.words[1]], k-1); ok {
		end = int(at.bytes)
	} else {
		for i := range d { // the byte where character k-1 starts
			if k--; k == 0 {
				end = i
				break
			}
		}
		if amp := strings.LastIndexByte(d[:end], '&'); amp >= 0 && !strings.Contains(d[amp:end], ";") {
			end = amp // never split an XML entity
		}
	}
	b.WriteString(strings.TrimRight(d[:end], " \n\t"))
	b.WriteString("…")
}

// finish fills in the result's lists and diagnostics for the first n
// entries listed in form comp.
func (c *catalog) finish(res *CatalogResult, n int, comp Compaction, share int) {
	res.Compaction, res.DescriptionChars = comp, share
	res.Listed = make([]string, 0, n)
	res.Omitted = make([]string, 0, len(c.skills)-n)
	for i, s := range c.skills {
		if i >= n {
			res.Omitted = append(res.Omitted, s.Name)
			continue
		}
		res.Listed = append(res.Listed, s.Name)
		if comp == CompactionShortened && c.entries[i].desc.runes > share {
			res.Shortened = append(res.Shortened, s.Name)
		}
	}
	max := c.o.MaxChars
	switch comp {
	case CompactionTerse:
		what := "leaves out the per-entry hint to load a skill with read_skill"
		if c.o.Format == FormatAgentSkills {
			what = "leaves out locations"
			if c.locRoot != "" {
				what = "gives locations relative to " + c.locRoot
			}
		}
		res.Diagnostics = append(res.Diagnostics, diagnostics.New(diagnostics.PromptCompacted, "", "",
			"the catalog %s, every description whole, to fit in %d characters", what, max).
			With("compaction", string(comp)).With("max_chars", max))
	case CompactionShortened:
		res.Diagnostics = append(res.Diagnostics, diagnostics.New(diagnostics.PromptCompacted, "", "",
			"the catalog shortened %d of %d descriptions to at most %d characters each, at a sentence or word end, to fit in %d characters",
			len(res.Shortened), len(c.skills), share, max).
			With("compaction", string(comp)).With("max_chars", max).With("description_chars", share).With("shortened", res.Shortened))
	case CompactionNamesOnly:
		res.Diagnostics = append(res.Diagnostics, diagnostics.New(diagnostics.PromptCompacted, "", "",
			"the catalog lists names without descriptions: %d skills do not fit in %d characters with even %d characters of description each",
			len(c.skills), max, MinDescriptionChars).
			With("compaction", string(comp)).With("max_chars", max))
	}
	if len(res.Omitted) > 0 {
		res.Diagnostics = append(res.Diagnostics, diagnostics.New(diagnostics.PromptTruncated, "", "",
			"the catalog left out %d of %d skills, which do not fit in %d characters even without descriptions (kept by priority, then a stable spread of names): %s",
			len(res.Omitted), len(c.skills), max, sampleNames(res.Omitted)).
			With("max_chars", max).With("omitted", res.Omitted))
	}
}

// sampleNames names a few of many: "a, b, c and 4 more".
func sampleNames(names []string) string {
	const shown = 5
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}

// build writes the text once: guidance, the first n entries in form comp,
// and the note on skills left out.
func (c *catalog) build(guidance string, n int, comp Compaction, share int) string {
	text := c.buf.String()
	size := len(guidance) + len(catalogOpen) + len(catalogClose) + max(len(c.t.Truncated), len(c.t.TruncatedSearch)) + 24
	for _, e := range c.entries[:n] {
		if comp == CompactionNamesOnly {
			size += e.compact.end - e.compact.start
		} else {
			size += e.pre.end - e.pre.start + e.desc.end - e.desc.start + e.post.end - e.post.start
		}
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(guidance)
	b.WriteString(catalogOpen)
	for i := range c.entries[:n] {
		e := &c.entries[i]
		switch comp {
		case CompactionNamesOnly:
			b.WriteString(text[e.compact.start:e.compact.end])
		case CompactionShortened:
			b.WriteString(text[e.pre.start:e.pre.end])
			c.writeShortened(&b, e, share)
			b.WriteString(text[e.post.start:e.post.end])
		default:
			b.WriteString(text[e.pre.start:e.post.end])
		}
	}
	b.WriteString(catalogClose)
	if n < len(c.skills) {
		b.WriteString(c.truncationNote(len(c.skills) - n))
	}
	return b.String()
}

// writeCompact writes the names-only entry of s.
func (c *catalog) writeCompact(b *strings.Builder, s *skill.Skill) {
	if c.o.Format == FormatAgentSkills {
		writeAgentHead(b, s)
		c.writeAgentTail(b, s)
		return
	}
	writeSkillkitHead(b, s)
	b.WriteString("/>\n")
}

func writeAgentHead(b *strings.Builder, s *skill.Skill) {
	b.WriteString("  <skill>\n    <name>")
	writeText(b, s.Name)
	b.WriteString("</name>\n")
	if s.Origin != "" {
		b.WriteString("    <origin>")
		writeText(b, s.Origin)
		b.WriteString("</origin>\n")
	}
}

func (c *catalog) writeAgentTail(b *strings.Builder, s *skill.Skill) {
	if c.locRoot == "" && !c.o.HideLocation && joined(s.DiskDir, s.File) {
		b.WriteString("    <location>")
		writeText(b, s.DiskDir)
		b.WriteByte(filepath.Separator)
		writeText(b, s.File)
		b.WriteString("</location>\n  </skill>\n")
		return
	}
	if loc := skillPath(s); loc != "" && !c.o.HideLocation {
		if c.locRoot != "" {
			if rel, err := filepath.Rel(c.locRoot, loc); err == nil {
				loc = filepath.ToSlash(rel)
			}
		}
		b.WriteString("    <location>")
		b.WriteString(Escape(loc))
		b.WriteString("</location>\n")
	}
	b.WriteString("  </skill>\n")
}

func writeSkillkitHead(b *strings.Builder, s *skill.Skill) {
	b.WriteString(`  <skill name="`)
	writeText(b, s.Name)
	b.WriteString(`" type="`)
	b.WriteString(Escape(string(s.Class)))
	b.WriteByte('"')
	if s.Origin != "" {
		b.WriteString(` origin="`)
		b.WriteString(Escape(s.Origin))
		b.WriteByte('"')
	}
	if cat := s.Frontmatter.Category; cat != "" {
		b.WriteString(` category="`)
		b.WriteString(Escape(cat))
		b.WriteByte('"')
	}
}

// writeSkillkitTail writes what follows the description in the skillkit format:
// how to use the skill and, for one the agent can run, its input summary.
func (c *catalog) writeSkillkitTail(b *strings.Builder, s *skill.Skill) {
	runnable := c.runnable(s)
	class := s.Class
	if class == skill.ClassComputeEntry && !runnable {
		class = skill.ClassPrompt // the agent reads it; it cannot run it
	}
	if hint := useHint(class, c.t); !c.terse || class != skill.ClassPrompt {
		b.WriteString(" (")
		b.WriteString(Escape(hint))
		b.WriteString(")")
	}
	b.WriteString("\n")
	if runnable && s.Config != nil && len(s.Config.Interface.InputFields) > 0 {
		b.WriteString("    ")
		b.WriteString(Escape(inputSummary(s.Config.Interface.InputFields, c.t)))
		b.WriteString("\n")
	}
	b.WriteString("  </skill>\n")
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

// commonRoot is the deepest folder on disk that holds every skill's folder,
// "" when some skill is not on disk or the folders share no root but "/".
func commonRoot(skills []*skill.Skill) string {
	root := ""
	for _, s := range skills {
		if s.DiskDir == "" || !filepath.IsAbs(s.DiskDir) {
			return ""
		}
		dir := filepath.Dir(s.DiskDir)
		if root == "" {
			root = dir
			continue
		}
		for root != dir && !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			parent := filepath.Dir(root)
			if parent == root {
				return ""
			}
			root = parent
		}
	}
	if root == filepath.Dir(root) {
		return "" // the file system's root says nothing
	}
	return root
}

// joined reports whether filepath.Join(dir, file) is dir, a separator and
// file: dir is a clean folder other than the root, and file a name.
func joined(dir, file string) bool {
	return dir != "" && file != "" && file != "." && file != ".." &&
		!strings.ContainsAny(file, "/"+string(filepath.Separator)) &&
		filepath.Clean(dir) == dir && filepath.Dir(dir) != dir
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
// marks hidden characters (hidden.Mark): "[U+202E]" instead of an
// invisible override, so no skill text reaches the model in a form a
// person reading it would not see.
func Escape(s string) string {
	s = hidden.Mark(s)
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	writeEscaped(&b, s)
	return b.String()
}

// writeOneLine writes s escaped, with each run of ASCII white space as one
// space and none at the ends: Escape(strings.Join(strings.Fields(s), " "))
// without the allocations, since it runs for every skill of every catalog.
// It copies runs of ordinary bytes at once; UTF-8 sequences never contain
// the bytes it looks for. s is already marked (hidden.Mark).
func writeOneLine(b *strings.Builder, s string) {
	s = strings.TrimSpace(s)
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch k := byteClass[c]; {
		case k&(escByte|spaceByte) == 0:
		case c == ' ' && !asciiSpace(s[i+1]): // a lone space stays in the run; TrimSpace left none at the end
		case k&spaceByte != 0:
			j := i + 1
			for asciiSpace(s[j]) {
				j++
			}
			b.WriteString(s[start:i])
			b.WriteByte(' ')
			start, i = j, j-1
		default:
			b.WriteString(s[start:i])
			b.WriteString(entities[c])
			start = i + 1
		}
	}
	b.WriteString(s[start:])
}

func asciiSpace(c byte) bool { return byteClass[c]&spaceByte != 0 }

// writeEscaped writes Escape(s) of an already marked s without building it
// first.
func writeEscaped(b *strings.Builder, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		if byteClass[s[i]]&escByte == 0 {
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(entities[s[i]])
		start = i + 1
	}
	b.WriteString(s[start:])
}

// writeText writes Escape(s): in one pass over s while its bytes are plain
// (ASCII, no control character but tab, line feed and carriage return),
// which hidden.Mark keeps as they are; from the first other byte on, it goes
// on in hidden.Mark(s), which starts with the same plain bytes.
func writeText(b *strings.Builder, s string) {
	look := uint8(escByte | markByte)
	start := 0
	for i := 0; i < len(s); i++ {
		k := byteClass[s[i]] & look
		if k == 0 {
			continue
		}
		if k&markByte != 0 {
			s, look = hidden.Mark(s), escByte
			if byteClass[s[i]]&escByte == 0 {
				continue
			}
		}
		b.WriteString(s[start:i])
		b.WriteString(entities[s[i]])
		start = i + 1
	}
	b.WriteString(s[start:])
}

// The classes of a byte for the catalog's passes over text.
const (
	escByte   uint8 = 1 << iota // & < > " ': written as an entity
	spaceByte                   // ASCII white space
	markByte                    // not plain for hidden.Mark: a control but tab, line feed and carriage return, DEL, or part of a multi-byte character
)

// byteClass holds the classes of every byte; entities the XML escape of
// every byte of class escByte.
var (
	byteClass = func() (t [256]uint8) {
		for _, c := range []byte(`&<>"'`) {
			t[c] |= escByte
		}
		for _, c := range []byte(" \t\n\r\v\f") {
			t[c] |= spaceByte
		}
		for c := range 256 {
			if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				t[c] |= markByte
			}
		}
		return t
	}()
	entities = [256]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&apos;"}
)

func runes(s string) int { return utf8.RuneCountInString(s) }

// cut shortens s to at most n characters, ending with "…" when cut, at a
// word boundary when one is in the second half.
func cut(s string, n int) string {
	if len(s) <= n || runes(s) <= n {
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
