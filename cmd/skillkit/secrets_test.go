package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/secrets"
)

const (
	cliOldSecret = "old secret for the CLI tests, random enough"
	cliNewSecret = "new secret for the CLI tests, random enough"
	cliPlain     = "sk-CLI-PLAINTEXT-93b1"
)

// runWith runs the command line with an environment and standard input.
func runWith(t *testing.T, vars map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(stdin), getenv: func(k string) string { return vars[k] }}
	code := run(t.Context(), args, c)
	for _, out := range []string{stdout.String(), stderr.String()} {
		if strings.Contains(out, cliPlain) {
			t.Errorf("%v printed the plaintext: %s", args, out)
		}
	}
	return code, stdout.String(), stderr.String()
}

// skillsDir makes a skills folder with one skill, ocr, that declares two
// variables in skill.config.yaml.
func skillsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"ocr/SKILL.md": "---\nname: ocr\ndescription: Reads text from images.\n---\nRun it.\n",
		"ocr/skill.config.yaml": "runtime: python\nentrypoint: run.py\nenv:\n" +
			"  - {name: OCR_API_KEY, required: true, description: the key}\n" +
			"  - {name: OCR_REGION, default: eu}\n" +
			"  - {name: OCR_PROJECT, required: true}\n",
		"ocr/run.py": "print('{}')\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSecretsSetListDelete(t *testing.T) {
	dir := skillsDir(t)
	vars := map[string]string{"SKILL_SECRET_KEY": cliOldSecret}
	code, out, errOut := runWith(t, vars, cliPlain+"\n", "secrets", "--dir", dir, "set", "ocr", "OCR_API_KEY=-", "EXTRA=x")
	if code != exitOK || !strings.Contains(out, "saved 2 values for ocr") {
		t.Fatalf("set: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runWith(t, vars, "", "secrets", "list", "ocr", "--dir", dir)
	if code != exitOK {
		t.Fatalf("list: exit %d", code)
	}
	for _, want := range []string{"OCR_API_KEY  set", "OCR_REGION   default", "OCR_PROJECT  not set  required, MISSING", "EXTRA        set      not declared by the skill"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runWith(t, nil, "", "secrets", "list", "--json", "--dir", dir, "ocr")
	var rows []secrets.EnvStatus
	if err := json.Unmarshal([]byte(out), &rows); code != exitOK || err != nil || len(rows) != 4 || !rows[0].HasValue || rows[2].HasValue {
		t.Fatalf("list --json (no key needed): exit %d, %v\n%s", code, err, out)
	}

	// The value on disk is sealed, the file private.
	err := filepath.WalkDir(secrets.NewFSStore(dir).Dir(), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		if bytes.Contains(data, []byte(cliPlain)) {
			t.Errorf("%s holds the plaintext", p)
		}
		if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", p, st.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	v := secrets.NewVault(secrets.NewFSStore(dir), &secrets.Options{Getenv: func(k string) string { return vars[k] }})
	env, err := v.ResolveEnv(t.Context(), "ocr", nil)
	if err != nil || env["OCR_API_KEY"] != cliPlain || env["EXTRA"] != "x" {
		t.Fatalf("the value read from stdin was not saved whole: %v", err)
	}

	code, out, _ = runWith(t, vars, "", "secrets", "--dir", dir, "delete", "ocr", "EXTRA")
	if code != exitOK || !strings.Contains(out, "deleted EXTRA from ocr") {
		t.Fatalf("delete: exit %d %s", code, out)
	}
	if keys, _ := v.Store().Keys(t.Context(), "ocr"); len(keys) != 1 {
		t.Fatalf("after delete: %v", keys)
	}
}

func TestSecretsRotate(t *testing.T) {
	dir := skillsDir(t)
	old := map[string]string{"APP_SECRET": cliOldSecret}
	if code, _, errOut := runWith(t, old, "", "secrets", "--dir", dir, "set", "ocr", "OCR_API_KEY="+cliPlain, "OCR_PROJECT=p"); code != exitOK {
		t.Fatalf("set: %s", errOut)
	}
	// The new key alone cannot open the old values: rotate says how to fix it.
	newOnly := map[string]string{"SKILL_SECRET_KEY": cliNewSecret}
	code, out, errOut := runWith(t, newOnly, "", "secrets", "--dir", dir, "rotate")
	if code != exitFailure || !strings.Contains(out, "2 could not be opened") || !strings.Contains(errOut, "SKILL_SECRET_KEY_PREVIOUS") {
		t.Fatalf("rotate without the old key: exit %d\n%s%s", code, out, errOut)
	}
	both := map[string]string{"SKILL_SECRET_KEY": cliNewSecret, "SKILL_SECRET_KEY_PREVIOUS": cliOldSecret}
	code, out, errOut = runWith(t, both, "", "secrets", "--dir", dir, "rotate")
	if code != exitOK || !strings.Contains(out, "resealed 2 values") {
		t.Fatalf("rotate: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runWith(t, both, "", "secrets", "--dir", dir, "rotate")
	if code != exitOK || !strings.Contains(out, "resealed 0 values") || !strings.Contains(out, "2 were already under it") {
		t.Fatalf("second rotate: exit %d\n%s", code, out)
	}
	v := secrets.NewVault(secrets.NewFSStore(dir), &secrets.Options{Getenv: func(k string) string { return newOnly[k] }})
	if env, err := v.ResolveEnv(t.Context(), "ocr", nil); err != nil || env["OCR_API_KEY"] != cliPlain {
		t.Fatalf("after rotation the new key alone does not open: %v", err)
	}
}

func TestSecretsImportLegacy(t *testing.T) {
	dir := skillsDir(t)
	// Written by the seed's SkillSecretService.encrypt (secrets/testdata/seed_encrypt.js)
	// with SKILL_SECRET_KEY=legacy-demo-secret over {"OCR_API_KEY":"sk-demo-123","REGION":"eu"}.
	blob := "bledK69RpeCCUxNMHcv6pBXSqUIBvyw5+wYfbJL+t5ttCHXVqqVdfpvWY8luzj/tw3pf4BzFSmQ+j89kSCSoFg5T6DLNmiE1+y6I"
	store := secrets.NewFSStore(dir)
	// A wrong legacy secret: nothing is saved.
	wrong := map[string]string{"SKILL_SECRET_KEY": "legacy-demo-secret-but-longer"}
	code, _, errOut := runWith(t, wrong, "", "secrets", "--dir", dir, "import-legacy", "ocr", blob)
	if code != exitFailure || !strings.Contains(errOut, "cannot open") {
		t.Fatalf("wrong legacy key: exit %d %s", code, errOut)
	}
	if keys, _ := store.Keys(t.Context(), "ocr"); len(keys) != 0 {
		t.Fatalf("a failed import saved %v", keys)
	}
	// The seed's own variable, as the seed reads it.
	code, out, errOut := runWith(t, map[string]string{"SKILL_SECRET_KEY": "legacy-demo-secret"}, "", "secrets", "--dir", dir, "import-legacy", "ocr", blob)
	if code != exitOK || !strings.Contains(out, "imported 2 values for ocr: OCR_API_KEY, REGION") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	// A new key, the seed's secret moved to another variable, the blob on stdin.
	vars := map[string]string{"SKILL_SECRET_KEY": cliNewSecret, "SEED_SECRET": "legacy-demo-secret"}
	code, _, errOut = runWith(t, vars, blob+"\n", "secrets", "--dir", dir, "--legacy-env", "SEED_SECRET", "import-legacy", "later", "-")
	if code != exitFailure || !strings.Contains(errOut, "has no skill later") {
		t.Fatalf("import for a skill not installed: exit %d\n%s", code, errOut)
	}
	writeSkillFile(t, dir, "later", "")
	code, out, errOut = runWith(t, vars, blob+"\n", "secrets", "--dir", dir, "--legacy-env", "SEED_SECRET", "import-legacy", "later", "-")
	if code != exitOK || !strings.Contains(out, "imported 2 values for later") {
		t.Fatalf("import with --legacy-env: exit %d\n%s%s", code, out, errOut)
	}
	v := secrets.NewVault(store, &secrets.Options{Getenv: func(k string) string { return vars[k] }})
	if env, err := v.ResolveEnv(t.Context(), "later", nil); err != nil || env["OCR_API_KEY"] != "sk-demo-123" || env["REGION"] != "eu" {
		t.Fatalf("imported values: %v", err)
	}
	code, _, errOut = runWith(t, vars, "", "secrets", "--dir", dir, "--legacy-env", "NOT_SET", "import-legacy", "ocr", blob)
	if code != exitFailure || !strings.Contains(errOut, "NOT_SET is not set") {
		t.Fatalf("--legacy-env of an unset variable: exit %d %s", code, errOut)
	}
}

func TestSecretsUsage(t *testing.T) {
	dir := skillsDir(t)
	key := map[string]string{"SKILL_SECRET_KEY": cliOldSecret}
	tests := []struct {
		args  []string
		code  int
		inErr string
	}{
		{[]string{"secrets"}, exitUsage, "give a subcommand"},
		{[]string{"secrets", "nope"}, exitUsage, "unknown subcommand"},
		{[]string{"secrets", "--dir", dir, "set", "ocr"}, exitUsage, "wrong number of arguments"},
		{[]string{"secrets", "--dir", dir, "list"}, exitUsage, "wrong number of arguments"},
		{[]string{"secrets", "--dir", dir, "rotate", "x"}, exitUsage, "wrong number of arguments"},
		{[]string{"secrets", "--dir", dir, "set", "../etc", "A=b"}, exitUsage, "invalid skill name"},
		{[]string{"secrets", "--dir", dir, "set", "ocr", cliPlain}, exitUsage, "argument 1 after NAME is not KEY=VALUE"},
		{[]string{"secrets", "--dir", dir, "set", "ocr", "A=-", "B=-"}, exitUsage, "only one value"},
		{[]string{"secrets", "--dir", dir, "set", "ocr", "A=1", "A=2"}, exitUsage, "given twice"},
		{[]string{"secrets", "--dir", dir, "set", "ocr", "LD_PRELOAD=" + cliPlain}, exitFailure, "LD_PRELOAD"},
		{[]string{"secrets", "--dir", filepath.Join(dir, "nope"), "list", "ocr"}, exitFailure, "does not exist"},
	}
	for _, tt := range tests {
		code, _, errOut := runWith(t, key, "", tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.inErr) {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, errOut)
		}
	}
	// No key: a clear error on the first command that needs one.
	code, _, errOut := runWith(t, nil, "", "secrets", "--dir", dir, "set", "ocr", "A=b")
	if code != exitFailure || !strings.Contains(errOut, "no key configured: set SKILL_SECRET_KEY") {
		t.Errorf("no key: exit %d %q", code, errOut)
	}
	// A skill that is not installed: refused, nothing saved (its values
	// would be sealed for no install and never reach it).
	code, _, errOut = runWith(t, key, "", "secrets", "--dir", dir, "set", "later", "A=b")
	if code != exitFailure || !strings.Contains(errOut, "has no skill later") || !strings.Contains(errOut, "install it first") {
		t.Errorf("unknown skill: exit %d %q", code, errOut)
	}
	if keys, _ := secrets.NewFSStore(dir).Keys(t.Context(), "later"); len(keys) != 0 {
		t.Errorf("values saved for an unknown skill: %v", keys)
	}
	// Deleting a value that is not there says so.
	runWith(t, key, "", "secrets", "--dir", dir, "set", "ocr", "A=b")
	code, out, errOut := runWith(t, key, "", "secrets", "--dir", dir, "delete", "ocr", "A", "NOPE")
	if code != exitFailure || !strings.Contains(out, "deleted A from ocr") || !strings.Contains(errOut, "no saved value for NOPE") {
		t.Errorf("delete of a missing key: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = runWith(t, nil, "", "help", "secrets")
	if code != exitOK || !strings.Contains(out, "SKILL_SECRET_KEY_PREVIOUS") || !strings.Contains(out, "import-legacy NAME BLOB") {
		t.Errorf("help: %d %s", code, out)
	}
}

// A value saved for an earlier install of a skill is listed as such, is not
// injected, and is used again after "secrets adopt". Here the earlier
// install was gh installed with an install id and uninstalled with its
// secrets kept; the skill now in the folder has no record.
func TestSecretsAdopt(t *testing.T) {
	dir := skillsDir(t)
	vars := map[string]string{"SKILL_SECRET_KEY": cliOldSecret}
	getenv := func(k string) string { return vars[k] }
	earlier := registry.NewInstallID()
	old := secrets.NewVault(secrets.NewFSStore(dir), &secrets.Options{Getenv: getenv,
		InstallID: func(context.Context, string) (string, error) { return earlier, nil }})
	if err := old.Save(t.Context(), "ocr", map[string]string{"OCR_API_KEY": cliPlain}); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runWith(t, vars, "", "secrets", "--dir", dir, "list", "ocr")
	if code != exitOK || !strings.Contains(out, "OCR_API_KEY  saved for an earlier install  required, MISSING") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	current := secrets.NewVault(secrets.NewFSStore(dir), &secrets.Options{Getenv: getenv})
	if env, err := current.ResolveEnv(t.Context(), "ocr", nil); err != nil || len(env) != 0 {
		t.Fatalf("the skill now in the folder received %d values, %v", len(env), err)
	}
	code, out, errOut := runWith(t, vars, "", "secrets", "--dir", dir, "adopt", "ocr")
	if code != exitOK || !strings.Contains(out, "adopted OCR_API_KEY for the current install of ocr") {
		t.Fatalf("adopt: exit %d\n%s%s", code, out, errOut)
	}
	if env, err := current.ResolveEnv(t.Context(), "ocr", nil); err != nil || env["OCR_API_KEY"] != cliPlain {
		t.Fatalf("after adopt: %v", err)
	}
	code, out, _ = runWith(t, vars, "", "secrets", "--dir", dir, "adopt", "ocr")
	if code != exitOK || !strings.Contains(out, "no values saved for an earlier install") {
		t.Fatalf("second adopt: exit %d\n%s", code, out)
	}
}
