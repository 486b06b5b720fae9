package installer

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// BenchmarkReplace1000Files installs, over the installed version, one of
// two 1,000-file archives in turn (their SKILL.md differ): an update's
// swap, which keeps the replaced version in the skill's history. Compare
// it at two commits for what keeping the history costs.
func BenchmarkReplace1000Files(b *testing.B) {
	dir := b.TempDir()
	archives := [2]string{filepath.Join(dir, "a.zip"), filepath.Join(dir, "b.zip")}
	for i, body := range []string{"First version.", "Second version."} {
		if err := testcorpus.ThousandFileZip(archives[i], skillMD("thousand", body)); err != nil {
			b.Fatal(err)
		}
	}
	in, err := openFolder(filepath.Join(dir, "skills"))
	if err != nil {
		b.Fatal(err)
	}
	defer in.dir.Close()
	ctx := context.Background()
	if _, err := in.Install(ctx, Source{ZipFile: archives[0]}, nil); err != nil {
		b.Fatal(err)
	}
	i := 1
	for b.Loop() {
		if _, err := in.Install(ctx, Source{ZipFile: archives[i%2]}, &InstallOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
