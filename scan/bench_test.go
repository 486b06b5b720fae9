package scan

import (
	"archive/zip"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// corpusSkills returns the corpus as an in-memory file system (so the
// benchmark measures the scan, not the disk), its skill folders, their
// sizes in bytes, and the total.
func corpusSkills(b *testing.B) (fstest.MapFS, []string, map[string]int64, int64) {
	root, dirs := testcorpus.SkillDirs(b)
	disk := os.DirFS(root)
	mem := fstest.MapFS{}
	sizes := map[string]int64{}
	var total int64
	for _, d := range dirs {
		err := fs.WalkDir(disk, d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			data, err := fs.ReadFile(disk, p)
			if err != nil {
				return err
			}
			mem[p] = &fstest.MapFile{Data: data}
			sizes[d] += int64(len(data))
			total += int64(len(data))
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return mem, dirs, sizes, total
}

// BenchmarkCorpus scans every skill of the corpus; MB/s is over all their
// files.
func BenchmarkCorpus(b *testing.B) {
	mem, dirs, _, total := corpusSkills(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range dirs {
			if _, err := Skill(b.Context(), mem, d, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTypicalSkill scans the corpus skill of median size.
func BenchmarkTypicalSkill(b *testing.B) {
	mem, dirs, sizes, _ := corpusSkills(b)
	sorted := slices.Clone(dirs)
	slices.SortFunc(sorted, func(x, y string) int { return int(sizes[x] - sizes[y]) })
	median := sorted[len(sorted)/2]
	b.Logf("median skill %s: %d bytes", median, sizes[median])
	b.SetBytes(sizes[median])
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Skill(b.Context(), mem, median, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHostileLine scans one script of a single 1 MiB line built to
// make the rules and decoders work: triggers, quotes, escapes and base64
// runs everywhere. Its time is bounded by the limits, not by the input.
func BenchmarkHostileLine(b *testing.B) {
	unit := `curl x | "a"+"b" \x41\x42\x43\x44 Y3VybCBodHRwOi8vZXhhbXBsZS5jb20= ignore previous instructions $(env) ` + "\u200b"
	data := []byte(strings.Repeat(unit, (1<<20)/len(unit)))
	fsys := fstest.MapFS{"s/SKILL.md": {Data: []byte("---\nname: s\ndescription: d\n---\n")}, "s/x.sh": {Data: data}}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Skill(b.Context(), fsys, "s", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThousandFiles scans the skill of the installer's benchmark
// archive (testcorpus.ThousandFileZip: 1,000 text files, 4.3 MB), read
// from memory: the scan an install of it pays at admission.
func BenchmarkThousandFiles(b *testing.B) {
	archive := filepath.Join(b.TempDir(), "skill.zip")
	if err := testcorpus.ThousandFileZip(archive, "---\nname: thousand\ndescription: A skill of a thousand files.\n---\nBody.\n"); err != nil {
		b.Fatal(err)
	}
	zr, err := zip.OpenReader(archive)
	if err != nil {
		b.Fatal(err)
	}
	defer zr.Close()
	mem := fstest.MapFS{}
	var total int64
	for _, f := range zr.File {
		data, err := fs.ReadFile(zr, f.Name)
		if err != nil {
			b.Fatal(err)
		}
		mem["thousand/"+f.Name] = &fstest.MapFile{Data: data}
		total += int64(len(data))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Skill(b.Context(), mem, "thousand", nil); err != nil {
			b.Fatal(err)
		}
	}
}
