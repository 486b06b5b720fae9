package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/search"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/usage"
)

// Agent describes one agent to [Resolver.Resolve].
type Agent struct {
	// Name identifies the agent in the audit line of each run of its
	// execute_skill ([executor.WithAgent]); empty leaves it out.
	Name string
	// Skills are the skills assigned to the agent; nil means every enabled
	// skill, an empty non-nil list none.
	Skills []string
	// Tools are the names of the host's tools this agent has ("bash",
	// "web_search"); skills' requires_tools and fallback_for_tools conditions
	// are checked against them.
	Tools []string
	// Toolsets are the agent's toolsets (Hermes' conditions).
	Toolsets []string
	// ShellTool names the host's tool that runs shell commands, which
	// compute-toolkit skills need; default "bash".
	ShellTool string
	// DisableExecute withholds execute_skill even when a compute-entry skill
	// is visible.
	DisableExecute bool
	// DisableManage withholds skill_manage.
	DisableManage bool
	// DisableSearch withholds search_skills, which the agent otherwise gets
	// when its catalog leaves skills out; the catalog then tells the model
	// to ask the user for a skill it does not list.
	DisableSearch bool
	// OfferUnconfigured keeps in execute_skill the compute-entry skills
	// whose required environment variables have no value (by default they
	// are left out, with a warning): for a host whose agent tells the user
	// what to configure when a run fails with ENV_NOT_CONFIGURED.
	OfferUnconfigured bool
	// Catalog tunes the <available_skills> section (format, language,
	// budget).
	Catalog *prompt.Options
	// Read tunes read_skill and read_skill_file.
	Read *ReadOptions
	// Env supplies the machine lookups of the visibility rules (OS, programs
	// on PATH, environment variables, host configuration); its Tools,
	// Toolsets and Skills are taken from the fields above.
	Env loader.Env
}

// Toolset is everything one agent gets: the prompt section, the tools, and
// what the host should know.
type Toolset struct {
	// Prompt is the catalog section for the system prompt; empty when the
	// agent sees no skill in its catalog.
	Prompt string `json:"prompt"`
	// Tools are the skill tools to register; none when the agent may read
	// no skill, not even a hidden one by name.
	Tools []Tool `json:"tools"`
	// Warnings are for the host or the person configuring the agent, not for
	// the model: a compute-entry skill without
	// execute_skill, a compute-toolkit skill without a shell tool, an
	// assigned skill that is hidden or unknown, a catalog that shortened
	// descriptions or left skills out to fit its budget.
	Warnings []string `json:"warnings"`
	// Diagnostics are the catalog's PROMPT_COMPACTED and PROMPT_TRUNCATED
	// findings.
	Diagnostics diagnostics.List `json:"diagnostics"`
	// Catalog is the rendered catalog: Prompt is its Text; it also says
	// which skills are listed, which left out, and how descriptions were
	// shortened.
	Catalog prompt.CatalogResult `json:"-"`
	// Visibility says what the agent sees and why each other skill is hidden.
	Visibility *loader.Visibility `json:"-"`
}

// Tool returns the tool with the given name.
func (t Toolset) Tool(name string) (Tool, bool) {
	for _, tool := range t.Tools {
		if tool.Name == name {
			return tool, true
		}
	}
	return Tool{}, false
}

// Resolver turns an agent's configuration into its Toolset. Loader is
// required; without an Executor there is no execute_skill, without a Manager
// no skill_manage.
type Resolver struct {
	Loader   *loader.Loader
	Executor *executor.Executor
	// Manager, when set, gives agents skill_manage (the Kit sets it by
	// default; a host that does not want agents writing skills leaves it
	// nil, and Agent.DisableManage withholds it from one agent). The Kit
	// passes its Installer, on the loader's writable source.
	Manager Manager
	// Search is the index search_skills ranks skills with; it follows
	// Loader's snapshots, one sync per call that finds the snapshot
	// changed. Nil: the Resolver makes one (package search's defaults)
	// the first time an agent gets search_skills, and keeps it.
	Search *search.Index
	// Usage, when set, records every call of read_skill, read_skill_file
	// and execute_skill (the skill, Agent.Name, the tool, the time, whether
	// it answered; never the arguments), and a catalog that must leave
	// skills out keeps the most used ones (see [UsagePriority]).
	Usage usage.Store
	// OnUsageError is told when Usage cannot record a use or report
	// uses; the call itself goes on. Nil ignores such errors.
	OnUsageError func(error)

	searchOnce sync.Once
}

// Resolve builds the Toolset of one agent from the loader's current
// snapshot: the skills it sees (its assignment, the visibility rules, skills
// disabled in the registry hidden), the catalog, read_skill and
// read_skill_file over the skills it may read (the catalog plus hidden skills
// it may still read by name), search_skills over its catalog's skills when
// the catalog leaves some out (unless Agent.DisableSearch), execute_skill
// over its compute-entry skills, skill_manage when a Manager is set; with
// Usage, its calls of read_skill, read_skill_file and execute_skill are
// counted. An agent that may read no skill gets
// no prompt and no skill tools but skill_manage; one that may read only
// hidden skills gets read_skill and read_skill_file and no prompt.
func (r *Resolver) Resolve(ctx context.Context, agent Agent) (Toolset, error) {
	if r == nil || r.Loader == nil {
		return Toolset{}, errors.New("tools: Resolve needs a loader")
	}
	env := agent.Env
	env.Tools, env.Toolsets, env.Skills = agent.Tools, agent.Toolsets, agent.Skills
	vis, err := r.Loader.Filter(ctx, env)
	if err != nil {
		return Toolset{}, err
	}
	ts := Toolset{Tools: []Tool{}, Warnings: []string{}, Diagnostics: diagnostics.List{}, Visibility: vis}
	ts.Warnings = append(ts.Warnings, assignmentWarnings(agent.Skills, vis)...)
	// Hidden skills stay out of the catalog but not out of reach: an agent
	// whose every skill is hidden still reads them by name.
	readable := vis.Readable()
	if len(readable) == 0 {
		return r.addManage(ts, agent)
	}
	var names, computeEntry []string
	hasToolkit := false
	for _, s := range readable {
		names = append(names, s.Name)
		switch s.Class {
		case skill.ClassComputeEntry:
			computeEntry = append(computeEntry, s.Name)
		case skill.ClassComputeToolkit:
			hasToolkit = true
		}
	}
	runnable := computeEntry[:0:0]
	for _, name := range computeEntry {
		if r.Executor != nil {
			if err := r.Executor.Check(ctx, name); err != nil {
				ts.Warnings = append(ts.Warnings, fmt.Sprintf("skill %s is compute-entry but cannot run: %v", name, err))
				var nr *executor.NotRunnableError
				if !agent.OfferUnconfigured || !errors.As(err, &nr) || nr.Code != diagnostics.EnvNotConfigured {
					continue
				}
			}
		}
		runnable = append(runnable, name)
	}
	offerExecute := len(runnable) > 0 && !agent.DisableExecute && r.Executor != nil
	if len(runnable) > 0 && !offerExecute {
		ts.Warnings = append(ts.Warnings, fmt.Sprintf("skills %s are compute-entry but execute_skill is not offered to this agent", strings.Join(runnable, ", ")))
	}

	// The catalog tells the model to call execute_skill only for the skills
	// it can run with the tools it is given.
	catalogOpts := prompt.Options{}
	if agent.Catalog != nil {
		catalogOpts = *agent.Catalog
	}
	canRun := make(map[string]bool, len(runnable))
	for _, name := range runnable {
		canRun[name] = offerExecute
	}
	catalogOpts.Executable = func(name string) bool { return canRun[name] }
	if catalogOpts.Priority == nil {
		// A catalog that cannot list every skill keeps the most used ones
		// and those of the first sources first: precedence, as for names.
		catalogOpts.Priority = UsagePriority(ctx, r.Usage, r.Loader.Sources(), r.OnUsageError)
	}
	catalogOpts.Search = catalogOpts.Search || !agent.DisableSearch
	catalog := prompt.Catalog(vis.Catalog, &catalogOpts)
	ts.Prompt, ts.Catalog = catalog.Text, catalog
	ts.Diagnostics = append(ts.Diagnostics, catalog.Diagnostics...)
	for _, d := range catalog.Diagnostics {
		ts.Warnings = append(ts.Warnings, d.Message)
	}

	read, err := ReadSkill(r.Loader, names, agent.Read)
	if err != nil {
		return Toolset{}, err
	}
	readFile, err := ReadSkillFile(r.Loader, names, agent.Read)
	if err != nil {
		return Toolset{}, err
	}
	ts.Tools = append(ts.Tools, read, readFile)
	if len(catalog.Omitted) > 0 && !agent.DisableSearch {
		index := r.index()
		find, err := SearchSkills(index, r.Loader, vis.Catalog)
		if err != nil {
			return Toolset{}, err
		}
		// Built (or brought up to date) in the background, so the first
		// call finds it ready; a call that comes first waits for it.
		go index.Follow(r.Loader.Snapshot())
		ts.Tools = append(ts.Tools, find)
	}
	if offerExecute {
		exec, err := ExecuteSkill(r.Executor, runnable)
		if err != nil {
			return Toolset{}, err
		}
		if agent.Name != "" {
			run := exec.Invoke
			exec.Invoke = func(ctx context.Context, args json.RawMessage) (Result, error) {
				return run(executor.WithAgent(ctx, agent.Name), args)
			}
		}
		ts.Tools = append(ts.Tools, exec)
	}
	r.recordUses(ts.Tools, agent.Name)
	if hasToolkit {
		shell := agent.ShellTool
		if shell == "" {
			shell = "bash"
		}
		if !slices.Contains(agent.Tools, shell) {
			var toolkits []string
			for _, s := range readable {
				if s.Class == skill.ClassComputeToolkit {
					toolkits = append(toolkits, s.Name)
				}
			}
			ts.Warnings = append(ts.Warnings, fmt.Sprintf("skills %s are compute-toolkit: the model runs their scripts with %s, which this agent does not have", strings.Join(toolkits, ", "), shell))
		}
	}
	return r.addManage(ts, agent)
}

// addManage adds skill_manage when the host gives a Manager and the agent
// is not denied it; an agent that sees no skill may still write one.
func (r *Resolver) addManage(ts Toolset, agent Agent) (Toolset, error) {
	if r.Manager == nil || agent.DisableManage {
		return ts, nil
	}
	manage, err := SkillManage(r.Manager, &ManageOptions{
		Skills: r.Loader,
		Changed: func(ctx context.Context) error {
			_, err := r.Loader.Rescan(ctx)
			return err
		},
	})
	if err != nil {
		return Toolset{}, err
	}
	if agent.Name != "" {
		// A proposal names the agent it came from.
		write := manage.Invoke
		manage.Invoke = func(ctx context.Context, args json.RawMessage) (Result, error) {
			return write(executor.WithAgent(ctx, agent.Name), args)
		}
	}
	ts.Tools = append(ts.Tools, manage)
	return ts, nil
}

// assignmentWarnings names assigned skills that do not exist or that the
// agent can neither see nor read, with why.
func assignmentWarnings(assigned []string, vis *loader.Visibility) []string {
	var out []string
	for _, name := range assigned {
		if _, ok := vis.Get(name); ok {
			continue
		}
		reasons, known := vis.Why(name)
		if !known {
			out = append(out, fmt.Sprintf("skill %s is assigned to this agent but is not installed", name))
			continue
		}
		var why []string
		for _, r := range reasons {
			why = append(why, r.Message)
		}
		out = append(out, fmt.Sprintf("skill %s is assigned to this agent but hidden: %s", name, strings.Join(why, "; ")))
	}
	return out
}
