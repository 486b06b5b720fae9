//go:build unix

package archive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tree writes files (content by slash path; a path ending in "/" is an
// empty folder) into a new folder and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestHostileFolders(t *testing.T) {
	base := map[string]string{"SKILL.md": skillMD, "references/api.md": "# API\n"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name  string
		files map[string]string
		setup func(t *testing.T, dir string)
		lim   *Limits
		want  error
		msg   string
		entry string
	}{
		{name: "symlink out of the folder", files: base, setup: func(t *testing.T, dir string) {
			must(t, os.Symlink("/etc/passwd", filepath.Join(dir, "passwd")))
		}, want: ErrLink, msg: "is a symbolic link", entry: "passwd"},
		{name: "symlinked folder", files: base, setup: func(t *testing.T, dir string) {
			must(t, os.Symlink("/etc", filepath.Join(dir, "references", "etc")))
		}, want: ErrLink, msg: "is a symbolic link", entry: "references/etc"},
		{name: "hard link", files: base, setup: func(t *testing.T, dir string) {
			must(t, os.Link(filepath.Join(dir, "references", "api.md"), filepath.Join(dir, "copy.md")))
		}, want: ErrLink, msg: "has 2 hard links", entry: "copy.md"},
		{name: "named pipe", files: base, setup: func(t *testing.T, dir string) {
			must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
		}, want: ErrNotRegular, msg: "is a named pipe", entry: "fifo"},
		{name: "device", files: base, setup: func(t *testing.T, dir string) {
			if err := syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o666, 0x0103); err != nil {
				t.Skipf("cannot make a device here: %v", err)
			}
		}, want: ErrNotRegular, msg: "is a device", entry: "null"},
		{name: ".git folder", files: with(map[string]string{".git/config": "[core]\n"}),
			want: ErrReservedName, msg: ".git is never installed", entry: ".git"},
		{name: ".git file", files: with(map[string]string{".git": "gitdir: ../../elsewhere\n"}),
			want: ErrReservedName, msg: ".git is never installed", entry: ".git"},
		{name: "backslash in a name", files: with(map[string]string{`a\b.md`: "x"}),
			want: ErrUnsafePath, msg: "holds a backslash", entry: `a\b.md`},
		{name: "control character in a name", files: with(map[string]string{"bell\a.md": "x"}),
			want: ErrUnsafePath, msg: "character U+0007", entry: "bell\a.md"},
		{name: "SKILL.md and skill.md", files: with(map[string]string{"skill.md": skillMD}),
			want: ErrCollision, msg: `differs only in letter case or Unicode form from "SKILL.md"`, entry: "skill.md"},
		{name: "file over the limit", files: with(map[string]string{"big.txt": strings.Repeat("x", 2000)}), lim: &Limits{MaxFileBytes: 1000},
			want: ErrFileTooLarge, msg: "2000 bytes, over the limit of 1000 per file", entry: "big.txt"},
		{name: "file over 1 MiB", files: with(map[string]string{"big.txt": strings.Repeat("x", 1<<20+1)}),
			want: ErrFileTooLarge, msg: "1048577 bytes, over the limit of 1048576 per file", entry: "big.txt"},
		{name: "too many entries", files: with(map[string]string{"a": "", "b": "", "c": ""}), lim: &Limits{MaxEntries: 4},
			want: ErrTooManyEntries, msg: "more than 4 entries"},
		{name: "total over the limit", files: with(map[string]string{"a": strings.Repeat("a", 600), "b": strings.Repeat("b", 600)}), lim: &Limits{MaxTotalBytes: 1000},
			want: ErrTotalTooLarge, msg: "add up to more than 1000 bytes"},
		{name: "no SKILL.md", files: map[string]string{"README.md": "hi"},
			want: ErrNoSkillFile, msg: "no SKILL.md at the top of the tree"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := tree(t, tc.files)
			if tc.setup != nil {
				tc.setup(t, src)
			}
			srcBefore := snapshot(t, src)
			parent, stage := staging(t)
			before := snapshot(t, parent)
			if _, err := CheckDir(t.Context(), src, tc.lim); !errors.Is(err, tc.want) {
				t.Errorf("CheckDir: %v, want %v", err, tc.want)
			}
			_, err := CopyDir(t.Context(), src, stage, tc.lim)
			if !errors.Is(err, tc.want) || !strings.Contains(fmt.Sprint(err), tc.msg) {
				t.Fatalf("CopyDir: %v, want %v saying %q", err, tc.want, tc.msg)
			}
			if tc.entry != "" {
				var fe *FileError
				if !errors.As(err, &fe) || fe.Path != tc.entry {
					t.Errorf("error %q does not name %q", err, tc.entry)
				}
			}
			if after := snapshot(t, parent); !slices.Equal(before, after) {
				t.Errorf("the destination's parent changed: %q", after)
			}
			if after := snapshot(t, src); !slices.Equal(srcBefore, after) {
				t.Errorf("the source changed: %q", after)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCopyDir(t *testing.T) {
	outer := tree(t, map[string]string{
		"my-skill/SKILL.md":            skillMD,
		"my-skill/scripts/run.py":      "print('hi')\n",
		"my-skill/assets/":             "",
		"my-skill/node_modules/x/a.js": "evil()",
		"my-skill/.DS_Store":           "junk",
	})
	src := filepath.Join(outer, "my-skill")
	must(t, os.Chmod(filepath.Join(src, "scripts", "run.py"), 0o750))
	must(t, os.Symlink("/usr/bin/python3", filepath.Join(src, "node_modules", "python"))) // omitted, so never looked at
	must(t, os.MkdirAll(filepath.Join(src, ".venv", "bin"), 0o755))
	must(t, os.Symlink("/usr/bin/python3", filepath.Join(src, ".venv", "bin", "python")))

	_, stage := staging(t)
	rep, err := CopyDir(t.Context(), outer, stage, nil) // the outer folder: unwrapped
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unwrapped != "my-skill" || !slices.Equal(rep.Valid, []string{"SKILL.md", "scripts/run.py"}) || !slices.Equal(rep.Dirs, []string{"assets", "scripts"}) {
		t.Errorf("report %+v", rep)
	}
	var omitted []string
	for _, o := range rep.Omitted {
		omitted = append(omitted, o.Path)
	}
	if want := []string{"my-skill/.DS_Store", "my-skill/.venv", "my-skill/node_modules"}; !slices.Equal(omitted, want) {
		t.Errorf("omitted %q, want %q", omitted, want)
	}
	want := map[string]string{
		"SKILL.md":       "-rw-r--r-- " + skillMD,
		"assets":         "drwxr-xr-x",
		"scripts":        "drwxr-xr-x",
		"scripts/run.py": "-rwxr-xr-x print('hi')\n",
	}
	if diff := cmp.Diff(want, readTree(t, stage)); diff != "" {
		t.Errorf("copied tree (-want +got):\n%s", diff)
	}
}

func TestCopyDirMissingSource(t *testing.T) {
	_, stage := staging(t)
	if _, err := CopyDir(t.Context(), filepath.Join(t.TempDir(), "nope"), stage, nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

// TestOpenSameRefusesASwappedFile: a file replaced between the check and
// the copy is not copied.
func TestOpenSameRefusesASwappedFile(t *testing.T) {
	dir := tree(t, map[string]string{"a.md": "checked", "b.md": "swapped in"})
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	checked, err := root.Lstat("a.md")
	must(t, err)
	must(t, os.Rename(filepath.Join(dir, "b.md"), filepath.Join(dir, "a.md")))
	if f, err := openSame(root, "a.md", checked); !errors.Is(err, ErrSizeMismatch) {
		if f != nil {
			f.Close()
		}
		t.Errorf("err = %v", err)
	}
}

// A git working tree copies without its top .git, which is reported as
// left out; CopyDir refuses the same folder, and a .git below the top is
// refused by both.
func TestCopyCheckout(t *testing.T) {
	src := tree(t, map[string]string{
		"SKILL.md":         skillMD,
		"scripts/run.py":   "print('hi')\n",
		".git/HEAD":        "ref: refs/heads/main\n",
		".git/config":      "[core]\n\tfsmonitor = evil\n",
		".git/refs/heads/": "",
	})
	_, stage := staging(t)
	rep, err := CopyCheckout(t.Context(), src, stage, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Omitted) != 1 || rep.Omitted[0].Path != ".git" || !strings.Contains(rep.Omitted[0].Err.Error(), "checkout's history") {
		t.Errorf("omitted %v", rep.Omitted)
	}
	want := map[string]string{
		"SKILL.md":       "-rw-r--r-- " + skillMD,
		"scripts":        "drwxr-xr-x",
		"scripts/run.py": "-rw-r--r-- print('hi')\n",
	}
	if diff := cmp.Diff(want, readTree(t, stage)); diff != "" {
		t.Errorf("copied tree (-want +got):\n%s", diff)
	}

	_, stage = staging(t)
	if _, err := CopyDir(t.Context(), src, stage, nil); !errors.Is(err, ErrReservedName) {
		t.Errorf("CopyDir of a checkout: %v, want ErrReservedName", err)
	}
	// A linked worktree has a .git file; a .git deeper down is refused.
	worktree := tree(t, map[string]string{"SKILL.md": skillMD, ".git": "gitdir: /elsewhere\n"})
	_, stage = staging(t)
	if _, err := CopyCheckout(t.Context(), worktree, stage, nil); err != nil {
		t.Errorf("a linked worktree: %v", err)
	}
	nested := tree(t, map[string]string{"SKILL.md": skillMD, "vendor/.git/HEAD": "x"})
	_, stage = staging(t)
	if _, err := CopyCheckout(t.Context(), nested, stage, nil); !errors.Is(err, ErrReservedName) {
		t.Errorf("a .git below the top: %v, want ErrReservedName", err)
	}
}
