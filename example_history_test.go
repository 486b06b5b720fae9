package skillkit_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
)

// Every change of a skill keeps a version; Rollback restores one through
// the install's checks and scan.
func ExampleKit_Rollback() {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "skillkit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "src", "notes")
	write := func(body string) {
		if err := os.MkdirAll(src, 0o755); err != nil {
			log.Fatal(err)
		}
		md := "---\nname: notes\ndescription: Takes notes. Use when the user asks for notes.\n---\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte(md), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: filepath.Join(tmp, "skills"), History: &installer.Retention{Versions: 20}})
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()

	write("Write short notes.")
	if _, err := kit.Install(ctx, installer.Source{Dir: src}, nil); err != nil {
		log.Fatal(err)
	}
	write("Write long notes.")
	if _, err := kit.Update(ctx, "notes", nil); err != nil {
		log.Fatal(err)
	}
	// "" restores the version before the current one.
	if _, err := kit.Rollback(ctx, "notes", "", nil); err != nil {
		log.Fatal(err)
	}
	versions, err := kit.History(ctx, "notes")
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range versions {
		fmt.Println(v.Seq, v.Op, v.Actor, v.Current)
	}
	data, err := os.ReadFile(filepath.Join(kit.Dir(), "notes", "SKILL.md"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", data[len(data)-19:])
	// Output:
	// 1 install person false
	// 2 update person false
	// 3 rollback person true
	// "Write short notes.\n"
}
