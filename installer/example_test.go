package installer_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/skill"
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

// Install a skill's dependencies after installing it. Its setup script runs
// only when the user confirmed it (DepsOptions.Setup) and only because the
// skill came from a ZIP archive; the Progress events carry the log lines a
// host shows as skill_deps_progress.
func ExampleInstaller_InstallDeps() {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "skillkit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	var upload bytes.Buffer
	zw := zip.NewWriter(&upload)
	for name, body := range map[string]string{
		"SKILL.md":          "---\nname: thumbs\ndescription: Makes thumbnails. Use when the user wants small previews of images.\n---\nRun scripts/thumbs.sh.\n",
		"skill.config.yaml": "runtime: bash\nsetup:\n  posix: scripts/setup.sh\n",
		"scripts/setup.sh":  "mkdir -p cache && echo cache ready\n",
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	zw.Close()
	data := upload.Bytes()

	in, err := installer.New(ctx, filepath.Join(tmp, "skills"), &installer.Options{
		Progress: func(e installer.Event) {
			if e.Op == installer.OpDeps && !e.Done && !strings.HasPrefix(e.Message, "done in") {
				fmt.Printf("progress [%s] %s\n", e.Step, e.Message)
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()
	if _, err := in.Install(ctx, installer.Source{Zip: bytes.NewReader(data), ZipSize: int64(len(data))}, nil); err != nil {
		log.Fatal(err)
	}
	userSaidYes := true // the host asked: "thumbs has a setup script, scripts/setup.sh; run it?"
	res, err := in.InstallDeps(ctx, "thumbs", &installer.DepsOptions{Setup: userSaidYes})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range res.Steps {
		fmt.Println(s.Step, s.Status, s.Detail)
	}
	// Output:
	// progress [setup] $ bash scripts/setup.sh
	// progress [setup] cache ready
	// setup ran scripts/setup.sh
}

// An agent writes a skill of its own (what skill_manage does), then
// changes and removes it. It may not touch skills a person installed.
func ExampleInstaller_Create() {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "skillkit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	in, err := installer.New(ctx, filepath.Join(tmp, "skills"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()

	res, err := in.Create(ctx, "standup", `---
name: standup
description: Writes the daily stand-up summary. Use when the user asks for a stand-up update.
metadata:
  env:
    - {name: TRACKER_TOKEN, required: true, description: Token for the issue tracker}
---
Summarize yesterday, today and blockers; use templates/standup.md.
`, map[string]string{"templates/standup.md": "## Yesterday\n## Today\n## Blockers\n"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", res.Name, "source", res.Record.Source)

	_, err = in.Edit(ctx, "standup", "", map[string]string{"references/tone.md": "Keep it short."}, nil)
	fmt.Println("edit:", err)

	_, err = in.Create(ctx, "standup-helper", "---\nname: standup-helper\ndescription: x\n---\n", map[string]string{"skill.config.yaml": "entrypoint: run.sh\n"})
	fmt.Println("an agent cannot add code to run:", errors.Is(err, installer.ErrInvalidContent))

	fmt.Println("delete:", in.Delete(ctx, "standup"))
	// Output:
	// created standup source agent
	// edit: <nil>
	// an agent cannot add code to run: true
	// delete: <nil>
}

// DepsChecker is a loader.Checker: it says what a skill needs that the
// host lacks.
func ExampleDepsChecker() {
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
	for _, d := range installer.NewDepsChecker(nil).Check(ctx, s) {
		fmt.Println(d.Level, d.Code)
	}
	// Output:
	// warning VENV_MISSING
}
