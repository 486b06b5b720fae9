package secrets_test

import (
	"context"
	"errors"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// checker is the loader's Checker interface, repeated here so the test
// fails to compile if EnvChecker stops satisfying it.
type checker interface {
	Check(ctx context.Context, s *skill.Skill) diagnostics.List
}

var _ checker = (*secrets.EnvChecker)(nil)

func TestEnvChecker(t *testing.T) {
	ctx := t.Context()
	v := newVault(t, nil, keyring(t, deriveKey(t, oldSecret)))
	if err := v.Save(ctx, "ocr", map[string]string{"SAVED": "x"}); err != nil {
		t.Fatal(err)
	}
	s := &skill.Skill{Name: "ocr", Dir: "ocr", DiskDir: "/skills/ocr", Env: []skill.EnvVar{
		{Name: "SAVED", Required: true},
		{Name: "DEFAULTED", Required: true, Default: ptr("")},
		{Name: "OPTIONAL"},
		{Name: "MISSING_A", Required: true},
		{Name: "MISSING_B", Required: true},
	}}
	var c checker = v.EnvChecker()
	got := c.Check(ctx, s)
	if len(got) != 2 {
		t.Fatalf("got %v", got)
	}
	for i, name := range []string{"MISSING_A", "MISSING_B"} {
		d := got[i]
		if d.Code != diagnostics.EnvNotConfigured || d.Level != diagnostics.Warning || d.Skill != "ocr" ||
			d.Path != "/skills/ocr" || d.Detail["env"] != name {
			t.Errorf("diagnostic %d: %+v", i, d)
		}
	}
	// Without DiskDir the path is the folder in its fs.FS.
	s.DiskDir = ""
	if got := c.Check(ctx, s); len(got) != 2 || got[0].Path != "ocr" {
		t.Errorf("without DiskDir: %v", got)
	}
	// Nothing required, nothing to say, and the store is not even asked.
	broken := secrets.NewVault(&failingStore{}, nil)
	if got := broken.EnvChecker().Check(ctx, &skill.Skill{Name: "x", Env: []skill.EnvVar{{Name: "A"}}}); got != nil {
		t.Errorf("optional only: %v", got)
	}
	if got := c.Check(ctx, nil); got != nil {
		t.Errorf("nil skill: %v", got)
	}
	// A store that cannot be read is one READ_ERROR warning.
	got = broken.EnvChecker().Check(ctx, &skill.Skill{Name: "x", Env: []skill.EnvVar{{Name: "A", Required: true}}})
	if len(got) != 1 || got[0].Code != diagnostics.ReadError || got[0].Level != diagnostics.Warning {
		t.Errorf("failing store: %v", got)
	}
	// A name that cannot hold secrets has no saved value.
	got = c.Check(ctx, &skill.Skill{Name: "Bad Name", Env: []skill.EnvVar{{Name: "A", Required: true}}})
	if len(got) != 1 || got[0].Code != diagnostics.EnvNotConfigured {
		t.Errorf("invalid skill name: %v", got)
	}
}

type failingStore struct{ secrets.MemStore }

func (*failingStore) Keys(context.Context, string) ([]string, error) {
	return nil, errors.New("disk on fire")
}
