package archive

import (
	"archive/zip"
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/skill"
)

// readTree returns every file under dir with its content and every entry
// with its mode, as slash paths.
func readTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	tree := make(map[string]string)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		v := info.Mode().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		tree[filepath.ToSlash(rel)] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestExtractUnwrapsGitHubLayout(t *testing.T) {
	z := buildZip(t,
		zf{name: "repo-main/"},
		zf{name: "repo-main/SKILL.md", body: skillMD},
		zf{name: "repo-main/scripts/run.sh", body: "#!/bin/sh\necho hi\n", mode: 0o700},
		zf{name: "repo-main/references/api.md", body: "# API\n"},
		zf{name: "repo-main/assets/"},
		zf{name: "repo-main/.DS_Store", body: "junk"},
		zf{name: "repo-main/node_modules/left-pad/index.js", body: "evil()"},
		zf{name: "repo-main/.venv/bin/python", body: "/usr/bin/python3", mode: fs.ModeSymlink | 0o777},
		zf{name: "__MACOSX/repo-main/._SKILL.md", body: "junk"},
	)
	_, stage := staging(t)
	rep, err := ExtractZip(t.Context(), bytes.NewReader(z), int64(len(z)), stage, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Report{
		Valid:     []string{"SKILL.md", "references/api.md", "scripts/run.sh"},
		Dirs:      []string{"assets", "references", "scripts"},
		Unwrapped: "repo-main",
		Bytes:     int64(len(skillMD) + len("#!/bin/sh\necho hi\n") + len("# API\n")),
	}
	if diff := cmp.Diff(want, rep, cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Omitted" }, cmp.Ignore())); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	var omitted []string
	for _, o := range rep.Omitted {
		omitted = append(omitted, o.Path)
		if !strings.HasPrefix(o.Err.Error(), "omitted: ") {
			t.Errorf("%s: %v", o.Path, o.Err)
		}
	}
	wantOmitted := []string{"repo-main/.DS_Store", "repo-main/node_modules/left-pad/index.js", "repo-main/.venv/bin/python", "__MACOSX/repo-main/._SKILL.md"}
	if !slices.Equal(omitted, wantOmitted) {
		t.Errorf("omitted %q, want %q", omitted, wantOmitted)
	}
	wantTree := map[string]string{
		"SKILL.md":          "-rw-r--r-- " + skillMD,
		"assets":            "drwxr-xr-x",
		"references":        "drwxr-xr-x",
		"references/api.md": "-rw-r--r-- # API\n",
		"scripts":           "drwxr-xr-x",
		"scripts/run.sh":    "-rwxr-xr-x #!/bin/sh\necho hi\n",
	}
	if diff := cmp.Diff(wantTree, readTree(t, stage)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

func TestExtractKeepsRootWhenItHoldsSkillFile(t *testing.T) {
	z := buildZip(t, zf{name: "skill.md", body: skillMD}, zf{name: "inner/SKILL.md", body: skillMD})
	_, stage := staging(t)
	rep, err := ExtractZip(t.Context(), bytes.NewReader(z), int64(len(z)), stage, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unwrapped != "" || !slices.Equal(rep.Valid, []string{"inner/SKILL.md", "skill.md"}) {
		t.Errorf("report %+v", rep)
	}
}

func TestExtractNeedsAnEmptyDestination(t *testing.T) {
	z := buildZip(t, zf{name: "SKILL.md", body: skillMD})
	parent, stage := staging(t)
	if err := os.WriteFile(filepath.Join(stage, "keep"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, parent)
	if _, err := ExtractZip(t.Context(), bytes.NewReader(z), int64(len(z)), stage, nil); !errors.Is(err, ErrDestination) {
		t.Errorf("non-empty destination: err = %v", err)
	}
	if after := snapshot(t, parent); !slices.Equal(before, after) {
		t.Errorf("changed: %q", after)
	}
	if _, err := ExtractZip(t.Context(), bytes.NewReader(z), int64(len(z)), filepath.Join(parent, "missing"), nil); !errors.Is(err, ErrDestination) {
		t.Errorf("missing destination: err = %v", err)
	}
}

func TestExtractZipFile(t *testing.T) {
	z := buildZip(t, zf{name: "SKILL.md", body: skillMD})
	name := filepath.Join(t.TempDir(), "skill.zip")
	if err := os.WriteFile(name, z, 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err := CheckZipFile(t.Context(), name, nil); err != nil || !slices.Equal(rep.Valid, []string{"SKILL.md"}) {
		t.Errorf("CheckZipFile: %+v, %v", rep, err)
	}
	_, stage := staging(t)
	if _, err := ExtractZipFile(t.Context(), name, stage, nil); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, stage)["SKILL.md"]; got != "-rw-r--r-- "+skillMD {
		t.Errorf("SKILL.md = %q", got)
	}
	if _, err := CheckZipFile(t.Context(), filepath.Dir(name), nil); !errors.Is(err, ErrNotZip) {
		t.Errorf("a folder as archive: err = %v", err)
	}
}

func TestNegativeSizeIsNotAZip(t *testing.T) {
	if _, err := CheckZip(t.Context(), bytes.NewReader(nil), -1, nil); !errors.Is(err, ErrNotZip) {
		t.Errorf("err = %v", err)
	}
}

func TestLimitsDefaults(t *testing.T) {
	want := Limits{DefaultMaxArchiveBytes, DefaultMaxFileBytes, DefaultMaxTotalBytes, DefaultMaxEntries, DefaultMaxRatio}
	for _, l := range []*Limits{nil, {}, {-1, -1, -1, -1, -1}} {
		if got := l.resolve(); got != want {
			t.Errorf("%+v resolves to %+v", l, got)
		}
	}
	if got := (&Limits{MaxFileBytes: 5, MaxRatio: 7}).resolve(); got.MaxFileBytes != 5 || got.MaxRatio != 7 || got.MaxEntries != DefaultMaxEntries {
		t.Errorf("partial limits resolve to %+v", got)
	}
	if DefaultMaxEntries != skill.DefaultMaxFiles {
		t.Errorf("DefaultMaxEntries %d differs from skill.DefaultMaxFiles %d", DefaultMaxEntries, skill.DefaultMaxFiles)
	}
}

func TestErrorFamilies(t *testing.T) {
	for _, err := range []error{ErrArchiveTooLarge, ErrTooManyEntries, ErrFileTooLarge, ErrTotalTooLarge, ErrRatio} {
		if !errors.Is(err, ErrLimit) {
			t.Errorf("%v does not wrap ErrLimit", err)
		}
	}
	for _, err := range []error{ErrUnsafePath, ErrLink, ErrCollision, ErrSizeMismatch, ErrNoSkillFile} {
		if errors.Is(err, ErrLimit) {
			t.Errorf("%v wraps ErrLimit", err)
		}
	}
}

// TestInfraDirsHaveARule: every folder the skill package treats as
// infrastructure is either refused or omitted here.
func TestInfraDirsHaveARule(t *testing.T) {
	for _, d := range skill.InfraDirs() {
		if rule, _ := infraRule(d); rule == "" {
			t.Errorf("%s has no rule", d)
		}
		if rule, _ := infraRule(strings.ToUpper(d)); rule == "" {
			t.Errorf("%s in upper case has no rule", d)
		}
	}
	if rule, _ := infraRule("gitlab"); rule != "" {
		t.Errorf("gitlab is %s", rule)
	}
}

// TestCorpusRoundTrips zips every skill of the corpus of real published
// skills and extracts it, and copies every skill folder: no rule may refuse
// a real skill, and the files must come out unchanged.
func TestCorpusRoundTrips(t *testing.T) {
	root, dirs := testcorpus.SkillDirs(t)
	for _, dir := range dirs {
		src := filepath.Join(root, filepath.FromSlash(dir))
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		if err := w.AddFS(os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		w.Close()
		want := readTree(t, src)

		_, stage := staging(t)
		if _, err := ExtractZip(t.Context(), bytes.NewReader(buf.Bytes()), int64(buf.Len()), stage, nil); err != nil {
			t.Errorf("%s: ExtractZip: %v", dir, err)
		} else if diff := cmp.Diff(contents(want), contents(readTree(t, stage))); diff != "" {
			t.Errorf("%s: extracted (-want +got):\n%s", dir, diff)
		}

		_, stage = staging(t)
		if _, err := CopyDir(t.Context(), src, stage, nil); err != nil {
			t.Errorf("%s: CopyDir: %v", dir, err)
		} else if diff := cmp.Diff(contents(want), contents(readTree(t, stage))); diff != "" {
			t.Errorf("%s: copied (-want +got):\n%s", dir, diff)
		}
	}
}

// contents drops the modes: the corpus's own modes are not what we write.
func contents(tree map[string]string) map[string]string {
	out := make(map[string]string, len(tree))
	for p, v := range tree {
		_, body, _ := strings.Cut(v, " ")
		out[p] = body
	}
	return out
}

// ExtractZipFolder writes the one skill folder asked for out of an archive
// holding several, relative to it; the whole archive is checked, so a
// hostile entry in another folder refuses it, and a folder without a skill
// file is no skill.
func TestExtractZipFolder(t *testing.T) {
	entries := []zf{
		{name: "skills/pdf/SKILL.md", body: skillMD},
		{name: "skills/pdf/scripts/fill.py", body: "print('fill')\n"},
		{name: "skills/docx/SKILL.md", body: skillMD},
		{name: "README.md", body: "# many skills\n"},
	}
	z := buildZip(t, entries...)
	_, stage := staging(t)
	rep, err := ExtractZipFolder(t.Context(), bytes.NewReader(z), int64(len(z)), "skills/pdf", stage, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Valid, []string{"SKILL.md", "scripts/fill.py"}) || !slices.Equal(rep.Dirs, []string{"scripts"}) || rep.Unwrapped != "" {
		t.Errorf("report %+v", rep)
	}
	want := map[string]string{
		"SKILL.md":        "-rw-r--r-- " + skillMD,
		"scripts":         "drwxr-xr-x",
		"scripts/fill.py": "-rw-r--r-- print('fill')\n",
	}
	if diff := cmp.Diff(want, readTree(t, stage)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}

	_, stage = staging(t)
	if _, err := ExtractZipFolder(t.Context(), bytes.NewReader(z), int64(len(z)), "skills", stage, nil); !errors.Is(err, ErrNoSkillFile) || !strings.Contains(err.Error(), `folder "skills"`) {
		t.Errorf("a folder without a skill file: %v", err)
	}
	// "skills/pd" is no folder of the archive, only a prefix of one.
	_, stage = staging(t)
	if _, err := ExtractZipFolder(t.Context(), bytes.NewReader(z), int64(len(z)), "skills/pd", stage, nil); !errors.Is(err, ErrNoSkillFile) {
		t.Errorf("a prefix of a folder: %v", err)
	}
	hostile := buildZip(t, append(entries, zf{name: "skills/docx/link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777})...)
	_, stage = staging(t)
	if _, err := ExtractZipFolder(t.Context(), bytes.NewReader(hostile), int64(len(hostile)), "skills/pdf", stage, nil); !errors.Is(err, ErrLink) {
		t.Errorf("a link in another folder: %v, want ErrLink", err)
	}
	if entries, _ := os.ReadDir(stage); len(entries) != 0 {
		t.Errorf("a refused archive wrote %d entries", len(entries))
	}
}

// TestExtractHeld: the extraction holds what it wrote while there is room:
// files in full, with their bytes, the rest written and not held; nothing
// is held of an archive whose data lies about its size.
func TestExtractHeld(t *testing.T) {
	big := strings.Repeat("data ", 400) // 2,000 bytes
	z := buildZip(t, zf{name: "SKILL.md", body: skillMD}, zf{name: "a/one.md", body: big}, zf{name: "a/two.md", body: big},
		zf{name: "run.sh", body: "echo\n", mode: 0o755})
	_, stage := staging(t)
	held := &Held{Max: int64(len(skillMD) + len(big) + 5)}
	if _, err := ExtractZipFolderHeld(t.Context(), bytes.NewReader(z), int64(len(z)), "", stage, nil, held); err != nil {
		t.Fatal(err)
	}
	checkHeld(t, held, stage)
	files := held.Files()
	if string(files["SKILL.md"]) != skillMD || string(files["run.sh"]) != "echo\n" {
		t.Errorf("held %q", slices.Sorted(maps.Keys(files)))
	}
	if n := len(files); n != 3 {
		t.Errorf("held %d files, want 3: SKILL.md, run.sh and one of the two that each fill the room left", n)
	}
	if tree := readTree(t, stage); len(tree) != 5 {
		t.Errorf("wrote %d entries, want 5 (4 files, 1 folder): %q", len(tree), slices.Sorted(maps.Keys(tree)))
	}

	short := rawZip(t, skillRaw(t), func() raw {
		r := deflated(t, "short.md", bytes.Repeat([]byte("abc "), 500))
		r.fh.UncompressedSize64 = 4000
		return r
	}())
	_, stage = staging(t)
	held = &Held{Max: 1 << 20}
	if _, err := ExtractZipFolderHeld(t.Context(), bytes.NewReader(short), int64(len(short)), "", stage, nil, held); !errors.Is(err, ErrSizeMismatch) {
		t.Fatalf("a short entry extracted: %v", err)
	}
	if _, ok := held.Files()["short.md"]; ok {
		t.Error("held a file whose data ended before its declared size")
	}
}
