package search

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// DefaultBodyBytes is how much of each skill's body (the skill file after
// its frontmatter) an [Index] reads when Options.BodyBytes is zero.
const DefaultBodyBytes = 1500

// MaxSkills is the most skills an Index holds: a posting packs its skill's
// slot into 24 bits.
const MaxSkills = 1<<24 - 1

// ErrTooMany is returned by Sync when the skills outnumber [MaxSkills].
var ErrTooMany = errors.New("search: more skills than an index holds")

// The weight of each field in a term's frequency: a word of the name counts
// three times, of the description, when_to_use, tags, category or metadata
// twice, of the body once.
const (
	weightName = 3
	weightDesc = 2
	weightBody = 1
)

// BM25's parameters, the usual ones.
const (
	k1 = 1.2
	b  = 0.75
)

// Options tune an [Index]. A nil *Options means the defaults.
type Options struct {
	// BodyBytes is how many bytes of each skill's body are indexed, from
	// its start (the part that says what the skill is for); zero means
	// DefaultBodyBytes, negative none.
	BodyBytes int
}

// Hit is one skill a query found.
type Hit struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// Index ranks skills for a query with BM25 over each skill's name,
// description, when_to_use, tags, category, metadata values and the first
// part of its body (fields weighted; see the package documentation). It
// follows a loader's snapshots incrementally: [Index.Sync] re-indexes only
// the skills that changed. It is safe for concurrent use.
type Index struct {
	bodyBytes int

	syncMu   sync.Mutex // one Sync at a time; searches go on meanwhile
	mu       sync.RWMutex
	last     *loader.Snapshot
	sorted   []*skill.Skill   // the skills of the last Sync, by name
	docs     []doc            // by slot; dead slots stay until compaction
	byName   map[string]int32 // live slots
	terms    map[string]int32 // term → its posting list
	postings [][]uint32       // slot<<8 | weighted term frequency (≤ 255)
	live     int
	totalLen float64 // weighted lengths of the live skills

	scores sync.Pool // *scratch
}

type doc struct {
	skill  *skill.Skill
	length float32
	alive  bool
}

type scratch struct {
	score   []float32
	touched []int32
}

// New returns an empty index.
func New(opts *Options) *Index {
	ix := &Index{bodyBytes: DefaultBodyBytes, byName: map[string]int32{}, terms: map[string]int32{}}
	if opts != nil && opts.BodyBytes != 0 {
		ix.bodyBytes = max(opts.BodyBytes, 0)
	}
	return ix
}

// SyncStats says what one [Index.Sync] did.
type SyncStats struct {
	Added, Removed, Updated int
	// Compacted is true when the call rewrote the posting lists to drop
	// skills removed or replaced before.
	Compacted bool
}

// Follow syncs the index with snap, unless it already follows snap.
func (ix *Index) Follow(snap *loader.Snapshot) (SyncStats, error) {
	ix.mu.RLock()
	same := ix.last == snap
	ix.mu.RUnlock()
	if same || snap == nil {
		return SyncStats{}, nil
	}
	st, err := ix.Sync(snap.Skills())
	if err == nil {
		ix.mu.Lock()
		ix.last = snap
		ix.mu.Unlock()
	}
	return st, err
}

// Sync makes the index hold exactly skills (by name; a later one of the
// same name wins). A skill still indexed as the same *skill.Skill costs a
// comparison (a merge of the skills by name with those of the last Sync):
// the loader shares unchanged skills between snapshots, so after one skill
// changes only that skill is read again. A skill replaced
// or removed leaves a dead entry behind, dropped when dead entries reach a
// quarter of the live ones.
func (ix *Index) Sync(skills []*skill.Skill) (SyncStats, error) {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	// The skills by name, the last of a name kept: a snapshot's are
	// sorted and unique already, which one pass confirms.
	want := make([]*skill.Skill, 0, len(skills))
	for _, s := range skills {
		if s != nil {
			want = append(want, s)
		}
	}
	if !strictlySorted(want) {
		slices.SortStableFunc(want, func(a, b *skill.Skill) int { return strings.Compare(a.Name, b.Name) })
		want = dedupeLast(want)
	}
	if len(want) > MaxSkills {
		return SyncStats{}, fmt.Errorf("%w: %d, at most %d", ErrTooMany, len(want), MaxSkills)
	}
	// A merge of two sorted lists: what changed costs a comparison per
	// skill, no hashing and no allocation but the lists.
	ix.mu.RLock()
	var changed []*skill.Skill
	var gone []string
	prev := ix.sorted
	i, j := 0, 0
	for i < len(prev) || j < len(want) {
		switch {
		case j == len(want) || i < len(prev) && prev[i].Name < want[j].Name:
			gone = append(gone, prev[i].Name)
			i++
		case i == len(prev) || want[j].Name < prev[i].Name:
			changed = append(changed, want[j])
			j++
		default:
			if prev[i] != want[j] {
				changed = append(changed, want[j])
			}
			i++
			j++
		}
	}
	ix.mu.RUnlock()
	// Tokenize outside the lock: it reads skill files.
	// Each skill is read and split into terms on its own: in parallel.
	fields := make([]map[string]int, len(changed))
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(changed)/64+1)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(changed); i += workers {
				fields[i] = ix.termsOf(changed[i])
			}
		})
	}
	wg.Wait()

	ix.mu.Lock()
	defer ix.mu.Unlock()
	var st SyncStats
	for _, name := range gone {
		if ix.remove(name) {
			st.Removed++
		}
	}
	for i, s := range changed {
		if ix.remove(s.Name) {
			st.Updated++
		} else {
			st.Added++
		}
		ix.add(s, fields[i])
	}
	if dead := len(ix.docs) - ix.live; dead > 0 && (dead*4 > ix.live || len(ix.docs) >= MaxSkills) {
		ix.compact()
		st.Compacted = true
	}
	ix.last, ix.sorted = nil, want
	return st, nil
}

// strictlySorted reports whether the names rise strictly.
func strictlySorted(skills []*skill.Skill) bool {
	for i := 1; i < len(skills); i++ {
		if skills[i-1].Name >= skills[i].Name {
			return false
		}
	}
	return true
}

// dedupeLast keeps the last skill of each name of a list sorted by name.
func dedupeLast(sorted []*skill.Skill) []*skill.Skill {
	out := sorted[:0]
	for i, s := range sorted {
		if i+1 < len(sorted) && sorted[i+1].Name == s.Name {
			continue
		}
		out = append(out, s)
	}
	return out
}

// Len returns the number of skills indexed.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

func (ix *Index) remove(name string) bool {
	slot, ok := ix.byName[name]
	if !ok {
		return false
	}
	d := &ix.docs[slot]
	d.alive = false
	d.skill = nil
	ix.live--
	ix.totalLen -= float64(d.length)
	delete(ix.byName, name)
	return true
}

func (ix *Index) add(s *skill.Skill, tf map[string]int) {
	slot := int32(len(ix.docs))
	length := 0
	for term, n := range tf {
		length += n
		id, ok := ix.terms[term]
		if !ok {
			id = int32(len(ix.postings))
			ix.terms[term] = id
			ix.postings = append(ix.postings, nil)
		}
		ix.postings[id] = append(ix.postings[id], uint32(slot)<<8|uint32(min(n, 255)))
	}
	ix.docs = append(ix.docs, doc{skill: s, length: float32(length), alive: true})
	ix.byName[s.Name] = slot
	ix.live++
	ix.totalLen += float64(length)
}

// compact renumbers the live skills and drops the dead ones' postings and
// the terms only they had.
func (ix *Index) compact() {
	remap := make([]int32, len(ix.docs))
	docs := make([]doc, 0, ix.live)
	for i, d := range ix.docs {
		remap[i] = -1
		if d.alive {
			remap[i] = int32(len(docs))
			docs = append(docs, d)
			ix.byName[d.skill.Name] = remap[i]
		}
	}
	terms := make(map[string]int32, len(ix.terms))
	postings := make([][]uint32, 0, len(ix.postings))
	for term, id := range ix.terms {
		var kept []uint32
		for _, p := range ix.postings[id] {
			if to := remap[p>>8]; to >= 0 {
				kept = append(kept, uint32(to)<<8|p&0xff)
			}
		}
		if len(kept) > 0 {
			terms[term] = int32(len(postings))
			postings = append(postings, kept)
		}
	}
	ix.docs, ix.terms, ix.postings = docs, terms, postings
}

// termsOf returns the weighted frequency of each term of s.
func (ix *Index) termsOf(s *skill.Skill) map[string]int {
	tf := map[string]int{}
	add := func(text string, weight int) {
		for _, t := range appendTokens(nil, text) {
			tf[t] += weight
		}
	}
	add(s.Name, weightName)
	add(s.Description, weightDesc)
	fm := &s.Frontmatter
	add(fm.WhenToUse, weightDesc)
	add(fm.Category, weightDesc)
	for _, t := range fm.Tags {
		add(t, weightDesc)
	}
	walkStrings(fm.Metadata, func(v string) { add(v, weightDesc) })
	if ix.bodyBytes > 0 {
		add(bodyStart(s, ix.bodyBytes), weightBody)
	}
	return tf
}

// walkStrings calls f with every string in a metadata value, at any depth.
func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, e := range v {
			walkStrings(e, f)
		}
	case map[string]any:
		for _, e := range v {
			walkStrings(e, f)
		}
	}
}

// bodyStart returns about the first n bytes of s's body, "" when the skill
// file cannot be read (a skill not loaded from a file system).
func bodyStart(s *skill.Skill, n int) string {
	// The frontmatter comes first; read enough for it and n more bytes.
	data, err := s.ReadFileLimit(s.File, int64(n)+16<<10)
	if err != nil {
		return ""
	}
	_, body, err := skill.SplitFrontmatter(data)
	if err != nil {
		return ""
	}
	if len(body) > n {
		body = body[:n]
	}
	return string(body)
}

// Search returns the skills that best match query, best first (ties by
// name), at most limit of them (every match when limit ≤ 0), among those
// visible accepts (every skill when visible is nil). visible is asked only
// about skills that would rank among the first limit, so a skill it
// refuses never shows, and costs nothing more than a skill that ranks
// lower.
func (ix *Index) Search(query string, limit int, visible func(name string) bool) []Hit {
	qterms := appendTokens(nil, query)
	if len(qterms) == 0 {
		return []Hit{}
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.live == 0 {
		return []Hit{}
	}
	sc, _ := ix.scores.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	if len(sc.score) < len(ix.docs) {
		sc.score = make([]float32, len(ix.docs))
	}
	defer func() {
		for _, slot := range sc.touched {
			sc.score[slot] = 0
		}
		sc.touched = sc.touched[:0]
		ix.scores.Put(sc)
	}()
	n := float64(ix.live)
	avg := ix.totalLen / n
	seen := map[string]bool{}
	for _, term := range qterms {
		if seen[term] {
			continue
		}
		seen[term] = true
		id, ok := ix.terms[term]
		if !ok {
			continue
		}
		plist := ix.postings[id]
		df := 0
		for _, p := range plist {
			if ix.docs[p>>8].alive {
				df++
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		for _, p := range plist {
			slot := int32(p >> 8)
			d := &ix.docs[slot]
			if !d.alive {
				continue
			}
			tf := float64(p & 0xff)
			s := idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(d.length)/avg))
			if sc.score[slot] == 0 {
				sc.touched = append(sc.touched, slot)
			}
			sc.score[slot] += float32(s)
		}
	}
	return ix.top(sc, limit, visible)
}

// top picks the best visible hits from the scores: a heap of the best
// limit so far, so a query that touches many skills sorts only those it
// returns.
func (ix *Index) top(sc *scratch, limit int, visible func(string) bool) []Hit {
	if limit <= 0 || limit > len(sc.touched) {
		limit = len(sc.touched)
	}
	h := &hitHeap{ix: ix, sc: sc}
	for _, slot := range sc.touched {
		if len(h.slots) == limit && !h.better(slot, h.slots[0]) {
			continue
		}
		if visible != nil && !visible(ix.docs[slot].skill.Name) {
			continue
		}
		if len(h.slots) < limit {
			heap.Push(h, slot)
		} else {
			h.slots[0] = slot
			heap.Fix(h, 0)
		}
	}
	slices.SortFunc(h.slots, func(a, b int32) int {
		if h.better(a, b) {
			return -1
		}
		return 1
	})
	hits := make([]Hit, len(h.slots))
	for i, slot := range h.slots {
		hits[i] = Hit{Name: ix.docs[slot].skill.Name, Score: float64(sc.score[slot])}
	}
	return hits
}

// hitHeap is a min-heap of slots, the worst hit on top.
type hitHeap struct {
	ix    *Index
	sc    *scratch
	slots []int32
}

// better reports whether slot a ranks before slot b: a higher score, or
// the same score and an earlier name.
func (h *hitHeap) better(a, b int32) bool {
	if sa, sb := h.sc.score[a], h.sc.score[b]; sa != sb {
		return sa > sb
	}
	return h.ix.docs[a].skill.Name < h.ix.docs[b].skill.Name
}

func (h *hitHeap) Len() int           { return len(h.slots) }
func (h *hitHeap) Less(i, j int) bool { return h.better(h.slots[j], h.slots[i]) }
func (h *hitHeap) Swap(i, j int)      { h.slots[i], h.slots[j] = h.slots[j], h.slots[i] }
func (h *hitHeap) Push(x any)         { h.slots = append(h.slots, x.(int32)) }
func (h *hitHeap) Pop() any {
	last := h.slots[len(h.slots)-1]
	h.slots = h.slots[:len(h.slots)-1]
	return last
}
