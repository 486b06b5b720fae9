package deps_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// A Checker is a loader.Checker: it says what a skill needs that the host
// lacks, without running anything.
func ExampleChecker() {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "skillkit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "ocr")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: ocr\ndescription: Reads text in images.\n---\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "skill.config.yaml"), []byte("dependencies:\n  python:\n    inline: [pillow]\n"), 0o644)

	s, _ := skill.Load(os.DirFS(tmp), "ocr", &skill.LoadOptions{DiskRoot: tmp})
	for _, d := range deps.NewChecker(nil).Check(ctx, s) {
		fmt.Println(d.Level, d.Code)
	}
	// Output:
	// warning VENV_MISSING
}

// The Checker satisfies loader.Checker without deps importing loader.
var _ loader.Checker = (*deps.Checker)(nil)
