//go:build !lean

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

type inspectOptions struct {
	installerFlags // --dir, where a NAME is looked up; --json
}

func inspectCommand() *command {
	return &command{
		name:    "inspect",
		args:    "[--json] [--dir DIR] PATH|NAME...",
		summary: "print the parsed model of each skill and its diagnostics",
		help: `
PATH is a skill folder or a folder holding skills at any depth. Every field
read from the frontmatter is shown, skill text with control characters
escaped. With --json the output is {"skills":[...],"diagnostics":[...]},
exact. Exit status 1 when any
diagnostic is an error.

NAME (an argument that is no path) is a skill of the skills folder: it is
shown as a PATH is, and with what the registry knows of it: where it came
from (source, URL, ref, commit, subfolder), when it was installed and
updated, whether its files are the approved ones, the permissions it asks
for, and whether it is pinned or disabled.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &inspectOptions{}
			o.installerFlags.register(fs, false)
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
	// Installed is what the registry of the skills folder knows of a
	// skill named by NAME; nil for a PATH.
	Installed *installedView `json:"installed,omitempty"`
}

// installedOf reads what the registry knows of the skill name of kit's
// folder, and fingerprints its files.
func installedOf(ctx context.Context, kit *skillkit.Kit, s *skill.Skill) (*installedView, error) {
	fp, err := registry.Fingerprint(ctx, os.DirFS(kit.Dir()), s.Name)
	if err != nil {
		return nil, err
	}
	v := &installedView{Approval: "unrecorded", Fingerprint: fp}
	if s.Config != nil {
		v.Permissions = s.Config.Permissions
	}
	rec, err := kit.Registry().Get(ctx, s.Name)
	switch {
	case errors.Is(err, registry.ErrNotFound):
		return v, nil
	case err != nil:
		return nil, err
	}
	v.Record, v.Approval = &rec, "approved"
	if rec.Fingerprint != fp {
		v.Approval = "modified"
	}
	return v, nil
}

// namedSkills loads the skills args name that are no paths from the skills
// folder, each with what its registry knows, and returns the paths left.
func namedSkills(ctx context.Context, c *cli, o *inspectOptions, args []string) (views []skillView, paths []string, err error) {
	var kit *skillkit.Kit
	for _, a := range args {
		if _, serr := os.Stat(a); serr == nil || skill.ValidateKey(a) != nil {
			paths = append(paths, a)
			continue
		}
		if kit == nil {
			if kit, err = o.open(ctx, c, false, nil); err != nil {
				return nil, nil, err
			}
			defer kit.Close()
		}
		s, ok, err := kit.Skill(ctx, a)
		if err == nil && (!ok || s.DiskDir == "" || filepath.Dir(s.DiskDir) != kit.Dir()) {
			err = fmt.Errorf("%s: no such path, and no skill named %s in %s", a, a, kit.Dir())
		}
		if err != nil {
			return nil, nil, err
		}
		v := viewOf(s)
		if v.Installed, err = installedOf(ctx, kit, s); err != nil {
			return nil, nil, err
		}
		views = append(views, v)
	}
	return views, paths, nil
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
		fmt.Fprintln(c.stderr, "skillkit inspect: give at least one PATH or NAME")
		return exitUsage
	}
	views, paths, err := namedSkills(ctx, c, o, args)
	if err != nil {
		return c.fail("inspect", err)
	}
	var found checked
	var diags diagnostics.List
	if len(paths) > 0 {
		found, diags = loadPaths(ctx, paths, false)
	}
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
	if in := v.Installed; in != nil {
		printInstalled(line, in)
	}
	for _, d := range v.Diagnostics {
		fmt.Fprintf(w, "  %s %s: %s\n", d.Level, d.Code, safeText(d.Message))
	}
}

// printInstalled writes what the registry knows of an installed skill.
func printInstalled(line func(label, value string), in *installedView) {
	line("permissions", in.Permissions.String())
	r := in.Record
	if r == nil {
		line("origin", "none recorded: placed by hand, runs as a local skill")
		line("fingerprint", in.Fingerprint)
		return
	}
	line("source", string(r.Source))
	line("url", r.URL)
	line("ref", r.Ref)
	line("commit", r.Commit)
	line("signer", describeSigner(r.Signer))
	line("subfolder", r.Subdir)
	line("version", r.Version)
	if !r.InstalledAt.IsZero() {
		line("installed", r.InstalledAt.UTC().Format(time.RFC3339))
	}
	if !r.UpdatedAt.IsZero() {
		line("updated", r.UpdatedAt.UTC().Format(time.RFC3339))
	}
	switch in.Approval {
	case "approved":
		line("approval", "approved: the files are the ones approved ("+r.Fingerprint+")")
	default:
		line("approval", "modified since approved: it does not run until approved again (skillkit approve); approved "+r.Fingerprint+", now "+in.Fingerprint)
	}
	line("enabled", map[bool]string{true: "yes", false: "no (disabled: hidden from agents)"}[r.Enabled])
	line("pinned", map[bool]string{true: "yes (updates skip it)", false: "no"}[r.Pinned])
}

// describeSigner says who signed what was installed: "" when no signature
// was checked.
func describeSigner(s *registry.Signer) string {
	if s == nil {
		return ""
	}
	var who string
	switch {
	case s.Verified() && s.Issuer != "":
		who = "verified, " + s.Key + " (Sigstore, issuer " + s.Issuer + ")"
	case s.Verified():
		who = "verified, " + strings.Join(s.Principals, ", ") + " (" + s.Key + ")"
	case s.Issuer != "":
		who = s.State + ", identity " + s.Key + " of " + s.Issuer + " is not among the publishers"
	case s.Key != "":
		who = s.State + ", key " + s.Key + " is not among the publishers"
	default:
		who = s.State
	}
	what := s.Object
	if s.Digest != "" {
		what += " (" + s.Digest + ")"
	}
	return safeText(who + ": " + what)
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
