package installer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

func TestInstallFromGit(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("top-skill", "v1"), "scripts/run.sh": "echo hi"})
	c1 := r.Commit("first")
	in, dir := newTestInstaller(t, nil)
	res, err := in.Install(t.Context(), Source{Git: r.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	if rec.Name != "top-skill" || rec.Source != registry.SourceGit || rec.URL != r.URL() || rec.Commit != c1 || rec.Ref != "" {
		t.Errorf("record %+v", rec)
	}
	if _, err := os.Stat(filepath.Join(dir, "top-skill", ".git")); !os.IsNotExist(err) {
		t.Error(".git was installed")
	}
	if got := readFile(t, filepath.Join(dir, "top-skill", "scripts", "run.sh")); got != "echo hi" {
		t.Errorf("run.sh = %q", got)
	}
	assertNoLeftovers(t, dir)
}

// A repository with several skills, tags (light and annotated) and
// branches: the ref and the subfolder pick one version of one skill.
func TestInstallGitRefsAndSubfolders(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{
		"README.md":              "a collection",
		"skills/pdf/SKILL.md":    skillMD("pdf", "pdf v1"),
		"skills/docx/SKILL.md":   skillMD("docx", "docx v1"),
		"skills/docx/ref/doc.md": "doc",
	})
	v1 := r.Commit("v1")
	r.Git("tag", "v1")
	r.Write(map[string]string{"skills/pdf/SKILL.md": skillMD("pdf", "pdf v2")})
	v2 := r.Commit("v2")
	r.Git("tag", "-a", "v2", "-m", "annotated")
	r.Git("checkout", "-q", "-b", "feature/next")
	r.Write(map[string]string{"skills/pdf/SKILL.md": skillMD("pdf", "pdf next")})
	next := r.Commit("next")
	r.Git("checkout", "-q", "main")
	r.Write(map[string]string{"skills/pdf/SKILL.md": skillMD("pdf", "pdf v3")})
	v3 := r.Commit("v3")

	for _, tc := range []struct {
		ref, body, commit string
	}{
		{"", "pdf v3", v3},
		{"v1", "pdf v1", v1},
		{"v2", "pdf v2", v2},
		{"feature/next", "pdf next", next},
	} {
		t.Run("ref="+tc.ref, func(t *testing.T) {
			in, dir := newTestInstaller(t, nil)
			res, err := in.Install(t.Context(), Source{Git: r.URL(), Ref: tc.ref, Subdir: "skills/pdf"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, filepath.Join(dir, "pdf", "SKILL.md")); !strings.Contains(got, tc.body) {
				t.Errorf("SKILL.md = %q, want %q", got, tc.body)
			}
			if res.Record.Commit != tc.commit || res.Record.Ref != tc.ref || res.Record.Subdir != "skills/pdf" {
				t.Errorf("record %+v, want commit %s", res.Record, tc.commit)
			}
			if _, err := os.Stat(filepath.Join(dir, "pdf", "README.md")); !os.IsNotExist(err) {
				t.Error("files outside the subfolder were installed")
			}
			// CheckUpdates agrees that this ref is current.
			st, err := in.CheckUpdates(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(st) != 1 || !st[0].Checked || st[0].HasUpdate || st[0].Latest != tc.commit {
				t.Errorf("status %+v", st)
			}
		})
	}
	in, _ := newTestInstaller(t, nil)
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "skills/nope"}, nil); !errors.Is(err, ErrInvalidSource) {
		t.Errorf("missing subfolder: %v", err)
	}
	var ge *GitError
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Ref: "no-such-branch"}, nil); !errors.As(err, &ge) || !errors.Is(err, ErrGit) {
		t.Errorf("missing ref: %v", err)
	} else if ge.Op != "clone" || ge.ExitCode == 0 || !strings.Contains(ge.Stderr, "no-such-branch") {
		t.Errorf("git error %+v", ge)
	}
}

// Symbolic links in a repository: one pointing out of the skill refuses the
// install, naming it; one outside the installed subfolder does not matter;
// a subfolder that is itself a link is refused.
func TestInstallGitSymlinks(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{
		"evil/SKILL.md":  skillMD("evil", "x"),
		"clean/SKILL.md": skillMD("clean", "x"),
		"real/SKILL.md":  skillMD("real", "x"),
	})
	for _, l := range []struct{ target, name string }{
		{"/etc/passwd", "evil/passwd"},
		{"../../../../etc/hostname", "evil/host"},
		{"/etc", "elsewhere"},
		{"real", "linked"},
	} {
		if err := os.Symlink(l.target, filepath.Join(r.Dir, l.name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	r.Commit("links")
	in, dir := newTestInstaller(t, nil)
	_, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "evil"}, nil)
	if !errors.Is(err, ErrRejected) || !errors.Is(err, archive.ErrLink) || !strings.Contains(err.Error(), `"passwd"`) || !strings.Contains(err.Error(), `"host"`) {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "evil")); !os.IsNotExist(err) {
		t.Error("evil was installed")
	}
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "clean"}, nil); err != nil {
		t.Errorf("a link outside the subfolder refused the install: %v", err)
	}
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "linked"}, nil); !errors.Is(err, archive.ErrLink) {
		t.Errorf("a linked subfolder: %v", err)
	}
	assertNoLeftovers(t, dir)
}

func TestUpdateFromGit(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"skills/notes/SKILL.md": skillMD("notes", "v1")})
	c1 := r.Commit("v1")
	in, dir := newTestInstaller(t, nil)
	first, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "skills/notes"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := in.Update(t.Context(), "notes", nil)
	if err != nil || !res.UpToDate {
		t.Fatalf("update with nothing new: %+v, %v", res, err)
	}

	r.Write(map[string]string{"skills/notes/SKILL.md": skillMD("notes", "v2")})
	c2 := r.Commit("v2")
	st, err := in.CheckUpdates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || !st[0].HasUpdate || st[0].Current != c1 || st[0].Latest != c2 {
		t.Fatalf("status %+v", st)
	}

	// A local edit blocks the update until forced.
	installed := filepath.Join(dir, "notes", "SKILL.md")
	if err := os.WriteFile(installed, []byte(skillMD("notes", "edited")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Update(t.Context(), "notes", nil); !errors.Is(err, ErrModified) {
		t.Fatalf("update over an edit: %v", err)
	}
	if !strings.Contains(readFile(t, installed), "edited") {
		t.Fatal("the edit was lost")
	}
	res, err = in.Update(t.Context(), "notes", &UpdateOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.UpToDate || res.Record.Commit != c2 || !strings.Contains(readFile(t, installed), "v2") {
		t.Errorf("update: %+v", res)
	}
	if !res.Record.InstalledAt.Equal(first.Record.InstalledAt) || !res.Record.UpdatedAt.After(first.Record.InstalledAt) {
		t.Errorf("times: installed %v, updated %v", res.Record.InstalledAt, res.Record.UpdatedAt)
	}
	if st, _ := in.CheckUpdates(t.Context()); st[0].HasUpdate {
		t.Errorf("still outdated: %+v", st)
	}

	// Pinned: skipped by UpdateAll, refused by Update.
	r.Write(map[string]string{"skills/notes/SKILL.md": skillMD("notes", "v3")})
	r.Commit("v3")
	if err := in.Pin(t.Context(), "notes"); err != nil {
		t.Fatal(err)
	}
	all, err := in.UpdateAll(t.Context(), nil)
	if err != nil || len(all) != 1 || all[0].Skipped != "pinned" {
		t.Fatalf("update all: %+v, %v", all, err)
	}
	if _, err := in.Update(t.Context(), "notes", nil); !errors.Is(err, ErrPinned) {
		t.Fatalf("update pinned: %v", err)
	}
	if st, _ := in.CheckUpdates(t.Context()); !st[0].HasUpdate || !st[0].Pinned {
		t.Errorf("pinned status %+v", st)
	}
	if err := in.Unpin(t.Context(), "notes"); err != nil {
		t.Fatal(err)
	}
	all, err = in.UpdateAll(t.Context(), nil)
	if err != nil || all[0].Err != nil || all[0].Result == nil || !strings.Contains(readFile(t, installed), "v3") {
		t.Fatalf("update all after unpin: %+v, %v", all, err)
	}
	assertNoLeftovers(t, dir)
}

func TestUpdateLocalAndZipSources(t *testing.T) {
	in, dir := newTestInstaller(t, nil)
	src := skillFolder(t, "local-one", "v1", nil)
	if _, err := in.Install(t.Context(), Source{Dir: src}, nil); err != nil {
		t.Fatal(err)
	}
	res, err := in.Update(t.Context(), "local-one", nil)
	if err != nil || !res.UpToDate {
		t.Fatalf("unchanged folder: %+v %v", res, err)
	}
	writeTree(t, src, map[string]string{"SKILL.md": skillMD("local-one", "v2")})
	if res, err = in.Update(t.Context(), "local-one", nil); err != nil || res.UpToDate {
		t.Fatalf("changed folder: %+v %v", res, err)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "local-one", "SKILL.md")), "v2") {
		t.Error("not updated")
	}
	data := zipOf(t, map[string]string{"SKILL.md": skillMD("from-reader", "x")})
	if _, err := in.Install(t.Context(), Source{Zip: strings.NewReader(string(data)), ZipSize: int64(len(data))}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Update(t.Context(), "from-reader", nil); !errors.Is(err, ErrNotUpdatable) {
		t.Errorf("update of a reader ZIP: %v", err)
	}
	st, err := in.CheckUpdates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Checked || s.HasUpdate {
			t.Errorf("checked a non-git source: %+v", s)
		}
	}
}

// git runs with an empty environment plus what it needs, and with the
// options that keep hooks, helpers and prompts out.
func TestGitCommandLine(t *testing.T) {
	t.Setenv("SKILLKIT_TEST_SECRET", "do-not-leak")
	var cmds []executor.Command
	fake := executor.RunnerFunc(func(ctx context.Context, c executor.Command) (executor.Result, error) {
		cmds = append(cmds, c)
		return executor.Result{ExitCode: 128, Stderr: []byte("fatal: repository not found\n\x1b[31m")}, nil
	})
	in, _ := newTestInstaller(t, &Options{Runner: fake, GitEnv: map[string]string{"HTTPS_PROXY": "http://proxy:3128", "HOME": "/root"}})
	_, err := in.Install(t.Context(), Source{Git: "https://github.com/owner/repo/tree/main/skills/pdf"}, nil)
	var ge *GitError
	if !errors.As(err, &ge) || ge.ExitCode != 128 || strings.ContainsRune(ge.Error(), 0x1b) {
		t.Fatalf("err %v", err)
	}
	c := cmds[0]
	args := strings.Join(c.Args, " ")
	for _, want := range []string{
		"-c core.hooksPath=" + os.DevNull, "-c credential.helper=", "-c protocol.allow=never", "-c protocol.file.allow=always",
		"clone --depth 1 --no-recurse-submodules --quiet --branch main -- https://github.com/owner/repo.git ",
	} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if c.Path != "git" || c.Timeout != defaultGitTimeout {
		t.Errorf("command %+v", c)
	}
	keys := make([]string, 0, len(c.Env))
	for k := range c.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch k {
		case "PATH", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_TERMINAL_PROMPT", "GIT_ASKPASS",
			"SSH_ASKPASS", "GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER", "GIT_LFS_SKIP_SMUDGE", "LC_ALL", "HTTPS_PROXY",
			"SystemRoot", "TEMP", "TMP":
		default:
			t.Errorf("unexpected variable %s in git's environment", k)
		}
	}
	// The global configuration is the operation's own (it says only that
	// a local source of another owner may be read: the git tests run as
	// root clone as nobody).
	if c.Env["HOME"] == "/root" || !strings.Contains(c.Env["HOME"], ".skillhub") || filepath.Dir(c.Env["GIT_CONFIG_GLOBAL"]) != c.Env["HOME"] ||
		c.Env["GIT_TERMINAL_PROMPT"] != "0" || c.Env["HTTPS_PROXY"] != "http://proxy:3128" || c.Env["GIT_ALLOW_PROTOCOL"] != "https:file" {
		t.Errorf("env %v", c.Env)
	}
}

func TestGitHostAllowlist(t *testing.T) {
	in, _ := newTestInstaller(t, &Options{AllowedHosts: []string{"git.example.com"}})
	for _, u := range []string{"https://github.com/o/r", "https://gitlab.com/o/r"} {
		if _, err := in.Install(t.Context(), Source{Git: u}, nil); !errors.Is(err, ErrHostNotAllowed) {
			t.Errorf("%s: %v", u, err)
		}
	}
	strict, err := openFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer strict.dir.Close()
	if _, err := strict.Install(t.Context(), Source{Git: "file:///tmp/repo"}, nil); !errors.Is(err, ErrHostNotAllowed) {
		t.Errorf("file:// without AllowFileURLs: %v", err)
	}
	// With no AllowedHosts, github.com is the only host: not another
	// forge, nor a host that merely starts with github.com.
	for _, u := range []string{"https://gitlab.com/o/r", "https://codeberg.org/o/r", "https://bitbucket.org/o/r",
		"https://github.com.example.com/o/r", "https://www.github.com/o/r"} {
		if _, err := strict.Install(t.Context(), Source{Git: u}, nil); !errors.Is(err, ErrHostNotAllowed) {
			t.Errorf("%s with the default hosts: %v", u, err)
		}
	}
}

// CheckUpdates works on a skills folder where no operation ever ran (no
// .skillhub/staging yet), e.g. one whose records a host wrote or copied.
func TestCheckUpdatesOnAFreshFolder(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("fresh", "v1")})
	c1 := r.Commit("v1")
	dir := filepath.Join(t.TempDir(), "skills")
	writeTree(t, dir, map[string]string{"fresh/SKILL.md": skillMD("fresh", "v1")})
	if err := registry.NewFSStore(dir).Put(t.Context(), registry.Record{Name: "fresh", Source: registry.SourceGit, URL: r.URL(), Commit: "0000000000000000000000000000000000000000"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(skillsdir.StagingDir))); !os.IsNotExist(err) {
		t.Fatalf("the test needs a folder without %s: %v", skillsdir.StagingDir, err)
	}
	in := openTestInstaller(t, dir, nil)
	st, err := in.CheckUpdates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || st[0].Error != "" || !st[0].Checked || st[0].Latest != c1 || !st[0].HasUpdate {
		t.Fatalf("status %+v", st)
	}
	assertNoLeftovers(t, dir)
}

// TestMultiSkillRepositoryComparesTheFolder: in a repository holding
// several skills, a commit that changes another skill is no update of this
// one — for CheckUpdates (by the folder's git tree) and for Update, which
// swaps nothing and only records the new commit.
func TestMultiSkillRepositoryComparesTheFolder(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{
		"skills/notes/SKILL.md": skillMD("notes", "v1"),
		"skills/todo/SKILL.md":  skillMD("todo", "v1"),
	})
	r.Commit("v1")
	in, dir := newTestInstaller(t, nil)
	first, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "skills/notes"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Record.Tree == "" || first.Record.Tree != r.Git("rev-parse", "HEAD:skills/notes") {
		t.Fatalf("recorded tree %q", first.Record.Tree)
	}
	installed := filepath.Join(dir, "notes", "SKILL.md")
	before, err := os.Stat(installed)
	if err != nil {
		t.Fatal(err)
	}

	r.Write(map[string]string{"skills/todo/SKILL.md": skillMD("todo", "v2")})
	other := r.Commit("todo v2")
	st, err := in.CheckUpdates(t.Context())
	if err != nil || len(st) != 1 || !st[0].Checked || st[0].HasUpdate || st[0].Latest != other {
		t.Fatalf("after a commit to another skill: %+v, %v", st, err)
	}
	res, err := in.Update(t.Context(), "notes", nil)
	if err != nil || !res.UpToDate || res.Replaced || res.Record.Commit != other {
		t.Fatalf("update after a commit to another skill: %+v, %v", res, err)
	}
	after, err := os.Stat(installed)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("the skill's files were swapped although nothing changed")
	}
	assertNoLeftovers(t, dir)

	r.Write(map[string]string{"skills/notes/SKILL.md": skillMD("notes", "v2")})
	mine := r.Commit("notes v2")
	st, err = in.CheckUpdates(t.Context())
	if err != nil || !st[0].HasUpdate || st[0].Latest != mine {
		t.Fatalf("after a commit to this skill: %+v, %v", st, err)
	}
	res, err = in.Update(t.Context(), "notes", nil)
	if err != nil || res.UpToDate || !res.Replaced || res.Record.Tree != r.Git("rev-parse", "HEAD:skills/notes") {
		t.Fatalf("update: %+v, %v", res, err)
	}
	if !strings.Contains(readFile(t, installed), "v2") {
		t.Error("not updated")
	}
}

// TestUpdateOfUnchangedFolderSwapsNothing: updating a skill installed from
// a folder that did not change leaves its files (and what was built in
// them) where they are.
func TestUpdateOfUnchangedFolderSwapsNothing(t *testing.T) {
	in, dir := newTestInstaller(t, nil)
	src := skillFolder(t, "steady", "same", nil)
	if _, err := in.Install(t.Context(), Source{Dir: src}, nil); err != nil {
		t.Fatal(err)
	}
	built := filepath.Join(dir, "steady", ".venv")
	writeTree(t, built, map[string]string{"marker": "built"})
	before, _ := os.Stat(built)
	res, err := in.Update(t.Context(), "steady", nil)
	if err != nil || !res.UpToDate || res.Replaced {
		t.Fatalf("%+v, %v", res, err)
	}
	if after, err := os.Stat(built); err != nil || !os.SameFile(before, after) {
		t.Errorf("the .venv was touched: %v", err)
	}
	assertNoLeftovers(t, dir)
}

// TestSourceHoldingSeveralSkills: a repository (or folder, or ZIP) with no
// SKILL.md at its top but skills below it is refused with the list of its
// skills, so the user can pick one.
func TestSourceHoldingSeveralSkills(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{
		"README.md":             "A collection.",
		"skills/pdf/SKILL.md":   skillMD("pdf", "x"),
		"skills/csv/SKILL.md":   skillMD("csv", "x"),
		"extra/deep/x/SKILL.md": skillMD("x", "x"),
	})
	r.Commit("several")
	in, _ := newTestInstaller(t, nil)
	_, err := in.Install(t.Context(), Source{Git: r.URL()}, nil)
	if !errors.Is(err, ErrRejected) || !errors.Is(err, ErrSeveralSkills) || !strings.HasSuffix(err.Error(), "it holds 3 skills, in extra/deep/x, skills/csv and skills/pdf: install one by its folder") {
		t.Fatalf("err %v", err)
	}
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "skills/pdf"}, nil); err != nil {
		t.Fatalf("picking one: %v", err)
	}
	zip := writeZip(t, map[string]string{"a/SKILL.md": skillMD("a", "x"), "b/SKILL.md": skillMD("b", "x")})
	if _, err := in.Install(t.Context(), Source{ZipFile: zip}, nil); !strings.Contains(fmt.Sprint(err), "it holds 2 skills, in a and b") {
		t.Fatalf("a ZIP of two skills: %v", err)
	}
}

// Two folders of one repository holding skills of the same name are two
// origins: installing the second does not replace the first.
func TestAnotherSubdirOfTheRepositoryIsAnotherOrigin(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a/SKILL.md": skillMD("twin", "from a"), "b/SKILL.md": skillMD("twin", "from b")})
	r.Commit("twins")
	in, dir := newTestInstaller(t, nil)
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "a"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Install(t.Context(), Source{Git: r.URL(), Subdir: "b"}, nil); !errors.Is(err, ErrExists) {
		t.Fatalf("install from the other folder: %v, want ErrExists", err)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "twin", "SKILL.md")), "from a") {
		t.Error("the first install was replaced")
	}
}
