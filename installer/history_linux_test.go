package installer

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillkit-go/skillkit/internal/asuser"
)

// A folder whose files cannot be read is still removed: there is nothing
// to keep, and the history records nothing for it.
func TestUnreadableFilesDoNotBlockAnUninstall(t *testing.T) {
	asuser.Again(t) // as root, again as nobody, who cannot read a file of mode 0
	if os.Geteuid() == 0 {
		return
	}
	ctx := t.Context()
	in, dir := newTestInstaller(t, nil)
	if _, err := in.Install(ctx, Source{Dir: skillFolder(t, "locked", "x", map[string]string{"secret.md": "s"})}, nil); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "locked", "secret.md")
	if err := os.Chmod(secret, 0); err != nil {
		t.Fatal(err)
	}
	if err := in.Uninstall(ctx, "locked", nil); err != nil {
		t.Fatalf("an uninstall of unreadable files: %v", err)
	}
	if vs := history(t, in, "locked"); !slices.Equal(ops(vs), []string{"install person"}) {
		t.Fatalf("history %q", ops(vs))
	}
}
