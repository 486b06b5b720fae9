package installer_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit/installer"
)

// Install a skill from a local folder, then remove it. A GitHub source is
// installer.Source{Git: "https://github.com/OWNER/REPO/tree/main/skills/NAME"}.
func ExampleInstaller_Install() {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "skillkit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	// A skill someone wrote, in a folder of its own.
	src := filepath.Join(tmp, "downloads", "greeting")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "SKILL.md"), []byte(`---
name: greeting
description: Greets the user in their language. Use when the user says hello.
---
Answer a greeting with a greeting.
`), 0o644)

	skills := filepath.Join(tmp, "skills")
	in, err := installer.New(ctx, skills, &installer.Options{
		Progress: func(e installer.Event) {
			if e.Done {
				fmt.Printf("%s %s: done=%v err=%v\n", e.Op, e.Skill, e.Done, e.Err)
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()

	res, err := in.Install(ctx, installer.Source{Dir: src}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("installed", res.Name, "from", res.Record.Source)
	if _, err := os.Stat(filepath.Join(skills, "greeting", "SKILL.md")); err == nil {
		fmt.Println("skills/greeting/SKILL.md exists")
	}

	if err := in.Uninstall(ctx, "greeting", nil); err != nil {
		log.Fatal(err)
	}
	// Output:
	// install greeting: done=true err=<nil>
	// installed greeting from local
	// skills/greeting/SKILL.md exists
	// uninstall greeting: done=true err=<nil>
}

// Install a ZIP archive held in memory, such as an upload.
func ExampleSource_zip() {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "skillkit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	var upload bytes.Buffer
	zw := zip.NewWriter(&upload)
	w, _ := zw.Create("hello-main/SKILL.md") // GitHub's "Download ZIP" layout
	w.Write([]byte("---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n"))
	zw.Close()

	in, err := installer.New(ctx, filepath.Join(tmp, "skills"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()
	data := upload.Bytes()
	res, err := in.Install(ctx, installer.Source{Zip: bytes.NewReader(data), ZipSize: int64(len(data))}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Name, res.Record.Source, res.Record.Fingerprint[:7])
	// Output:
	// hello zip sha256:
}
