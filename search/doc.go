// Package search finds skills by what a task needs: the index behind the
// search_skills tool, for agents whose catalog cannot list every skill.
//
// An [Index] ranks skills with BM25 (k1 1.2, b 0.75) over one bag of terms
// per skill, each term's frequency weighted by the field it came from: the
// name three times, the description, when_to_use, tags, category and
// metadata values twice, the first [DefaultBodyBytes] bytes of the body
// (what the skill is for, before the details) once.
//
// Text becomes terms so that English and Chinese both rank sensibly: runs
// of letters and digits are lower-cased (full-width forms folded), common
// English words dropped and the rest stemmed lightly ("images" and
// "imaging" meet "image"); runs of Chinese, Japanese or Korean characters,
// which do not separate words with spaces, become overlapping pairs of
// characters (bigrams), so "图片" matches in "把图片转成PDF" without a
// dictionary.
//
// The index follows a loader's snapshots ([Index.Follow]): the loader
// shares unchanged skills between snapshots, so a sync reads again only
// the skills that changed, and a removed or replaced skill's entries are
// dropped in bulk once they reach a quarter of the live ones. A search
// takes a visibility filter, asked only about skills that would rank, so
// one index serves every agent and no agent is shown a skill it may not
// see.
package search
