package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/skillsdir"
)

// heavyPackages are what the lean build must not link: the network, the
// databases and their drivers, cgo, MCP, the executor, the installer side
// and the Kit that wires them all. A prefix ending in "/" matches the
// packages below it too.
var heavyPackages = []string{
	"net", "runtime/cgo", "database/sql", "os/user",
	"github.com/skillkit-go/skillkit", // the Kit
	"github.com/skillkit-go/skillkit/sqlstore",
	"github.com/skillkit-go/skillkit/executor",
	"github.com/skillkit-go/skillkit/mcpskills",
	"github.com/skillkit-go/skillkit/installer",
	"github.com/skillkit-go/skillkit/deps",
	"github.com/skillkit-go/skillkit/tools",
	"github.com/skillkit-go/skillkit/wellknown",
	"github.com/skillkit-go/skillkit/provenance",
	"github.com/skillkit-go/skillkit/authoring",
	"github.com/skillkit-go/skillkit/internal/skillsdir",
	"github.com/skillkit-go/skillkit/internal/confine",
	"github.com/jackc/", "modernc.org/", "github.com/sigstore/", "google.golang.org/protobuf/",
	"github.com/modelcontextprotocol/", "github.com/mark3labs/",
}

// isHeavy reports whether the package path is one of heavyPackages.
func isHeavy(pkg string) bool {
	for _, h := range heavyPackages {
		if pkg == h || strings.HasSuffix(h, "/") && strings.HasPrefix(pkg, h) {
			return true
		}
	}
	return false
}

// goTool returns the go command, skipping the test without one (failing
// it in CI).
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the go command is not on PATH")
		}
		t.Skip("needs the go command")
	}
	return p
}

// The lean build links none of the heavy packages; the full build links
// them (so the check can fail).
func TestLeanLinksOnlyWhatReads(t *testing.T) {
	deps := func(tags ...string) []string {
		args := append([]string{"list", "-deps"}, tags...)
		out, err := exec.CommandContext(t.Context(), goTool(t), append(args, ".")...).Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		return strings.Fields(string(out))
	}
	var linked []string
	for _, p := range deps("-tags", "lean") {
		if isHeavy(p) {
			linked = append(linked, p)
		}
	}
	if len(linked) > 0 {
		t.Errorf("the lean build links %s: a file of a command it hands over lacks //go:build !lean, or a shared file imports a heavy package", strings.Join(linked, ", "))
	}
	full := deps()
	for _, want := range []string{"github.com/skillkit-go/skillkit", "github.com/skillkit-go/skillkit/executor", "net"} {
		if !slices.Contains(full, want) {
			t.Errorf("the full build does not link %s", want)
		}
	}
}

// binaries are the lean skillkit and, beside it, the full one as
// skillkit-full.
type binaries struct{ lean, full string }

// fullNameForTest is the file name the lean build looks for beside itself.
const fullNameForTest = "skillkit-full"

// TestLeanBuild builds the lean skillkit and the full one beside it, and
// runs both.
func TestLeanBuild(t *testing.T) {
	goCmd := goTool(t)
	dir := t.TempDir()
	b := binaries{lean: filepath.Join(dir, "skillkit"), full: filepath.Join(dir, fullNameForTest)}
	for _, args := range [][]string{{"build", "-tags", "lean", "-o", b.lean, "."}, {"build", "-o", b.full, "."}} {
		if out, err := exec.CommandContext(t.Context(), goCmd, args...).CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Run("MatchesFull", func(t *testing.T) { leanMatchesFull(t, b) })
	t.Run("HandsOverAnUnsettledFolder", func(t *testing.T) { leanHandsOverAnUnsettledFolder(t, b) })
	t.Run("FindsTheFullSkillkit", func(t *testing.T) { leanFindsTheFullSkillkit(t, b) })
	t.Run("InstallsThroughTheFull", func(t *testing.T) { leanInstallsThroughTheFull(t, b) })
}

// result is what a run of a binary printed and how it ended.
type result struct {
	code           int
	stdout, stderr string
}

// runBin runs bin with args in dir (when not empty), with a clean
// environment plus env.
func runBin(t *testing.T, bin, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return result{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

// noFull is the environment of a lean skillkit that must not hand over:
// the full one it would find does not exist.
var noFull = []string{"SKILLKIT_FULL=/nonexistent/skillkit-full"}

// The lean build prints what the full one prints, for the commands it runs
// itself (with no full skillkit to hand over to) and for those it hands
// over.
func leanMatchesFull(t *testing.T, b binaries) {
	skills := filepath.Join(t.TempDir(), "skills")
	other := t.TempDir()
	for _, name := range []string{"alpha", "beta"} {
		src := filepath.Join(t.TempDir(), name)
		writeSkillFile(t, filepath.Dir(src), name, "")
		if r := runBin(t, b.full, "", nil, "install", "--dir", skills, src); r.code != exitOK {
			t.Fatalf("install: %+v", r)
		}
	}
	if r := runBin(t, b.full, "", nil, "disable", "--dir", skills, "beta"); r.code != exitOK {
		t.Fatalf("disable: %+v", r)
	}
	writeSkillFile(t, skills, "by-hand", "metadata:\n  requires:\n    tools: [browser]\n")
	writeSkillFile(t, other, "alpha", "")
	writeSkillFile(t, other, "gamma", "disable-model-invocation: true\n")
	writeSkillFile(t, other, "Broken", "")

	for _, tc := range []struct {
		args []string
		own  bool // the lean build runs it itself
	}{
		{[]string{"help"}, true},
		{[]string{"--help"}, true},
		{[]string{}, true},
		{[]string{"version"}, true},
		{[]string{"--version"}, true},
		{[]string{"version", "--json"}, true},
		{[]string{"help", "list"}, true},
		{[]string{"help", "validate"}, true},
		{[]string{"list", "--bogus"}, true},
		{[]string{"instal"}, true},
		{[]string{"help", "instal"}, true},
		{[]string{"validate", "../../examples/skills"}, true},
		{[]string{"validate", "--json", "--level", "info", other}, true},
		{[]string{"validate", "/nonexistent"}, true},
		{[]string{"list", skills, other}, true},
		{[]string{"list", "--json", skills, other}, true},
		{[]string{"list", "--tools", "", "--dir", skills, other}, true},
		{[]string{"list", "--max-skills", "2", skills, other}, true},
		{[]string{"list", "--max-skills", "0", skills}, true},
		{[]string{"list", "/nonexistent"}, true},
		{[]string{"list", "--quiet", "../../examples/skills"}, true},
		{[]string{"help", "install"}, false},
		{[]string{"install", "--bogus"}, false},
		{[]string{"uninstall", "--dir", skills, "nothing"}, false},
		{[]string{"list", "--long", skills}, false},
		{[]string{"list", "--db", "sqlite:" + filepath.Join(t.TempDir(), "db"), "--dir", skills}, false},
		{[]string{"prompt", skills}, false},
		{[]string{"inspect", "--dir", skills, "alpha"}, false},
		{[]string{"read", "alpha", skills}, false},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			want := runBin(t, b.full, "", nil, tc.args...)
			var got result
			if tc.own {
				got = runBin(t, b.lean, "", noFull, tc.args...)
			} else {
				got = runBin(t, b.lean, "", nil, tc.args...)
				// Without the full skillkit, the lean one says so.
				if r := runBin(t, b.lean, "", noFull, tc.args...); r.code != exitFailure || !strings.Contains(r.stderr, "/nonexistent/skillkit-full") {
					t.Errorf("a command the lean build hands over ran without the full skillkit: %+v", r)
				}
			}
			if got != want {
				t.Errorf("lean:\n%+v\nfull:\n%+v", got, want)
			}
		})
	}
}

// A skills folder where an operation did not finish is handed over: the
// full skillkit settles it before it reads.
func leanHandsOverAnUnsettledFolder(t *testing.T, b binaries) {
	skills := filepath.Join(t.TempDir(), "skills")
	writeSkillFile(t, skills, "alpha", "")
	if r := runBin(t, b.lean, "", noFull, "list", skills); r.code != exitOK {
		t.Fatalf("a settled folder: %+v", r)
	}
	for _, sub := range []string{skillsdir.StagingDir, skillsdir.TrashDir} {
		for _, name := range []string{"0123456789abcdef", "0123456789abcdef.lock"} {
			t.Run(sub+"/"+name, func(t *testing.T) {
				p := filepath.Join(skills, filepath.FromSlash(sub), name)
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
				defer os.RemoveAll(filepath.Join(skills, ".skillhub"))
				if r := runBin(t, b.lean, "", noFull, "list", skills); r.code != exitFailure || !strings.Contains(r.stderr, "/nonexistent/skillkit-full") {
					t.Errorf("not handed over: %+v", r)
				}
			})
		}
	}
}

// The full skillkit is $SKILLKIT_FULL, else skillkit-full beside the lean
// one, else on PATH; the lean one never hands over to itself, and says how
// to build the full one when there is none.
func leanFindsTheFullSkillkit(t *testing.T, b binaries) {
	alone := filepath.Join(t.TempDir(), "skillkit")
	copyFile(t, b.lean, alone)
	onPath := t.TempDir()
	copyFile(t, b.full, filepath.Join(onPath, fullNameForTest))
	want := runBin(t, b.full, "", nil, "help", "install")

	if r := runBin(t, alone, "", nil, "help", "install"); r.code != exitFailure || !strings.Contains(r.stderr, "go build -o") || !strings.Contains(r.stderr, "./cmd/skillkit") {
		t.Errorf("no full skillkit anywhere: %+v", r)
	}
	if r := runBin(t, alone, "", []string{"PATH=" + onPath}, "help", "install"); r != want {
		t.Errorf("on PATH: %+v", r)
	}
	if r := runBin(t, alone, "", []string{"SKILLKIT_FULL=" + b.full}, "help", "install"); r != want {
		t.Errorf("$SKILLKIT_FULL: %+v", r)
	}
	if r := runBin(t, b.lean, "", nil, "help", "install"); r != want {
		t.Errorf("beside it: %+v", r)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(alone, link); err != nil {
		t.Fatal(err)
	}
	for _, self := range []string{alone, link} {
		if r := runBin(t, alone, "", []string{"SKILLKIT_FULL=" + self}, "install", "x"); r.code != exitFailure || !strings.Contains(r.stderr, "is this lean one") {
			t.Errorf("SKILLKIT_FULL=%s, itself: %+v", self, r)
		}
	}
	// A lean skillkit installed as skillkit-full finds itself beside
	// itself.
	leanAsFull := filepath.Join(t.TempDir(), fullNameForTest)
	copyFile(t, b.lean, leanAsFull)
	if r := runBin(t, alone, "", []string{"PATH=" + filepath.Dir(leanAsFull)}, "install", "x"); r.code != exitFailure || !strings.Contains(r.stderr, "is this lean one") {
		t.Errorf("a lean skillkit-full: %+v", r)
	}
}

// An install through the lean skillkit is the full one's: its exit status,
// and the skill installed.
func leanInstallsThroughTheFull(t *testing.T, b binaries) {
	skills := filepath.Join(t.TempDir(), "skills")
	src := filepath.Join(t.TempDir(), "notes")
	writeSkillFile(t, filepath.Dir(src), "notes", "")
	if r := runBin(t, b.lean, "", nil, "install", "--dir", skills, src); r.code != exitOK {
		t.Fatalf("install: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(skills, "notes", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	r := runBin(t, b.lean, "", noFull, "list", "--json", skills)
	if r.code != exitOK || !strings.Contains(r.stdout, `"notes"`) {
		t.Errorf("list after install: %+v", r)
	}
	if r := runBin(t, b.lean, "", nil, "uninstall", "--dir", skills, "nothing"); r.code != exitFailure {
		t.Errorf("uninstall of nothing: %+v", r)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}
