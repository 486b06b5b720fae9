package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// snakeKey is the one key style of every --json output.
var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// dataKeys are the places in --json outputs whose keys are data, not names
// skillkit chose: a skill's own frontmatter metadata and unknown fields, the
// JSON Schemas of its interface, a skill's output. Paths are keys from the
// top, "[]" for any element of an array.
var dataKeys = []string{
	"skills[].metadata",                                // inspect: the frontmatter's metadata map, as written
	"skills[].extra",                                   // inspect: frontmatter fields no dialect defines, as written
	"skills[].config.interface.input",                  // inspect: a JSON Schema (its keywords are camelCase)
	"skills[].config.interface.output",                 // inspect: a JSON Schema
	"skills[].config.interface.input_fields[].default", // inspect: a default value
	"output", // run: the skill's own output
}

// jsonKeys walks a JSON value and reports each key that is not snake_case,
// outside dataKeys; seen collects the paths walked.
func jsonKeys(t *testing.T, cmd string, v any, path string, seen map[string]bool) {
	t.Helper()
	if slices.Contains(dataKeys, path) {
		// The exemption is needed: the data holds a key skillkit would not
		// choose.
		seen[path] = seen[path] || hasOtherKey(v)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if !snakeKey.MatchString(k) {
				t.Errorf("%s: key %q at %s is not snake_case", cmd, k, strings.TrimPrefix(path+"."+k, "."))
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			jsonKeys(t, cmd, child, p, seen)
		}
	case []any:
		for _, child := range v {
			jsonKeys(t, cmd, child, path+"[]", seen)
		}
	}
}

// hasOtherKey reports whether v holds, at any depth, a key that is not
// snake_case.
func hasOtherKey(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if !snakeKey.MatchString(k) || hasOtherKey(child) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, hasOtherKey)
	}
	return false
}

// TestJSONKeysAreSnakeCase runs every command that prints JSON, for real,
// on skills that use every part of the model, and checks each key of each
// output. A command that takes --json and is not run here fails the test.
func TestJSONKeysAreSnakeCase(t *testing.T) {
	src, skills := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A prompt skill with every frontmatter extension, camelCase keys of its
	// own included.
	write("plain/SKILL.md", "---\nname: plain\ndescription: A plain skill.\nlicense: MIT\nallowed-tools: [bash]\nmyOwnField: 1\n"+
		"metadata:\n  emoji: \"📝\"\n  category: docs\n  myVendorKey: {innerKey: 1}\n"+
		"  references: {required: [references/a.md], routes: [{match: [migrate], required_refs: [references/b.md]}]}\n"+
		"  conditions: {requires_tools: [bash]}\n  requires: {bins: [sh], env: [HOME]}\n---\nRead references/a.md.\n")
	write("plain/references/a.md", "A.\n")
	write("plain/references/b.md", "B.\n")
	// A compute skill with an interface, variables and dependencies.
	write("calc/SKILL.md", "---\nname: calc\ndescription: Counts words.\n---\nRun it.\n")
	write("calc/skill.config.yaml", "runtime: python\nentrypoint: run.py\ntimeout: 10000\n"+
		"interface:\n  input:\n    maxCount: {type: integer, default: 5, description: at most}\n    style: {type: object, default: {fontSize: 12}}\n  output:\n    wordCount: {type: integer}\n"+
		"env:\n  - {name: CALC_TOKEN, required: true}\n  - {name: CALC_REGION, default: eu}\n"+
		"dependencies:\n  system:\n    - {name: sh, check: \"sh -c true\"}\n")
	write("calc/run.py", "import json, sys\njson.load(sys.stdin)\nprint(json.dumps({'wordCount': 3}))\n")
	// A skill the security scan asks about.
	write("piped/SKILL.md", md("piped", pipedBody))

	repo, commit := gitRepo(t)
	commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v1")})
	url := "file://" + filepath.ToSlash(repo)
	env := map[string]string{"SKILL_SECRET_KEY": "a test secret of at least sixteen bytes", "SKILLKIT_FLEET_UNSIGNED": "1"}
	// Two replicas sharing a database: sync places on B what A installed.
	replicaA, replicaB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	db := "sqlite:" + filepath.Join(t.TempDir(), "fleet.db")

	type step struct {
		args []string
		code int
	}
	steps := []step{
		{[]string{"version", "--json"}, exitOK},
		{[]string{"validate", "--json", "--level", "info", src}, exitOK},
		{[]string{"inspect", "--json", src}, exitOK},
		{[]string{"scan", "--json", src}, exitOK},
		{[]string{"install", "--json", "--dir", skills, filepath.Join(src, "plain")}, exitOK},
		{[]string{"install", "--json", "--dir", skills, filepath.Join(src, "calc")}, exitOK},
		{[]string{"install", "--json", "--dir", skills, "--allow-file-urls", "--path", "skills/notes", url}, exitOK},
		{[]string{"install", "--json", "--dir", skills, filepath.Join(src, "piped")}, exitNeedsYes},
		{[]string{"list", "--json", skills}, exitOK},
		{[]string{"list", "--json", "--tools", "", skills}, exitOK},
		{[]string{"doctor", "--json", "--level", "info", skills}, exitOK},
		{[]string{"prompt", "--json", "--max-chars", "400", skills}, exitOK},
		{[]string{"read", "--json", "plain", "--task", "migrate", skills}, exitOK},
		{[]string{"read", "--json", "plain", "--file", "references/a.md", skills}, exitOK},
		{[]string{"read", "--json", "nosuch", skills}, exitFailure},
		{[]string{"tool", "--json", "read_skill", `{"name":"notes","task":"migrate"}`, skills}, exitOK},
		{[]string{"tool", "--json", "read_skill_file", `{"name":"notes","path":"nope.md"}`, skills}, exitFailure},
		{[]string{"secrets", "--json", "--dir", skills, "list", "calc"}, exitOK},
		{[]string{"secrets", "--dir", skills, "set", "calc", "CALC_TOKEN=x"}, exitOK},
		{[]string{"run", "--json", "--dir", skills, "calc", "--input", `{"maxCount": 2, "style": {}}`}, exitOK},
		{[]string{"run", "--json", "--dir", skills, "calc", "--input", `[]`}, exitFailure},
		{[]string{"search", "--json", "--dir", skills, "count", "words"}, exitOK},
		{[]string{"usage", "--json", "--dir", skills}, exitOK},
		{[]string{"deps", "--json", "--dir", skills, "calc"}, exitOK},
		{[]string{"deps", "--json", "--dir", skills, "nosuch"}, exitFailure},
		{[]string{"tool", "skill_manage", manageCreate(t, "fetch", pipedBody, map[string]string{"references/how-to.md": "x"}), skills}, exitOK},
		{[]string{"proposals", "--json", "--dir", skills}, exitOK},
		{[]string{"proposals", "--json", "--dir", skills, "show", "fetch"}, exitOK},
		{[]string{"proposals", "--json", "--dir", skills, "approve", "fetch", "--yes"}, exitOK},
		{[]string{"tool", "skill_manage", manageCreate(t, "fetch-again", pipedBody, nil), skills}, exitOK},
		{[]string{"proposals", "--json", "--dir", skills, "reject", "fetch-again"}, exitOK},
		{[]string{"install", "--json", "--dir", replicaA, "--db", db, filepath.Join(src, "plain")}, exitOK},
		{[]string{"sync", "--json", "--dir", replicaB, "--db", db}, exitOK},
		{[]string{"pin", "--json", "--dir", skills, "plain"}, exitOK},
		{[]string{"unpin", "--json", "--dir", skills, "plain"}, exitOK},
		{[]string{"disable", "--json", "--dir", skills, "plain"}, exitOK},
		{[]string{"enable", "--json", "--dir", skills, "plain"}, exitOK},
		{[]string{"outdated", "--json", "--dir", skills, "--allow-file-urls"}, exitOK},
		{[]string{"update", "--json", "--dir", skills, "--allow-file-urls", "--all"}, exitFailure},
		{[]string{"update", "--json", "--dir", skills, "--allow-file-urls", "notes"}, exitOK},
		{[]string{"uninstall", "--json", "--dir", skills, "plain"}, exitOK},
		{[]string{"approve", "--json", "--dir", skills, "calc"}, exitOK},
		{[]string{"history", "--json", "--dir", skills, "notes"}, exitOK},
		{[]string{"rollback", "--json", "--dir", skills, "notes"}, exitOK},
	}
	seen := map[string]bool{}
	ran := map[string]bool{}
	for _, s := range steps {
		if s.args[0] == "outdated" {
			// Something new upstream, and a local edit: the update finds both.
			commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v2")})
			if err := os.WriteFile(filepath.Join(skills, "calc", "SKILL.md"), []byte("---\nname: calc\ndescription: Edited.\n---\nRun it.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, out, errOut := runCLIEnv(t, env, s.args...)
		if code != s.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", s.args, code, s.code, errOut, out)
		}
		if !slices.Contains(s.args, "--json") {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%v: not JSON: %v\n%s", s.args, err, out)
			continue
		}
		ran[s.args[0]] = true
		jsonKeys(t, strings.Join(s.args[:2], " "), v, "", seen)
	}
	for _, p := range dataKeys {
		if !seen[p] {
			t.Errorf("no output held keys other than snake_case at %s: the exemption is not needed, or the fixture lost them", p)
		}
	}
	for _, cmd := range commands() {
		fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
		if cmd.flags != nil {
			cmd.flags(fs)
		}
		if fs.Lookup("json") != nil && !ran[cmd.name] {
			t.Errorf("%s takes --json but this test does not run it", cmd.name)
		}
	}
	var names []string
	for n := range ran {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("checked the JSON of %s", strings.Join(names, ", "))
}
