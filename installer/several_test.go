package installer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/registry"
)

// Skills lists the skill folders of a git repository, of the same
// repository's checkout as a folder and of a ZIP holding them; each then
// installs on its own with Subdir, which is recorded and fetched again by
// Update.
func TestSkillsOfASourceHoldingSeveral(t *testing.T) {
	r := newRepo(t)
	files := map[string]string{
		"README.md":              "A collection.",
		"skills/pdf/SKILL.md":    skillMD("pdf", "pdf v1"),
		"skills/csv/SKILL.md":    skillMD("csv", "csv v1"),
		"skills/csv/ref/data.md": "data",
	}
	r.Write(files)
	commit := r.Commit("several")
	want := []string{"skills/csv", "skills/pdf"}
	for _, tc := range []struct {
		name   string
		src    Source
		kind   registry.Source
		url    string
		commit string
	}{
		{"git", Source{Git: r.URL()}, registry.SourceGit, r.URL(), commit},
		{"checkout", Source{Dir: r.Dir}, registry.SourceLocal, r.Dir, commit},
		{"zip", Source{ZipFile: writeZip(t, files)}, registry.SourceZip, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, dir := newTestInstaller(t, &Options{AllowFileURLs: true})
			got, err := in.Skills(t.Context(), tc.src)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("Skills = %q, %v; want %q", got, err, want)
			}
			for _, sub := range got {
				src := tc.src
				src.Subdir = sub
				res, err := in.Install(t.Context(), src, nil)
				if err != nil {
					t.Fatal(err)
				}
				rec := res.Record
				if rec.Name != filepath.Base(sub) || rec.Source != tc.kind || rec.Subdir != sub || rec.Commit != tc.commit ||
					tc.url != "" && rec.URL != tc.url {
					t.Errorf("record %+v", rec)
				}
			}
			if readFile(t, filepath.Join(dir, "csv", "ref", "data.md")) != "data" {
				t.Error("csv's files are not installed")
			}
			if _, err := os.Stat(filepath.Join(dir, "csv", "README.md")); !os.IsNotExist(err) {
				t.Error("a file outside the skill's folder was installed")
			}
			assertNoLeftovers(t, dir)
		})
	}

	// Update fetches the same folder of the checkout again.
	in, dir := newTestInstaller(t, nil)
	if _, err := in.Install(t.Context(), Source{Dir: r.Dir, Subdir: "skills/pdf"}, nil); err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{"skills/pdf/SKILL.md": skillMD("pdf", "pdf v2")})
	if res, err := in.Update(t.Context(), "pdf", nil); err != nil || res.UpToDate || !strings.Contains(readFile(t, filepath.Join(dir, "pdf", "SKILL.md")), "pdf v2") {
		t.Errorf("update from the checkout's folder: %+v, %v", res, err)
	}
	// A folder that is a single skill lists itself; a subfolder that is no
	// folder, or a link, is refused.
	one := skillFolder(t, "single", "x", nil)
	if got, err := in.Skills(t.Context(), Source{Dir: one}); err != nil || !slices.Equal(got, []string{"."}) {
		t.Errorf("a single skill: %q, %v", got, err)
	}
	if _, err := in.Install(t.Context(), Source{Dir: r.Dir, Subdir: "skills/nope"}, nil); !errors.Is(err, ErrInvalidSource) {
		t.Errorf("a missing subfolder: %v", err)
	}
	if err := os.Symlink(filepath.Join(r.Dir, "skills", "pdf"), filepath.Join(r.Dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Install(t.Context(), Source{Dir: r.Dir, Subdir: "linked"}, nil); !errors.Is(err, archive.ErrLink) {
		t.Errorf("a subfolder that is a link: %v", err)
	}
	if _, err := in.Install(t.Context(), Source{Dir: r.Dir, Subdir: "../x"}, nil); !errors.Is(err, ErrInvalidSource) {
		t.Errorf("a subfolder leaving the folder: %v", err)
	}
}

// A checkout whose top is a skill installs as a folder: its .git is left
// out (and said so), and the commit checked out is recorded, for a branch
// (loose or packed) and a detached HEAD. Git never runs in the checkout.
func TestInstallACheckout(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"SKILL.md": skillMD("checked-out", "v1"), "scripts/run.sh": "echo hi"})
	c1 := r.Commit("first")
	in, dir := newTestInstaller(t, &Options{Runner: executor.RunnerFunc(func(_ context.Context, cmd executor.Command) (executor.Result, error) {
		t.Errorf("ran %s %q for a folder", cmd.Path, cmd.Args)
		return executor.Result{}, errors.New("no program runs for a folder")
	})})
	res, err := in.Install(t.Context(), Source{Dir: r.Dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Commit != c1 || res.Record.Source != registry.SourceLocal || len(res.Omitted) != 1 || !strings.Contains(res.Omitted[0], ".git") {
		t.Errorf("record %+v, omitted %q", res.Record, res.Omitted)
	}
	if _, err := os.Stat(filepath.Join(dir, "checked-out", ".git")); !os.IsNotExist(err) {
		t.Error(".git was installed")
	}
	r.Write(map[string]string{"SKILL.md": skillMD("checked-out", "v2")})
	c2 := r.Commit("second")
	r.Git("pack-refs", "--all")
	if res, err := in.Update(t.Context(), "checked-out", nil); err != nil || res.Record.Commit != c2 {
		t.Errorf("packed branch: %+v, %v; want commit %s", res, err, c2)
	}
	r.Git("checkout", "-q", c1)
	if res, err := in.Update(t.Context(), "checked-out", nil); err != nil || res.Record.Commit != c1 {
		t.Errorf("detached HEAD: %+v, %v; want commit %s", res, err, c1)
	}
}
