package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/hidden"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/search"
	"github.com/skillkit-go/skillkit/skill"
)

// SearchSkillsName is the name of the search_skills tool.
const SearchSkillsName = "search_skills"

// The number of skills search_skills returns: by default, and at most.
const (
	DefaultSearchLimit = 5
	MaxSearchLimit     = 20
)

// searchDescriptionChars caps each description in search_skills' answer.
const searchDescriptionChars = 300

// SearchSkills returns the search_skills tool: ranked search, by what a
// task needs, over the skills in visible (an agent's catalog: skills hidden
// from it are never found). Each call first brings index up to date with
// the loader's current snapshot (a no-op when it already is; nil l leaves
// the index as it is). The answer names each skill found, best first, with
// its description as visible has it and how to use it.
func SearchSkills(index *search.Index, l *loader.Loader, visible []*skill.Skill) (Tool, error) {
	if index == nil {
		return Tool{}, fmt.Errorf("tools: search_skills needs an index")
	}
	byName := make(map[string]*skill.Skill, len(visible))
	for _, s := range visible {
		byName[s.Name] = s
	}
	schema := objectSchema([]property{
		{"query", map[string]any{"type": "string", "minLength": 1, "maxLength": 1000,
			"description": "What the task needs, in a few words: the action, the kind of file or data, the tool or service (\"fill a PDF form\", \"把图片转成文字\")."}},
		{"limit", map[string]any{"type": "integer", "minimum": 1, "maximum": MaxSearchLimit,
			"description": fmt.Sprintf("How many skills to return, best first (default %d).", DefaultSearchLimit)}},
	}, "query")
	type args struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	type found struct {
		Name        string  `json:"name"`
		Description string  `json:"description"`
		Class       string  `json:"class"`
		Score       float64 `json:"score"`
	}
	return newTool(SearchSkillsName,
		"Search the installed skills that <available_skills> does not list, by what the task needs. Returns the best matching skills with their descriptions; load one with read_skill before you use it.",
		schema, true,
		func(ctx context.Context, a args) (Result, error) {
			if l != nil {
				if _, err := index.Follow(l.Snapshot()); err != nil {
					return Result{}, err
				}
			}
			limit := a.Limit
			if limit <= 0 {
				limit = DefaultSearchLimit
			}
			hits := index.Search(a.Query, limit, func(name string) bool { return byName[name] != nil })
			out := struct {
				Query  string  `json:"query"`
				Skills []found `json:"skills"`
			}{Query: a.Query, Skills: []found{}}
			var b strings.Builder
			if len(hits) == 0 {
				fmt.Fprintf(&b, "No skill matches %q. Try other words for the task (the action, the file type, the tool or service), or go on without a skill.", a.Query)
			} else {
				fmt.Fprintf(&b, "Skills for %q, best first; load one with read_skill before you use it:\n", a.Query)
			}
			for _, h := range hits {
				s := byName[h.Name]
				desc := hidden.Mark(strings.Join(strings.Fields(s.Description), " "))
				if r := []rune(desc); len(r) > searchDescriptionChars {
					desc = string(r[:searchDescriptionChars-1]) + "…"
				}
				out.Skills = append(out.Skills, found{Name: s.Name, Description: desc, Class: string(s.Class), Score: h.Score})
				fmt.Fprintf(&b, "- %s (%s): %s\n", s.Name, s.Class, desc)
			}
			structured, err := json.Marshal(out)
			if err != nil {
				return Result{}, err
			}
			return Result{Text: strings.TrimSuffix(b.String(), "\n"), Structured: structured}, nil
		})
}
