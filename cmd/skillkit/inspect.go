package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

type inspectOptions struct {
	json bool
}

func inspectCommand() *command {
	return &command{
		name:    "inspect",
		args:    "[--json] PATH...",
		summary: "print the parsed model of each skill and its diagnostics",
		help: `
PATH is a skill folder or a folder holding skills at any depth. With --json the
output is {"skills":[...],"diagnostics":[...]}. Exit status 1 when any
diagnostic is an error.`,
		flags: func(fs *flag.FlagSet) any {
			o := &inspectOptions{}
			fs.BoolVar(&o.json, "json", false, `print {"skills":[...],"diagnostics":[...]} as JSON`)
			return o
		},
		run: runInspect,
	}
}

// skillView is the inspected form of a skill.
type skillView struct {
	Name          string           `json:"name"`
	Description   string           `json:"description"`
	Class         skill.Class      `json:"class"`
	Path          string           `json:"path"`
	Version       string           `json:"version,omitempty"`
	License       string           `json:"license,omitempty"`
	Compatibility string           `json:"compatibility,omitempty"`
	AllowedTools  []string         `json:"allowed_tools,omitempty"`
	Metadata      map[string]any   `json:"metadata,omitempty"`
	Emoji         string           `json:"emoji,omitempty"`
	Tags          []string         `json:"tags,omitempty"`
	Category      string           `json:"category,omitempty"`
	Hidden        bool             `json:"hidden"`
	Conditions    skill.Conditions `json:"conditions"`
	Requires      skill.Requires   `json:"requires"`
	OS            []string         `json:"os,omitempty"`
	Env           []skill.EnvVar   `json:"env,omitempty"`
	Config        *skill.Config    `json:"config"`
	Files         []string         `json:"files"`
	References    skill.References `json:"references"`
	Extra         map[string]any   `json:"extra,omitempty"`
	Diagnostics   diagnostics.List `json:"diagnostics"`
}

func viewOf(s *skill.Skill) skillView {
	fm := s.Frontmatter
	files := s.Files
	if files == nil {
		files = []string{}
	}
	return skillView{
		Name: s.Name, Description: s.Description, Class: s.Class, Path: s.DiskDir,
		Version: fm.Version, License: fm.License, Compatibility: fm.Compatibility,
		AllowedTools: fm.AllowedTools, Metadata: fm.Metadata, Emoji: fm.Emoji, Tags: fm.Tags,
		Category: fm.Category, Hidden: s.Hidden(), Conditions: fm.Conditions, Requires: fm.Requires,
		OS: fm.OS, Env: s.Env, Config: s.Config, Files: files, References: s.References,
		Extra: fm.Extra, Diagnostics: s.Diagnostics,
	}
}

func runInspect(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*inspectOptions)
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "skillkit inspect: give at least one PATH")
		return exitUsage
	}
	skills, diags := loadPaths(ctx, args, false)
	views := make([]skillView, 0, len(skills))
	for _, s := range skills {
		views = append(views, viewOf(s))
	}
	if o.json {
		out := struct {
			Skills      []skillView      `json:"skills"`
			Diagnostics diagnostics.List `json:"diagnostics"`
		}{views, diags}
		if err := writeJSON(c, out); err != nil {
			return exitFailure
		}
	} else {
		for i, v := range views {
			if i > 0 {
				fmt.Fprintln(c.stdout)
			}
			printView(c, v)
		}
		for _, d := range diags {
			if d.Skill == "" || !hasSkill(views, d.Skill) {
				fmt.Fprintln(c.stdout, d)
			}
		}
	}
	if diags.HasErrors() {
		return exitFailure
	}
	return exitOK
}

func hasSkill(views []skillView, name string) bool {
	for _, v := range views {
		if v.Name == name {
			return true
		}
	}
	return false
}

func printView(c *cli, v skillView) {
	w := c.stdout
	title := v.Name
	if v.Emoji != "" {
		title = v.Emoji + " " + title
	}
	fmt.Fprintf(w, "%s  [%s]\n", title, v.Class)
	line := func(label, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %-16s %s\n", label+":", value)
		}
	}
	line("path", v.Path)
	line("description", v.Description)
	line("version", v.Version)
	line("license", v.License)
	line("compatibility", v.Compatibility)
	line("category", v.Category)
	line("tags", strings.Join(v.Tags, ", "))
	line("allowed tools", strings.Join(v.AllowedTools, " "))
	if v.Hidden {
		line("hidden", "yes (disable-model-invocation)")
	}
	line("requires tools", strings.Join(v.Conditions.RequiresTools, ", "))
	line("fallback for", strings.Join(v.Conditions.FallbackForTools, ", "))
	line("requires bins", strings.Join(v.Requires.Bins, ", "))
	line("os", strings.Join(v.OS, ", "))
	if cfg := v.Config; cfg != nil {
		line("runtime", string(cfg.Runtime))
		line("entrypoint", cfg.Entrypoint)
		line("timeout", cfg.Timeout.String())
	}
	var env []string
	for _, e := range v.Env {
		s := e.Name
		if e.Required {
			s += " (required)"
		}
		env = append(env, s)
	}
	line("env", strings.Join(env, ", "))
	line("required refs", strings.Join(v.References.Required, ", "))
	line("optional refs", strings.Join(v.References.Optional, ", "))
	line("files", fmt.Sprint(len(v.Files)))
	for _, d := range v.Diagnostics {
		fmt.Fprintf(w, "  %s %s: %s\n", d.Level, d.Code, d.Message)
	}
}
