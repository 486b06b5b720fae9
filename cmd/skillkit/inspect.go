package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
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
PATH is a skill folder or a folder holding skills at any depth. Every field
read from the frontmatter is shown, skill text with control characters
escaped. With --json the output is {"skills":[...],"diagnostics":[...]},
exact. Exit status 1 when any
diagnostic is an error.`,
		flags: func(fs *flag.FlagSet) any {
			o := &inspectOptions{}
			fs.BoolVar(&o.json, "json", false, `print {"skills":[...],"diagnostics":[...]} as JSON`)
			return o
		},
		run: runInspect,
	}
}

// skillView is the inspected form of a skill: the skill model, and every
// field of its frontmatter, promoted to the top level of the JSON form.
// Name, description, references and env are the resolved ones (references
// and env from skill.config.yaml when it declares them).
type skillView struct {
	skill.Frontmatter
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Class       skill.Class      `json:"class"`
	Path        string           `json:"path"`
	File        string           `json:"file"`
	Hidden      bool             `json:"hidden"`
	Config      *skill.Config    `json:"config"`
	Env         []skill.EnvVar   `json:"env,omitempty"`
	Files       []string         `json:"files"`
	References  skill.References `json:"references"`
	Diagnostics diagnostics.List `json:"diagnostics"`
}

func viewOf(s *skill.Skill) skillView {
	return skillView{
		Frontmatter: s.Frontmatter,
		Name:        s.Name, Description: s.Description, Class: s.Class, Path: s.DiskDir, File: s.File,
		Hidden: s.Hidden(), Config: s.Config, Env: s.Env, Files: nonNil(s.Files), References: s.References,
		Diagnostics: s.Diagnostics,
	}
}

func runInspect(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*inspectOptions)
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "skillkit inspect: give at least one PATH")
		return exitUsage
	}
	found, diags := loadPaths(ctx, args, false)
	views := make([]skillView, 0, len(found.skills))
	for _, s := range found.skills {
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
				fmt.Fprintln(c.stdout, safeText(d.String()))
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

// printView writes a skill for a person: the model's own fields, then every
// frontmatter field that is set, in the model's order, found by reflection
// so a field added to the model is never left out.
func printView(c *cli, v skillView) {
	w := c.stdout
	title := v.Name
	if v.Emoji != "" {
		title = v.Emoji + " " + title
	}
	fmt.Fprintf(w, "%s  [%s]\n", safeText(title), v.Class)
	line := func(label, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %-26s %s\n", label+":", safeText(value))
		}
	}
	line("path", v.Path)
	line("file", v.File)
	line("description", v.Description)
	if v.Hidden {
		line("hidden", "yes (disable-model-invocation)")
	}
	// The frontmatter fields the lines above and below show resolved.
	shown := map[string]bool{"name": true, "description": true, "references": true, "env": true, "disable_model_invocation": true, "emoji": true}
	fields(reflect.ValueOf(v.Frontmatter), "", func(label, value string) {
		if !shown[strings.SplitN(label, ".", 2)[0]] {
			line(label, value)
		}
	})
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
	for _, r := range v.References.Routes {
		line("route", strings.Join(r.Match, ", ")+" → "+strings.Join(r.RequiredRefs, ", "))
	}
	line("files", fmt.Sprint(len(v.Files)))
	for _, d := range v.Diagnostics {
		fmt.Fprintf(w, "  %s %s: %s\n", d.Level, d.Code, safeText(d.Message))
	}
}

// fields calls emit for every set field of a struct, labelled by its JSON
// name (nested structs as "outer.inner"): strings as they are, lists of
// strings joined, booleans as yes or no, anything else as compact JSON.
func fields(v reflect.Value, prefix string, emit func(label, value string)) {
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		f := v.Field(i)
		if name == "-" || name == "" || f.IsZero() {
			continue
		}
		label := prefix + name
		switch {
		case f.Kind() == reflect.Struct:
			fields(f, label+".", emit)
		case f.Kind() == reflect.String:
			emit(label, f.String())
		case f.Kind() == reflect.Bool:
			emit(label, "yes")
		case f.Kind() == reflect.Pointer && f.Elem().Kind() == reflect.Bool:
			emit(label, map[bool]string{true: "yes", false: "no"}[f.Elem().Bool()])
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			emit(label, strings.Join(f.Interface().([]string), ", "))
		default:
			data, err := json.Marshal(f.Interface())
			if err != nil {
				data = []byte(err.Error())
			}
			emit(label, string(data))
		}
	}
}
