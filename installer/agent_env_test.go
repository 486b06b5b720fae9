package installer_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/secrets"
)

// The checkers satisfy loader.Checker without installer importing loader.
var _ loader.Checker = (*installer.DepsChecker)(nil)

// TestAgentEnvSchema: metadata.env in an agent's SKILL.md becomes the
// skill's env schema, which the secrets vault lists and checks.
func TestAgentEnvSchema(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "skills")
	in, err := installer.New(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	content := `---
name: weather
description: Looks up the weather. Use when the user asks about the weather.
metadata:
  env:
    - name: WEATHER_API_KEY
      required: true
      description: API key of the weather service
    - name: WEATHER_UNITS
      description: metric or imperial
---
Call the weather service with $WEATHER_API_KEY.
`
	if _, err := in.Create(ctx, "weather", content, nil); err != nil {
		t.Fatal(err)
	}
	key, err := secrets.DeriveKey([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	kr, err := secrets.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	vault := secrets.NewVault(nil, &secrets.Options{Keyring: kr})
	l, err := loader.New(ctx, []loader.Source{{Name: "skills", Dir: dir, Writable: true}}, in.Registry(), &loader.Options{
		Checkers: []loader.Checker{registry.FingerprintChecker{Store: in.Registry()}, vault.EnvChecker(), in.DepsChecker()},
	})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := l.Get("weather")
	if !ok {
		t.Fatal("the agent's skill is not loaded")
	}
	if len(s.Env) != 2 || s.Env[0].Name != "WEATHER_API_KEY" || !s.Env[0].Required || s.Env[1].Required || s.Env[1].Default != nil {
		t.Fatalf("env schema %+v", s.Env)
	}
	status, err := vault.Configured(ctx, "weather", s.Env)
	if err != nil {
		t.Fatal(err)
	}
	if len(status) != 2 || !status[0].Declared || status[0].HasValue || status[1].HasDefault {
		t.Errorf("configured %+v", status)
	}
	diags := l.Doctor(ctx).ForSkill("weather")
	if missing := diags.WithCode(diagnostics.EnvNotConfigured); len(missing) != 1 || missing[0].Detail["env"] != "WEATHER_API_KEY" {
		t.Errorf("doctor %v", diags)
	}
	if err := vault.Save(ctx, "weather", map[string]string{"WEATHER_API_KEY": "k-123"}); err != nil {
		t.Fatal(err)
	}
	if diags := l.Doctor(ctx).ForSkill("weather"); slices.ContainsFunc(diags, func(d diagnostics.Diagnostic) bool { return d.Level >= diagnostics.Warning }) {
		t.Errorf("after saving the key: %v", diags)
	}
}
