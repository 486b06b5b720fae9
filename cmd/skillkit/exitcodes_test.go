package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every command answers the same situation with the same exit code
// (docs/cli.md, "Exit codes"): 2 for an unknown flag, a malformed --db and
// a missing argument, 1 for an operation that failed, 0 for success. The
// code of a question nobody answered (3) is checked where each command asks:
// install and approve (trust_test.go), deps (deps_test.go).
func TestExitCodes(t *testing.T) {
	skills := t.TempDir()
	writeSkillFile(t, skills, "alpha", "")
	db := "sqlite:" + filepath.Join(t.TempDir(), "fleet.db")

	if code, _, errOut := runCLI(t, "lsit"); code != exitUsage || !strings.Contains(errOut, "unknown command") {
		t.Errorf("an unknown command: exit %d\n%s", code, errOut)
	}
	for _, cmd := range commands() {
		code, _, errOut := runCLI(t, cmd.name, "--no-such-flag")
		if code != exitUsage || !strings.Contains(errOut, "unknown flag --no-such-flag") {
			t.Errorf("%s --no-such-flag: exit %d\n%s", cmd.name, code, errOut)
		}
		if !hasDir(cmd) {
			continue
		}
		// A malformed --db is a usage error before anything is opened,
		// after the command and before it.
		for _, args := range [][]string{{cmd.name, "--dir", skills, "--db", "mysql://db/x"}, {"--db", "mysql://db/x", cmd.name, "--dir", skills}} {
			if code, _, errOut := runCLI(t, args...); code != exitUsage || !strings.Contains(errOut, "not a database URL") {
				t.Errorf("%v: exit %d\n%s", args, code, errOut)
			}
		}
		if code, _, errOut := runCLIEnv(t, map[string]string{"SKILLKIT_DB": "sqlite:"}, cmd.name, "--dir", skills); code != exitUsage || !strings.Contains(errOut, "give sqlite:PATH") {
			t.Errorf("%s with SKILLKIT_DB=sqlite: exit %d\n%s", cmd.name, code, errOut)
		}
	}

	// A missing argument is a usage error; an operation on a skill that is
	// not there fails.
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"install", "--dir", skills}, exitUsage},
		{[]string{"read", "--dir", skills}, exitUsage},
		{[]string{"run", "--dir", skills}, exitUsage},
		{[]string{"deps", "--dir", skills}, exitUsage},
		{[]string{"uninstall", "--dir", skills}, exitUsage},
		{[]string{"approve", "--dir", skills}, exitUsage},
		{[]string{"update", "--dir", skills}, exitUsage},
		{[]string{"history", "--dir", skills}, exitUsage},
		{[]string{"rollback", "--dir", skills}, exitUsage},
		{[]string{"rollback", "--dir", skills, "alpha", "1", "2"}, exitUsage},
		{[]string{"pin", "--dir", skills}, exitUsage},
		{[]string{"unpin", "--dir", skills}, exitUsage},
		{[]string{"enable", "--dir", skills}, exitUsage},
		{[]string{"disable", "--dir", skills}, exitUsage},
		{[]string{"secrets", "--dir", skills}, exitUsage},
		{[]string{"validate"}, exitUsage},
		{[]string{"inspect"}, exitUsage},
		{[]string{"scan"}, exitUsage},
		{[]string{"sync", "--dir", skills}, exitUsage},
		{[]string{"version", "extra"}, exitUsage},

		{[]string{"install", "--dir", skills, filepath.Join(skills, "alpha", "SKILL.md")}, exitFailure},
		{[]string{"read", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"run", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"deps", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"uninstall", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"approve", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"update", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"history", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"rollback", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"pin", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"enable", "--dir", skills, "ghost"}, exitFailure},
		{[]string{"validate", filepath.Join(skills, "ghost")}, exitFailure},
		{[]string{"scan", filepath.Join(skills, "ghost")}, exitFailure},

		{[]string{"list", "--dir", skills}, exitOK},
		{[]string{"--db", db, "list", "--dir", skills}, exitOK},
		{[]string{"doctor", "--dir", skills}, exitOK},
		{[]string{"history", "--dir", skills, "alpha"}, exitOK},
		{[]string{"validate", skills}, exitOK},
		{[]string{"version"}, exitOK},
	} {
		if code, out, errOut := runCLI(t, tc.args...); code != tc.want {
			t.Errorf("%v: exit %d, want %d\n%s%s", tc.args, code, tc.want, out, errOut)
		}
	}
}

// hasDir reports whether cmd works on a skills folder (has --dir, and so
// --db).
func hasDir(cmd *command) bool {
	fs := newFlagSet(cmd, &cli{})
	if cmd.flags != nil {
		cmd.flags(fs)
	}
	return fs.Lookup("dir") != nil
}
