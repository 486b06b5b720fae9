package main

import (
	"strings"
	"testing"
)

// TestSmallCommandsDoNotScan: pin and secrets list open a Kit that reads
// only the skill named; list, which needs every skill, scans. The loader
// logs each scan at debug level ("skills scanned").
func TestSmallCommandsDoNotScan(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"alpha", "beta", "gamma"} {
		writeSkillFile(t, dir, n, "")
	}
	if code, _, errOut := runCLI(t, "install", "--dir", dir, "--force", dir+"/alpha"); code != exitOK {
		t.Fatal(errOut)
	}
	env := map[string]string{"SKILLKIT_LOG": "debug", "SKILL_SECRET_KEY": "a test secret of at least sixteen bytes"}
	for _, args := range [][]string{
		{"pin", "--dir", dir, "alpha"},
		{"disable", "--dir", dir, "beta"},
		{"secrets", "--dir", dir, "set", "gamma", "TOKEN=x"},
		{"secrets", "--dir", dir, "list", "gamma"},
	} {
		code, _, errOut := runCLIEnv(t, env, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if strings.Contains(errOut, "skills scanned") {
			t.Errorf("%v scanned the skills folder:\n%s", args, errOut)
		}
	}
	code, _, errOut := runCLIEnv(t, env, "list", dir)
	if code != exitOK || !strings.Contains(errOut, "skills scanned") {
		t.Fatalf("list did not scan (exit %d):\n%s", code, errOut)
	}
}

// TestDisableHandPlacedName: a hand-placed skill whose name the loader
// accepts but the specification does not can be disabled and enabled, and
// its secrets still resolve.
func TestDisableHandPlacedName(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "My_Tool", "metadata:\n  env:\n    - {name: TOOL_TOKEN, required: true}\n")
	env := map[string]string{"SKILL_SECRET_KEY": "a test secret of at least sixteen bytes"}
	if code, _, errOut := runCLIEnv(t, env, "secrets", "--dir", dir, "set", "My_Tool", "TOOL_TOKEN=abc"); code != exitOK {
		t.Fatal(errOut)
	}
	if code, out, errOut := runCLI(t, "disable", "--dir", dir, "My_Tool"); code != exitOK || !strings.Contains(out, "disabled My_Tool") {
		t.Fatalf("disable: exit %d %s %s", code, out, errOut)
	}
	if _, out, _ := runCLI(t, "list", dir); strings.Contains(out, "My_Tool") && !strings.Contains(out, "disabled") {
		t.Errorf("the disabled skill is listed as enabled:\n%s", out)
	}
	if code, out, errOut := runCLI(t, "enable", "--dir", dir, "My_Tool"); code != exitOK || !strings.Contains(out, "enabled My_Tool") {
		t.Fatalf("enable: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut := runCLIEnv(t, env, "secrets", "--dir", dir, "list", "My_Tool")
	if code != exitOK || !strings.Contains(out, "TOOL_TOKEN") || !strings.Contains(out, "set") || strings.Contains(out, "MISSING") {
		t.Fatalf("secrets list: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSecretsListAfterAnotherInstall: a secret kept by an uninstall is not
// shown as set for a skill installed later under the name; it is shown as
// saved for an earlier install, and adopt makes it the new one's.
func TestSecretsListAfterAnotherInstall(t *testing.T) {
	skills, a, b := t.TempDir(), t.TempDir(), t.TempDir()
	writeSkillFile(t, a, "gh", "metadata:\n  env:\n    - {name: GH_TOKEN, required: true}\n")
	writeSkillFile(t, b, "gh", "metadata:\n  env:\n    - {name: GH_TOKEN, required: true}\n")
	env := map[string]string{"SKILL_SECRET_KEY": "a test secret of at least sixteen bytes", "SKILLKIT_DIR": skills}
	for _, args := range [][]string{
		{"install", a + "/gh"},
		{"secrets", "set", "gh", "GH_TOKEN=ghp_x"},
		{"uninstall", "--keep-secrets", "gh"},
		{"install", b + "/gh"},
	} {
		if code, _, errOut := runCLIEnv(t, env, args...); code != exitOK {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	code, out, errOut := runCLIEnv(t, env, "secrets", "list", "gh")
	if code != exitOK || !strings.Contains(out, "saved for an earlier install") || strings.Contains(out, "GH_TOKEN  set") {
		t.Fatalf("secrets list: %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLIEnv(t, env, "secrets", "adopt", "gh"); code != exitOK {
		t.Fatal(errOut)
	}
	if _, out, _ := runCLIEnv(t, env, "secrets", "list", "gh"); !strings.Contains(out, "set") || strings.Contains(out, "earlier install") {
		t.Fatalf("after adopt:\n%s", out)
	}
}
