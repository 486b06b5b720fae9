package main

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGlobalFlagsBeforeOrAfter: "skillkit --dir X list" is "skillkit list
// --dir X"; a global flag a command does not have, and an unknown one
// before the command, are usage errors that say so.
func TestGlobalFlagsBeforeOrAfter(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "alpha", "")
	after := [][]string{
		{"list", "--dir", dir},
		{"list", "--json", "--dir", dir},
		{"doctor", "--dir=" + dir},
		{"secrets", "--dir", dir, "list", "alpha"},
	}
	before := [][]string{
		{"--dir", dir, "list"},
		{"--json", "--dir", dir, "list"},
		{"--dir=" + dir, "doctor"},
		{"--dir", dir, "secrets", "list", "alpha"},
	}
	for i := range after {
		codeA, outA, errA := runCLI(t, after[i]...)
		codeB, outB, errB := runCLI(t, before[i]...)
		if codeA != exitOK || codeA != codeB || outA != outB || errA != errB {
			t.Errorf("%v gives exit %d\n%s%s\n%v gives exit %d\n%s%s", after[i], codeA, outA, errA, before[i], codeB, outB, errB)
		}
	}
	if _, out, _ := runCLI(t, "--json", "list", dir); !json.Valid([]byte(out)) {
		t.Errorf("--json before list: %s", out)
	}
	if _, _, errOut := runCLI(t, "--quiet", "list", dir); errOut != "" {
		t.Errorf("--quiet before list printed %q", errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", dir, "validate", dir}, "--dir does not apply to skillkit validate"},
		{[]string{"--strict", "validate", dir}, "unknown global flag --strict; a command's own flags go after it"},
		{[]string{"--jsn", "list"}, "unknown global flag --jsn (did you mean --json?)"},
		{[]string{"--dir"}, "--dir needs a value"},
		{[]string{"list", "--dir"}, "--dir needs a value"},
		{[]string{"list", "--max-skills", "many", dir}, `invalid value "many" for --max-skills`},
		{[]string{"---list"}, "bad flag syntax"},
		{[]string{"list", "--quiet", "--verbose", dir}, "--quiet and --verbose do not go together"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q in\n%s", tc.args, code, tc.want, errOut)
		}
	}
}

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		positional []string
		json       bool
		dir        string
		err        string
	}{
		{args: []string{"a", "--json", "b"}, positional: []string{"a", "b"}, json: true},
		{args: []string{"-json", "a"}, positional: []string{"a"}, json: true},
		{args: []string{"--json=false", "a"}, positional: []string{"a"}},
		{args: []string{"--dir=x", "--dir", "y"}, dir: "y"},
		{args: []string{"--dir", "-"}, dir: "-"},
		{args: []string{"-", "a"}, positional: []string{"-", "a"}},
		// "--" ends the flags; what follows, a further "--" too, is an argument.
		{args: []string{"--", "--json"}, positional: []string{"--json"}},
		{args: []string{"a", "--", "-x", "--", "--json"}, positional: []string{"a", "-x", "--", "--json"}},
		{args: []string{"--json", "--"}, json: true},
		{args: []string{"--jsno"}, err: "unknown flag --jsno (did you mean --json?)"},
		{args: []string{"--dir"}, err: "--dir needs a value"},
		{args: []string{"---json"}, err: "bad flag syntax: ---json"},
		{args: []string{"--=x"}, err: "bad flag syntax"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		jsonFlag := fs.Bool("json", false, "")
		dirFlag := fs.String("dir", "", "")
		got, err := parseArgs(fs, tc.args)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.positional) || *jsonFlag != tc.json || *dirFlag != tc.dir {
			t.Errorf("%q: %q json=%v dir=%q, %v; want %q json=%v dir=%q", tc.args, got, *jsonFlag, *dirFlag, err, tc.positional, tc.json, tc.dir)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	for _, h := range []string{"-h", "--help"} {
		if _, err := parseArgs(fs, []string{"x", h}); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: %v", h, err)
		}
	}
}

// TestDoubleDashEndsFlags: a NAME that starts with "-" is an argument
// after "--", and a second "--" is one too.
func TestDoubleDashEndsFlags(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "alpha", "")
	code, _, errOut := runCLI(t, "read", "--dir", dir, "--", "-alpha")
	if code != exitFailure || !strings.Contains(errOut, "no skill named -alpha (did you mean alpha?)") {
		t.Errorf("read -- -alpha: exit %d\n%s", code, errOut)
	}
	code, _, errOut = runCLI(t, "read", "alpha", "--", dir, "--")
	if code != exitFailure || !strings.Contains(errOut, "--: no such file") {
		t.Errorf("a second --: exit %d\n%s", code, errOut)
	}
}

// TestHelpShowsDoubleDashFlags: every command's help writes its flags as
// --name, never -name.
func TestHelpShowsDoubleDashFlags(t *testing.T) {
	singleDash := regexp.MustCompile(`(?m)^\s+-[a-z]`)
	for _, cmd := range commands() {
		code, out, _ := runCLI(t, "help", cmd.name)
		if code != exitOK || singleDash.MatchString(out) || !strings.Contains(out, "\n  --quiet\n") {
			t.Errorf("help %s: exit %d\n%s", cmd.name, code, out)
		}
	}
	_, out, _ := runCLI(t, "help", "validate")
	if !strings.Contains(out, "  --level LEVEL\n    \tshow diagnostics at this LEVEL or above: error, warning or info (default \"warning\")") {
		t.Errorf("help validate:\n%s", out)
	}
	_, out, _ = runCLI(t, "help")
	for _, want := range []string{"--dir DIR", "--quiet", "--verbose", "--version", "before or after the command"} {
		if !strings.Contains(out, want) {
			t.Errorf("help does not show %s:\n%s", want, out)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, _ := runCLI(t, args...)
		if code != exitOK || !strings.HasPrefix(out, "skillkit ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%v: exit %d %q", args, code, out)
		}
	}
	code, out, _ := runCLI(t, "version", "--json")
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitOK || v["go_version"] != runtime.Version() || v["version"] == "" {
		t.Errorf("version --json: exit %d %v %s", code, err, out)
	}
	if code, _, _ := runCLI(t, "version", "extra"); code != exitUsage {
		t.Errorf("version extra: exit %d", code)
	}

	for _, tc := range []struct {
		info *debug.BuildInfo
		want versionInfo
		line string
	}{
		{nil, versionInfo{Version: "(devel)", GoVersion: "unknown"}, "skillkit (devel) unknown"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			versionInfo{Version: "(devel)", GoVersion: "go1.26.0"}, "skillkit (devel) go1.26.0"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.1.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"},
		}}, versionInfo{Version: "v0.1.0", Revision: "0123456789abcdef0123", Time: "2026-01-02T03:04:05Z", Modified: true, GoVersion: "go1.26.0"},
			"skillkit v0.1.0 (commit 0123456789ab, 2026-01-02T03:04:05Z, modified) go1.26.0"},
	} {
		got := buildVersion(tc.info)
		if diff := cmp.Diff(tc.want, got); diff != "" || got.String() != tc.line {
			t.Errorf("buildVersion: %s\n%q, want %q", diff, got.String(), tc.line)
		}
	}
}

// TestDevNullIsNoTerminal: /dev/null is a character device, not a
// terminal; a process reading from it asks no questions.
func TestDevNullIsNoTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, f := range []*os.File{null, file, r, w} {
		if isTerminal(f) {
			t.Errorf("%s counts as a terminal", f.Name())
		}
	}
	if isTerminal(&strings.Builder{}) {
		t.Error("a strings.Builder counts as a terminal")
	}
	if c := osCLI(null, null, null); c.interactive || c.columns != 0 {
		t.Errorf("with /dev/null: interactive %v, columns %d", c.interactive, c.columns)
	}
	// Without a terminal, deps --setup needs --yes instead of asking.
	skills := t.TempDir()
	writeSkillFile(t, skills, "alpha", "")
	if err := os.WriteFile(filepath.Join(skills, "alpha", "skill.config.yaml"), []byte("setup:\n  posix: setup.sh\n  win32: setup.ps1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := osCLI(null, file, file)
	c.getenv = func(string) string { return "" }
	code := run(t.Context(), []string{"deps", "--dir", skills, "--setup", "alpha"}, c)
	if out, _ := os.ReadFile(file.Name()); code != exitNeedsYes || !strings.Contains(string(out), "Without a terminal, answer with --yes") {
		t.Errorf("deps --setup with stdin from /dev/null: exit %d\n%s", code, out)
	}
}

// TestQuiet: --quiet keeps errors and the data asked for, nothing else.
func TestQuiet(t *testing.T) {
	src, skills := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	writeSkillFile(t, src, "alpha", "colour: blue\n")
	writeSkillFile(t, src, "beta", "")
	env := map[string]string{"SKILL_SECRET_KEY": "a test secret of at least sixteen bytes"}
	for _, args := range [][]string{
		{"install", "--quiet", "--dir", skills, filepath.Join(src, "alpha")},
		{"install", "--quiet", "--dir", skills, filepath.Join(src, "beta")},
		{"pin", "--quiet", "--dir", skills, "alpha"},
		{"disable", "--quiet", "--dir", skills, "beta"},
		{"secrets", "--quiet", "--dir", skills, "set", "alpha", "K=v"},
		{"uninstall", "--quiet", "--dir", skills, "beta"},
		{"validate", "--quiet", src},
		{"doctor", "--quiet", "--level", "warning", skills},
	} {
		code, out, errOut := runCLIEnv(t, env, args...)
		if code != exitOK || out != "" || errOut != "" {
			t.Errorf("%v: exit %d, printed\n%s%s", args, code, out, errOut)
		}
	}
	// The data asked for stays; the summary goes.
	code, out, errOut := runCLI(t, "list", "--quiet", skills)
	if code != exitOK || !strings.Contains(out, "alpha") || errOut != "" {
		t.Errorf("list --quiet: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "validate", "--quiet", "--level", "info", src)
	if code != exitOK || !strings.Contains(out, "FIELD_UNKNOWN") || errOut != "" {
		t.Errorf("validate --quiet --level info: exit %d\n%s%s", code, out, errOut)
	}
	// Errors stay.
	code, _, errOut = runCLI(t, "pin", "--quiet", "--dir", skills, "nosuch")
	if code != exitFailure || !strings.Contains(errOut, "skillkit pin:") {
		t.Errorf("pin --quiet of a missing skill: exit %d %q", code, errOut)
	}
	code, out, _ = runCLI(t, "validate", "--quiet", "testdata/skills/bad")
	if code != exitFailure || !strings.Contains(out, "error ") {
		t.Errorf("validate --quiet of bad skills: exit %d %q", code, out)
	}
}

// TestVerbose: --verbose prints the library's debug lines, as
// SKILLKIT_LOG=debug does.
func TestVerbose(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "alpha", "")
	if _, _, errOut := runCLI(t, "list", dir); strings.Contains(errOut, "level=DEBUG") {
		t.Fatalf("debug lines without --verbose:\n%s", errOut)
	}
	_, _, viaFlag := runCLI(t, "list", "--verbose", dir)
	_, _, viaEnv := runCLIEnv(t, map[string]string{"SKILLKIT_LOG": "debug"}, "list", dir)
	for name, errOut := range map[string]string{"--verbose": viaFlag, "SKILLKIT_LOG": viaEnv} {
		if !strings.Contains(errOut, "level=DEBUG") || !strings.Contains(errOut, "skills scanned") {
			t.Errorf("%s: no debug lines:\n%s", name, errOut)
		}
	}
	if code, _, errOut := runCLIEnv(t, map[string]string{"SKILLKIT_LOG": "loud"}, "list", dir); code != exitUsage || !strings.Contains(errOut, "SKILLKIT_LOG") {
		t.Errorf("a bad SKILLKIT_LOG: exit %d %q", code, errOut)
	}
}

func TestValidateLevel(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "odd", "colour: blue\n")                       // FIELD_UNKNOWN, info
	writeSkillFile(t, dir, "Shouty", "")                                  // a name the specification refuses: warning
	writeSkillFile(t, filepath.Join(dir, "inner"), "deep", "colour: x\n") // another info
	code, out, errOut := runCLI(t, "validate", dir)
	if code != exitOK || strings.Contains(out, "FIELD_UNKNOWN") || !strings.Contains(out, "warning ") ||
		!strings.Contains(errOut, "0 errors, 1 warning, 2 info (2 not shown; --level info shows them)") {
		t.Errorf("default level: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "validate", "--level", "info", dir)
	if code != exitOK || strings.Count(out, "FIELD_UNKNOWN") != 2 || strings.Contains(errOut, "not shown") {
		t.Errorf("--level info: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "validate", "--level", "error", dir)
	if code != exitOK || out != "" || !strings.Contains(errOut, "(3 not shown") {
		t.Errorf("--level error: exit %d\n%s%s", code, out, errOut)
	}
	_, out, _ = runCLI(t, "validate", "--json", dir)
	var diags []map[string]any
	if err := json.Unmarshal([]byte(out), &diags); err != nil || len(diags) != 1 || diags[0]["level"] != "warning" {
		t.Errorf("--json at the default level: %v %s", err, out)
	}
	_, out, _ = runCLI(t, "validate", "--json", "--level", "error", dir)
	if strings.TrimSpace(out) != "[]" {
		t.Errorf("--json --level error: %s", out)
	}
	// An error fails whatever the level shows.
	if code, _, _ := runCLI(t, "validate", "--level", "error", "testdata/skills/bad"); code != exitFailure {
		t.Errorf("errors at --level error: exit %d", code)
	}
	if code, _, errOut := runCLI(t, "validate", "--level", "loud", dir); code != exitUsage || !strings.Contains(errOut, "--level") {
		t.Errorf("bad level: exit %d %q", code, errOut)
	}
}

// TestErrorsNameFlags: where the library names an option, the command line
// names the flag that sets it. Each rewrite is checked against the
// library's real message, so a reworded message shows here.
func TestErrorsNameFlags(t *testing.T) {
	repo, commit := gitRepo(t)
	commit(map[string]string{"skills/notes/SKILL.md": md("notes", "v1")})
	url := "file://" + filepath.ToSlash(repo)
	src := t.TempDir()
	writeSkillFile(t, src, "alpha", "")
	writeSkillFile(t, src, "handmade", "")
	skills := t.TempDir()
	writeSkillFile(t, skills, "handmade", "")
	must := func(args ...string) {
		t.Helper()
		if code, _, errOut := runCLI(t, args...); code != exitOK {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	// check runs args, which must fail with want (the rewrite libraryWords[rule]
	// makes) and no option name.
	used := map[int]bool{}
	check := func(rule int, want string, args ...string) {
		t.Helper()
		code, out, errOut := runCLI(t, args...)
		all := out + errOut
		if code != exitFailure || !strings.Contains(all, want) || strings.Contains(all, "Options.") || regexp.MustCompile(`\bForce\b`).MatchString(all) {
			t.Errorf("%v: exit %d, want %q in\n%s", args, code, want, all)
		}
		used[rule] = true
	}
	check(0, "(allow them with --allow-file-urls)", "install", "--dir", skills, "--path", "skills/notes", url)
	check(1, "(allow it with --allow-host)", "install", "--dir", skills, "https://git.example.org/o/r")
	check(2, "install with --force to replace it", "install", "--dir", skills, filepath.Join(src, "handmade"))
	must("install", "--dir", skills, filepath.Join(src, "alpha"))
	must("pin", "--dir", skills, "alpha")
	check(2, "or install with --force", "install", "--dir", skills, filepath.Join(src, "alpha"))
	must("unpin", "--dir", skills, "alpha")
	if err := os.WriteFile(filepath.Join(skills, "alpha", "SKILL.md"), []byte(md("alpha", "edited")), 0o644); err != nil {
		t.Fatal(err)
	}
	check(3, "use --force to discard the changes", "install", "--dir", skills, filepath.Join(src, "alpha"))
	check(2, "update with --force to discard the changes", "update", "--dir", skills, "alpha")

	// The setup script's note names the command that runs it.
	code, out, errOut := runCLI(t, "install", "--dir", skills, "--yes", setupSkillZip(t))
	if code != exitOK || !strings.Contains(out, "(skillkit deps --setup runs it, after asking)") || strings.Contains(out, "with setup") {
		t.Errorf("install of a skill with a setup script: exit %d\n%s%s", code, out, errOut)
	}
	used[4] = true
	// A source holding several skills names the flags that pick.
	two := t.TempDir()
	writeSkillFile(t, two, "one", "")
	writeSkillFile(t, two, "two", "")
	if code, _, errOut := runCLI(t, "install", "--dir", skills, two); code != exitUsage || !strings.HasSuffix(errOut, "in one and two: pick with --skill NAME (repeatable), or --all\n") {
		t.Errorf("install of a folder of two skills: exit %d\n%s", code, errOut)
	}
	used[5] = true
	for i, w := range libraryWords {
		if !used[i] {
			t.Errorf("no test of %s", w.re())
		}
	}
}

func TestCLIWords(t *testing.T) {
	for in, want := range map[string]string{
		"installer: host not allowed: file:// URLs are not allowed (Options.AllowFileURLs)": "installer: host not allowed: file:// URLs are not allowed (allow them with --allow-file-urls)",
		"installer: x: git.example.org is not in the allowed hosts [github.com]":            "installer: x: git.example.org is not in the allowed hosts [github.com] (allow it with --allow-host)",
		"installer: exists: pdf was installed from git u; install with Force to replace it": "installer: exists: pdf was installed from git u; install with --force to replace it",
		"installer: pinned: pdf; unpin it first, or install with Force":                     "installer: pinned: pdf; unpin it first, or install with --force",
		"installer: modified: pdf; use Force to discard the changes":                        "installer: modified: pdf; use --force to discard the changes",
		"installer: modified: pdf; update with Force to discard the changes":                "installer: modified: pdf; update with --force to discard the changes",
		"the Force is strong; ForceUpdate stays":                                            "the Force is strong; ForceUpdate stays",
	} {
		if got := cliWords(in); got != want {
			t.Errorf("cliWords(%q)\n= %q\nwant %q", in, got, want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	names := []string{"install", "inspect", "list", "validate", "uninstall", "update", "pdf", "pdf-tools", "docx"}
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"lsit", []string{"list"}},
		{"valdate", []string{"validate"}},
		{"instal", []string{"install"}},
		{"inst", []string{"install"}},
		{"insp", []string{"inspect"}},
		{"PDF", []string{"pdf", "pdf-tools"}},
		{"pdf", []string{"pdf-tools"}},
		{"pdff", []string{"pdf"}},
		{"nosuch", nil},
		{"x", nil},
		{"docs", []string{"docx"}},
	} {
		if got := suggest(tc.word, names); !slices.Equal(got, tc.want) {
			t.Errorf("suggest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	many := []string{"skill-a", "skill-b", "skill-c", "skill-d", "skill-e"}
	if got := suggest("skill-x", many); len(got) != maxSuggestions {
		t.Errorf("suggest among many: %q", got)
	}
	if got := didYouMean([]string{"a", "b", "c"}); got != " (did you mean a, b or c?)" {
		t.Errorf("didYouMean: %q", got)
	}
	for _, tc := range []struct{ a, b string }{{"lsit", "list"}, {"abc", "abd"}, {"ab", "abc"}} {
		if d := editDistance(tc.a, tc.b); d != 1 {
			t.Errorf("editDistance(%q, %q) = %d", tc.a, tc.b, d)
		}
	}
}

// TestSuggestions: an unknown command, flag, subcommand or skill is
// answered with the closest names, a few at most.
func TestSuggestions(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"alpha", "alpine", "beta"} {
		writeSkillFile(t, dir, n, "")
	}
	// The corpus holds hundreds of skills; an unknown name lists a few.
	for i := range 300 {
		writeSkillFile(t, filepath.Join(dir, "more"), "filler-"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)), "")
	}
	env := map[string]string{"SKILL_SECRET_KEY": "a test secret of at least sixteen bytes"}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lsit"}, exitUsage, `unknown command "lsit" (did you mean list?)`},
		{[]string{"help", "valdate"}, exitUsage, `unknown command "valdate" (did you mean validate?)`},
		{[]string{"list", "--jsno", dir}, exitUsage, "unknown flag --jsno (did you mean --json?)"},
		{[]string{"list", "--max-skill", "3", dir}, exitUsage, "(did you mean --max-skills?)"},
		{[]string{"secrets", "--dir", dir, "lst", "alpha"}, exitUsage, `unknown subcommand "lst" (did you mean list?)`},
		{[]string{"read", "alpah", "--max-skills", "400", dir}, exitFailure, "no skill named alpah (did you mean alpha?)"},
		{[]string{"pin", "--dir", dir, "alpah"}, exitFailure, "(did you mean alpha?)"},
		{[]string{"uninstall", "--dir", dir, "bta"}, exitFailure, "(did you mean beta?)"},
		{[]string{"deps", "--dir", dir, "alpin"}, exitFailure, "(did you mean alpine?)"},
		{[]string{"run", "--dir", dir, "alpah"}, exitFailure, "(did you mean alpha?)"},
		{[]string{"secrets", "--dir", dir, "set", "alpah", "K=v"}, exitFailure, "(did you mean alpha?)"},
	} {
		code, _, errOut := runCLIEnv(t, env, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q in\n%s", tc.args, code, tc.code, tc.want, errOut)
		}
	}
	code, _, errOut := runCLI(t, "read", "nosuch", "--max-skills", "400", dir)
	if code != exitFailure || len(errOut) > 200 || strings.Contains(errOut, "did you mean") {
		t.Errorf("read nosuch: exit %d, %d characters:\n%s", code, len(errOut), errOut)
	}
}

// TestTablesFitTheWidth: list cuts descriptions to the terminal's width
// ($COLUMNS, else 80), never at a fixed length.
func TestTablesFitTheWidth(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("word ", 60)
	writeSkillFile(t, dir, "alpha", "")
	if err := os.WriteFile(filepath.Join(dir, "alpha", "SKILL.md"), []byte("---\nname: alpha\ndescription: "+long+"\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		columns string
		width   int
	}{{"", 80}, {"60", 60}, {"200", 200}, {"oops", 80}} {
		_, out, _ := runCLIEnv(t, map[string]string{"COLUMNS": tc.columns}, "list", ".")
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if displayWidth(line) > tc.width {
				t.Errorf("COLUMNS=%q: a line of %d characters:\n%s", tc.columns, displayWidth(line), line)
			}
		}
		if !strings.Contains(out, "…") {
			t.Errorf("COLUMNS=%q: the description is not cut:\n%s", tc.columns, out)
		}
		if n := displayWidth(strings.Split(strings.TrimSpace(out), "\n")[1]); n != tc.width {
			t.Errorf("COLUMNS=%q: the line is %d wide, not the full %d", tc.columns, n, tc.width)
		}
	}
	// The terminal's own width wins over $COLUMNS.
	var stdout strings.Builder
	c := &cli{stdout: &stdout, stderr: new(strings.Builder), stdin: strings.NewReader(""), columns: 100,
		getenv: func(k string) string { return map[string]string{"COLUMNS": "50"}[k] }}
	run(t.Context(), []string{"list", "."}, c)
	if n := displayWidth(strings.Split(stdout.String(), "\n")[1]); n != 100 {
		t.Errorf("with a 100-column terminal: a line of %d", n)
	}
}

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	writeTable(&b, 30, [][]string{
		{"NAME", "DESCRIPTION"},
		{"pdf", "Reads PDF files and more besides"},
		{"翻译", "把文本翻译成英文和其他语言"},
		{"x", ""},
	})
	want := "NAME  DESCRIPTION\n" +
		"pdf   Reads PDF files and mor…\n" +
		"翻译  把文本翻译成英文和其他…\n" +
		"x\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	b.Reset()
	writeTable(&b, 10, [][]string{{"A-LONG-NAME", "DESCRIPTION"}, {"n", strings.Repeat("d", 40)}})
	if lines := strings.Split(b.String(), "\n"); displayWidth(lines[1]) != len("A-LONG-NAME")+2+20 {
		t.Errorf("a narrow terminal keeps 20 columns of description:\n%s", b.String())
	}
}

// TestPlurals: one of a thing is never written as several.
func TestPlurals(t *testing.T) {
	src, skills := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	writeSkillFile(t, src, "alpha", "")
	writeSkillFile(t, src, "Bad_Name", "") // one warning
	writeSkillFile(t, filepath.Join(src, ".hidden"), "dot", "")
	oldKey := map[string]string{"SKILL_SECRET_KEY": "a test secret of at least sixteen bytes"}
	newKey := map[string]string{"SKILL_SECRET_KEY": "another secret of at least sixteen bytes", "SKILL_SECRET_KEY_PREVIOUS": oldKey["SKILL_SECRET_KEY"]}
	wrong := regexp.MustCompile(`(^|[^0-9])1 (skills|values|errors|warnings|skill files|skill folders|descriptions|characters)\b|\b1 warnings or errors|\b1 were\b`)
	var all strings.Builder
	for _, args := range [][]string{
		{"install", "--dir", skills, filepath.Join(src, "alpha")},
		{"validate", filepath.Join(src, "alpha")},
		{"validate", src},
		{"list", skills},
		{"list", "--tools=", src},
		{"doctor", skills},
		{"scan", skills},
		{"prompt", skills},
		{"prompt", "--max-chars", "150", src},
		{"secrets", "--dir", skills, "set", "alpha", "K=v"},
		{"secrets", "--dir", skills, "rotate"},
		{"secrets", "--dir", skills, "rotate"},
		{"outdated", "--dir", skills},
	} {
		env := oldKey
		if args[0] == "secrets" && args[3] == "rotate" {
			env = newKey
		}
		_, out, errOut := runCLIEnv(t, env, args...)
		all.WriteString(out + errOut)
		if m := wrong.FindString(out + errOut); m != "" {
			t.Errorf("%v: %q in\n%s%s", args, m, out, errOut)
		}
	}
	for _, want := range []string{"saved 1 value for alpha", "1 skill file checked", "1 skill:", "1 skill scanned", "1 skill folder not loaded", "resealed 1 value", "1 was already under it", "1 warning or error"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no %q in\n%s", want, all.String())
		}
	}
}
