package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
)

// runCLIEnv is runCLI with an environment.
func runCLIEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(k string) string { return env[k] }}
	code := run(t.Context(), args, c)
	return code, stdout.String(), stderr.String()
}

func writeSkillFile(t *testing.T, dir, name, extra string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: " + name + "\ndescription: The " + name + " skill.\n" + extra + "---\nBody.\n"
	if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestListExamples(t *testing.T) {
	code, out, errOut := runCLI(t, "list", "../../examples/skills")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"NAME", "csv-tools", "compute-toolkit", "release-notes", "word-stats", "date-diff", "../../examples/skills"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "4 skills") {
		t.Errorf("summary %q", errOut)
	}
}

// A skill disabled in the registry is marked in the list, and hidden from
// an agent.
func TestListDisabled(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "off", "")
	writeSkillFile(t, dir, "on", "")
	if err := registry.NewFSStore(dir).Put(t.Context(), registry.Record{Name: "off", Enabled: false}); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runCLI(t, "list", dir)
	if !strings.Contains(out, "off (disabled)") || strings.Contains(out, "on (disabled)") {
		t.Errorf("list:\n%s", out)
	}
	_, out, _ = runCLI(t, "list", "--tools=", dir)
	if !strings.Contains(out, "off: disabled in the registry") {
		t.Errorf("list --tools:\n%s", out)
	}
}

func TestListDefaultDirAndEnv(t *testing.T) {
	root := t.TempDir()
	writeSkillFile(t, filepath.Join(root, "skills"), "from-default", "")
	writeSkillFile(t, filepath.Join(root, "elsewhere"), "from-env", "")
	t.Chdir(root)
	if _, out, _ := runCLI(t, "list"); !strings.Contains(out, "from-default") {
		t.Errorf("./skills not used: %s", out)
	}
	_, out, _ := runCLIEnv(t, map[string]string{"SKILLKIT_DIR": filepath.Join(root, "elsewhere")}, "list")
	if !strings.Contains(out, "from-env") || strings.Contains(out, "from-default") {
		t.Errorf("SKILLKIT_DIR not used: %s", out)
	}
	if code, _, errOut := runCLI(t, "list", "nope"); code != exitFailure || !strings.Contains(errOut, "nope") {
		t.Errorf("missing DIR: exit %d %q", code, errOut)
	}
}

func TestListToolsAndJSON(t *testing.T) {
	work, user := t.TempDir(), t.TempDir()
	writeSkillFile(t, work, "shell", "metadata:\n  conditions:\n    requires_tools: [bash]\n")
	writeSkillFile(t, work, "pdf", "")
	writeSkillFile(t, user, "pdf", "")
	writeSkillFile(t, user, "search", "metadata:\n  conditions:\n    fallback_for_tools: [web_search]\n")
	code, out, _ := runCLI(t, "list", "--json", "--tools", "web_search", work, user)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Skills []struct {
			Name, Source, Path string
		} `json:"skills"`
		Hidden []struct {
			Name    string `json:"name"`
			Reasons []struct {
				Rule string `json:"rule"`
			} `json:"reasons"`
		} `json:"hidden"`
		Diagnostics diagnostics.List `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err, out)
	}
	if len(got.Skills) != 1 || got.Skills[0].Name != "pdf" || got.Skills[0].Source != work || got.Skills[0].Path != filepath.Join(work, "pdf") {
		t.Errorf("skills %+v", got.Skills)
	}
	rules := map[string]string{}
	for _, h := range got.Hidden {
		rules[h.Name] = h.Reasons[0].Rule
	}
	if rules["shell"] != "requires_tools" || rules["search"] != "fallback_for_tools" {
		t.Errorf("hidden %+v", got.Hidden)
	}
	if !got.Diagnostics.Has(diagnostics.NameCollision) {
		t.Errorf("diagnostics %v", got.Diagnostics)
	}
	// Human form lists the hidden skills with their reasons.
	_, out, _ = runCLI(t, "list", "--tools", "bash", work)
	if !strings.Contains(out, "shell") || strings.Contains(out, "Hidden:") {
		t.Errorf("with bash:\n%s", out)
	}
	_, out, _ = runCLI(t, "list", "--tools=", work)
	if !strings.Contains(out, "Hidden:\n  shell: needs the tools bash") {
		t.Errorf("with no tools:\n%s", out)
	}
}

func TestListLimits(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		writeSkillFile(t, dir, n, "")
	}
	code, out, errOut := runCLI(t, "list", "--max-skills", "2", dir)
	if code != exitOK || strings.Contains(out, "\nc ") || !strings.Contains(errOut, "2 skills; 1 warning or error") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	_, out, _ = runCLI(t, "doctor", "--max-skills", "2", "--level", "warning", dir)
	if !strings.Contains(out, "LIMIT_REACHED") || !strings.Contains(out, dir+":c") {
		t.Errorf("doctor:\n%s", out)
	}
	_, out, _ = runCLI(t, "doctor", "--max-file-bytes", "10", "--json", dir)
	var diags diagnostics.List
	json.Unmarshal([]byte(out), &diags)
	if len(diags.WithCode(diagnostics.FileTooLarge)) != 3 {
		t.Errorf("max-file-bytes: %v", diags)
	}
	_, out, _ = runCLI(t, "doctor", "--max-dirs", "1", dir)
	if !strings.Contains(out, "LIMIT_REACHED") {
		t.Errorf("max-dirs:\n%s", out)
	}
	// Past --max-depth a skill is named in list, on stderr and in JSON;
	// a deeper --max-depth loads it.
	writeSkillFile(t, filepath.Join(dir, "x", "y"), "deep", "")
	if _, out, errOut := runCLI(t, "list", "--max-depth", "2", dir); strings.Contains(out, "deep") || !strings.Contains(errOut, "x/y/deep/SKILL.md") {
		t.Errorf("max-depth 2:\n%s\n%s", out, errOut)
	}
	_, out, _ = runCLI(t, "list", "--json", "--max-depth", "2", dir)
	var listed struct {
		NotLoaded []loader.NotLoaded `json:"not_loaded"`
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed.NotLoaded) != 1 || listed.NotLoaded[0].Code != diagnostics.LimitReached {
		t.Errorf("max-depth 2, JSON: %v %s", err, out)
	}
	if _, out, _ := runCLI(t, "list", "--max-depth", "3", dir); !strings.Contains(out, "deep") {
		t.Errorf("max-depth 3:\n%s", out)
	}
	if code, _, errOut := runCLI(t, "list", "--max-depth", "0", dir); code != exitFailure || !strings.Contains(errOut, "positive") {
		t.Errorf("zero depth: exit %d %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "list", "--max-skills", "0", dir); code != exitFailure || !strings.Contains(errOut, "positive") {
		t.Errorf("zero limit: exit %d %q", code, errOut)
	}
}

func TestDoctor(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "pdf", "")
	writeSkillFile(t, dir, "odd", "colour: blue\n") // FIELD_UNKNOWN, info
	sum, err := registry.Fingerprint(t.Context(), os.DirFS(dir), "pdf")
	if err != nil {
		t.Fatal(err)
	}
	if err := registry.NewFSStore(dir).Put(t.Context(), registry.Record{Name: "pdf", Fingerprint: sum, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "doctor", dir)
	if code != exitOK || strings.Contains(out, "FINGERPRINT_CHANGED") || !strings.Contains(out, "FIELD_UNKNOWN") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(dir, "pdf", "extra.md"), []byte("hand edit"), 0o644)
	code, out, errOut = runCLI(t, "doctor", "--level", "info", dir)
	if code != exitOK || !strings.Contains(out, "info FINGERPRINT_CHANGED pdf") || !strings.Contains(errOut, "2 skills: 0 errors, 0 warnings, 2 info") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	_, out, _ = runCLI(t, "doctor", "--level", "warning", dir)
	if out != "" {
		t.Errorf("--level warning showed %q", out)
	}
	// An error anywhere fails, whatever the level shows.
	os.MkdirAll(filepath.Join(dir, "broken"), 0o755)
	os.WriteFile(filepath.Join(dir, "broken", "SKILL.md"), []byte("no frontmatter"), 0o644)
	code, out, _ = runCLI(t, "doctor", "--level", "error", "--json", dir)
	var diags diagnostics.List
	if err := json.Unmarshal([]byte(out), &diags); err != nil || code != exitFailure || len(diags) != 1 || diags[0].Code != diagnostics.FrontmatterInvalid {
		t.Errorf("exit %d %v %v", code, diags, err)
	}
	if code, _, errOut := runCLI(t, "doctor", "--level", "loud", dir); code != exitUsage || !strings.Contains(errOut, "unknown level") {
		t.Errorf("bad level: %d %q", code, errOut)
	}
}

// validate finds skills with the loader's discovery (symbolic links checked)
// but none of its limits.
func TestValidateUsesLoaderDiscoveryWithoutLimits(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	for i := range 205 {
		writeSkillFile(t, filepath.Join(dir, "a", "b", "c", "d", "e", "f", "g"), fmt.Sprintf("s%03d", i), "")
	}
	writeSkillFile(t, outside, "stolen", "")
	if err := os.Symlink(filepath.Join(outside, "stolen"), filepath.Join(dir, "escape")); err != nil {
		t.Skip(err)
	}
	code, out, errOut := runCLI(t, "validate", dir)
	if code != exitOK || !strings.Contains(errOut, "205 skill files checked, 205 loaded") || !strings.Contains(out, "SYMLINK_ESCAPE") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestListNpxSkills: a project laid out by `npx skills` lists its skill
// through Claude Code's folder, once, with where the installer took it from.
func TestListNpxSkills(t *testing.T) {
	project := t.TempDir()
	writeSkillFile(t, filepath.Join(project, ".agents", "skills"), "pdf", "")
	claude := filepath.Join(project, ".claude", "skills")
	if err := os.MkdirAll(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../.agents/skills/pdf", filepath.Join(claude, "pdf")); err != nil {
		t.Skip(err)
	}
	lock := `{"version":1,"skills":{"pdf":{"source":"acme/skills","sourceType":"github","skillPath":"skills/pdf/SKILL.md","computedHash":"abc"}}}`
	if err := os.WriteFile(filepath.Join(project, "skills-lock.json"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dirs := range [][]string{{claude}, {claude, filepath.Join(project, ".agents", "skills")}} {
		code, out, errOut := runCLI(t, append([]string{"list", "--json"}, dirs...)...)
		var got struct {
			Skills []struct {
				Name string `json:"name"`
				Npx  *struct {
					Lock   string `json:"lock"`
					Source string `json:"source"`
					Hash   string `json:"hash"`
				} `json:"npx"`
			} `json:"skills"`
			Diagnostics diagnostics.List `json:"diagnostics"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
			t.Fatalf("exit %d %v\n%s\n%s", code, err, out, errOut)
		}
		if len(got.Skills) != 1 || got.Skills[0].Name != "pdf" || got.Skills[0].Npx == nil ||
			got.Skills[0].Npx.Source != "acme/skills" || got.Skills[0].Npx.Lock != filepath.Join(project, "skills-lock.json") {
			t.Errorf("%d folders: %s", len(dirs), out)
		}
		if got.Diagnostics.Has(diagnostics.SymlinkEscape) || got.Diagnostics.Has(diagnostics.NameCollision) {
			t.Errorf("%v", got.Diagnostics)
		}
	}
}
