// Package usage records which skills agents use, for a catalog that must
// leave skills out (it keeps the used ones) and for a curator's view of
// skills never used ("skillkit usage").
//
// A [Use] is one call of read_skill, read_skill_file or execute_skill:
// the skill, the agent, the tool, the time and whether the call answered or
// reported a mistake. Nothing of what the model or the user wrote is
// recorded: no task, no input, no prompt. A [Store] keeps, per skill, agent
// and tool, how many uses and failures there were and when the last was:
// [Memory] in the process, [File] in one JSON file that processes on a
// machine share (under a lock), and the fleet's SQL store
// (sqlstore.DB.Usage) across replicas.
package usage

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// Outcome says how a use ended.
type Outcome string

// The outcomes.
const (
	// OK: the tool answered.
	OK Outcome = "ok"
	// Failed: the tool reported the model's mistake (an unknown file, an
	// input the skill refuses) or the skill's run failed.
	Failed Outcome = "failed"
)

// Use is one call of a skill tool about one skill.
type Use struct {
	Skill   string    `json:"skill"`
	Agent   string    `json:"agent,omitempty"` // the agent's name; empty when the host names none
	Tool    string    `json:"tool"`            // read_skill, read_skill_file or execute_skill
	Time    time.Time `json:"time"`
	Outcome Outcome   `json:"outcome"`
}

// Stat is what a store knows of one skill's uses by one agent through one
// tool.
type Stat struct {
	Skill    string    `json:"skill"`
	Agent    string    `json:"agent,omitempty"`
	Tool     string    `json:"tool"`
	Uses     int64     `json:"uses"`
	Failures int64     `json:"failures"`
	Last     time.Time `json:"last"`
}

// Store records uses and reports them. Implementations are safe for
// concurrent use.
type Store interface {
	// Record counts one use.
	Record(ctx context.Context, u Use) error
	// Stats returns one Stat per skill, agent and tool used, sorted by
	// skill, agent and tool.
	Stats(ctx context.Context) ([]Stat, error)
}

// Summary is one skill's uses, all agents and tools together.
type Summary struct {
	Skill    string           `json:"skill"`
	Uses     int64            `json:"uses"`
	Failures int64            `json:"failures"`
	Last     time.Time        `json:"last"`
	ByTool   map[string]int64 `json:"by_tool"`
	Agents   []string         `json:"agents"` // the named agents that used it, sorted
}

// Summarize adds up stats per skill, sorted by skill.
func Summarize(stats []Stat) []Summary {
	by := map[string]*Summary{}
	for _, st := range stats {
		s := by[st.Skill]
		if s == nil {
			s = &Summary{Skill: st.Skill, ByTool: map[string]int64{}, Agents: []string{}}
			by[st.Skill] = s
		}
		s.Uses += st.Uses
		s.Failures += st.Failures
		s.ByTool[st.Tool] += st.Uses
		if st.Last.After(s.Last) {
			s.Last = st.Last
		}
		if st.Agent != "" && !slices.Contains(s.Agents, st.Agent) {
			s.Agents = append(s.Agents, st.Agent)
		}
	}
	out := make([]Summary, 0, len(by))
	for _, s := range by {
		slices.Sort(s.Agents)
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b Summary) int { return cmp.Compare(a.Skill, b.Skill) })
	return out
}

// add counts u into stats, keyed by skill, agent and tool.
func add(stats map[key]*Stat, u Use) {
	k := key{u.Skill, u.Agent, u.Tool}
	st := stats[k]
	if st == nil {
		st = &Stat{Skill: u.Skill, Agent: u.Agent, Tool: u.Tool}
		stats[k] = st
	}
	st.Uses++
	if u.Outcome == Failed {
		st.Failures++
	}
	if u.Time.After(st.Last) {
		st.Last = u.Time.UTC()
	}
}

type key struct{ skill, agent, tool string }

// sorted returns the stats sorted by skill, agent and tool.
func sorted(stats map[key]*Stat) []Stat {
	out := make([]Stat, 0, len(stats))
	for _, st := range stats {
		out = append(out, *st)
	}
	slices.SortFunc(out, compareStats)
	return out
}

func compareStats(a, b Stat) int {
	return cmp.Or(cmp.Compare(a.Skill, b.Skill), cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.Tool, b.Tool))
}
