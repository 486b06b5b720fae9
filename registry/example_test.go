package registry_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/skillkit-go/skillkit/registry"
)

func ExampleNewFSStore() {
	skills, _ := os.MkdirTemp("", "skills")
	defer os.RemoveAll(skills)
	ctx := context.Background()

	store := registry.NewFSStore(skills) // writes skills/.skillhub/lock.json and origins/
	store.Put(ctx, registry.Record{
		Name: "pdf", Version: "1.2.0", Source: registry.SourceGitHub,
		URL: "https://github.com/example/skills", Ref: "main", Commit: "9d2f1ae1",
		Fingerprint: "sha256:…", InstalledAt: time.Date(2026, 4, 13, 10, 0, 0, 0, time.UTC), Enabled: true,
	})
	rec, _ := store.Get(ctx, "pdf")
	fmt.Println(rec.Name, rec.Version, rec.Source, rec.Commit, rec.Enabled)
	_, err := store.Get(ctx, "docx")
	fmt.Println(err)
	// Output:
	// pdf 1.2.0 github 9d2f1ae1 true
	// registry: record not found: "docx"
}
