package tools

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/search"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/usage"
)

// UsagePriority is the catalog's priority ([prompt.Options].Priority) a
// [Resolver] uses unless the agent gives its own: a skill used more often
// (by any agent, through read_skill, read_skill_file or execute_skill, as
// store counts them) ranks higher; among skills used as often, and when
// store is nil, a skill of an earlier source (precedence) ranks higher.
// So a catalog that must leave skills out keeps the skills agents use
// and leaves out the never used ones first. The store is asked once, the
// first time the catalog needs a priority (only when it leaves skills
// out); when it cannot answer, onError is told and precedence alone ranks.
func UsagePriority(ctx context.Context, store usage.Store, sources []loader.Source, onError func(error)) func(*skill.Skill) float64 {
	rank := map[string]float64{}
	for i, src := range sources {
		rank[src.Name] = float64(len(sources) - i)
	}
	var once sync.Once
	var uses map[string]int64
	return func(s *skill.Skill) float64 {
		once.Do(func() {
			if store == nil {
				return
			}
			stats, err := store.Stats(ctx)
			if err != nil {
				if onError != nil {
					onError(err)
				}
				return
			}
			uses = map[string]int64{}
			for _, st := range stats {
				uses[st.Skill] += st.Uses
			}
		})
		// Uses first, precedence among equals: a use outweighs every
		// difference of precedence.
		return float64(uses[s.Name])*float64(len(sources)+1) + rank[s.Source]
	}
}

// recordUses makes the skill tools among ts count each call in r.Usage.
func (r *Resolver) recordUses(ts []Tool, agent string) {
	if r.Usage == nil {
		return
	}
	for i := range ts {
		switch ts[i].Name {
		case ReadSkillName, ReadSkillFileName, ExecuteSkillName:
		default:
			continue
		}
		name, run := ts[i].Name, ts[i].Invoke
		ts[i].Invoke = func(ctx context.Context, args json.RawMessage) (Result, error) {
			res, err := run(ctx, args)
			var a struct {
				Name string `json:"name"`
			}
			// Only calls about a skill the tool knows count: the
			// arguments passed its schema, whose name is an enum.
			if json.Unmarshal(args, &a) == nil && a.Name != "" && !(res.IsError && invalidArgs(res)) {
				outcome := usage.OK
				if err != nil || res.IsError {
					outcome = usage.Failed
				}
				u := usage.Use{Skill: a.Name, Agent: agent, Tool: name, Time: time.Now(), Outcome: outcome}
				if rerr := r.Usage.Record(context.WithoutCancel(ctx), u); rerr != nil && r.OnUsageError != nil {
					r.OnUsageError(rerr)
				}
			}
			return res, err
		}
	}
}

// invalidArgs reports whether a result says the arguments broke the tool's
// schema: such a call names no skill for sure.
func invalidArgs(res Result) bool {
	const prefix = "invalid arguments for "
	return len(res.Text) >= len(prefix) && res.Text[:len(prefix)] == prefix
}

// index returns the index search_skills uses, made on first need.
func (r *Resolver) index() *search.Index {
	r.searchOnce.Do(func() {
		if r.Search == nil {
			r.Search = search.New(nil)
		}
	})
	return r.Search
}
