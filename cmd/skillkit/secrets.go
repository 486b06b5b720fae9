//go:build !lean

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

type secretsOptions struct {
	dir       string
	json      bool
	legacyEnv string
}

func secretsCommand() *command {
	return &command{
		name:    "secrets",
		args:    "[--dir DIR] set NAME KEY=VALUE... | list NAME | delete NAME KEY... | adopt NAME | rotate | import-legacy NAME BLOB",
		summary: "save, list, delete and rotate the encrypted secrets of skills",
		help: `
Secrets live sealed (AES-256-GCM) in DIR/.skillhub/secrets. The key comes from
SKILL_SECRET_KEY, or APP_SECRET when that is unset: a random secret of at least
16 bytes (openssl rand -base64 32). No command ever prints a value.

  set NAME KEY=VALUE...    save values for skill NAME; a VALUE of - is read
                           from standard input (one trailing newline dropped),
                           which keeps it out of the shell history
  list NAME                the skill's declared and saved variables: whether
                           each has a value, never the value
  delete NAME KEY...       remove saved values
  adopt NAME               use the values saved for an earlier install of a
                           skill named NAME (list shows them as "saved for
                           an earlier install") for the one installed now.
                           Values belong to one install: a skill that takes
                           the name of an uninstalled one never receives its
                           secrets unless you adopt them.
  rotate                   seal every value again under SKILL_SECRET_KEY.
                           Set SKILL_SECRET_KEY to the new secret and
                           SKILL_SECRET_KEY_PREVIOUS to the old one, run
                           rotate (again, if it was interrupted), then unset
                           SKILL_SECRET_KEY_PREVIOUS.
  import-legacy NAME BLOB  import values saved in the legacy format: one
                           encrypted JSON object per skill, base64(IV ||
                           ciphertext || tag), under the key
                           sha256(SKILL_SECRET_KEY || APP_SECRET), or under
                           the secret in the variable --legacy-env names
                           when it differs from the new one; a BLOB of - is
                           read from standard input`,
		flags: func(fs *flag.FlagSet) any {
			o := &secretsOptions{}
			fs.StringVar(&o.dir, "dir", "", "the skills folder `DIR` (default $SKILLKIT_DIR, else ./skills)")
			fs.BoolVar(&o.json, "json", false, "list: print a JSON array")
			fs.StringVar(&o.legacyEnv, "legacy-env", "", "import-legacy: the variable `VAR` holding the legacy secret (default SKILL_SECRET_KEY, else APP_SECRET)")
			return o
		},
		run: runSecrets,
	}
}

func runSecrets(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*secretsOptions)
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "skillkit secrets: give a subcommand: set, list, delete, adopt, rotate or import-legacy")
		return exitUsage
	}
	sub, args := args[0], args[1:]
	wantArgs := map[string]func(n int) bool{
		"set":           func(n int) bool { return n >= 2 },
		"list":          func(n int) bool { return n == 1 },
		"delete":        func(n int) bool { return n >= 2 },
		"adopt":         func(n int) bool { return n == 1 },
		"rotate":        func(n int) bool { return n == 0 },
		"import-legacy": func(n int) bool { return n == 2 },
	}
	ok, known := wantArgs[sub]
	if !known {
		fmt.Fprintf(c.stderr, "skillkit secrets: unknown subcommand %q%s\n", sub, didYouMean(suggest(sub, slices.Sorted(maps.Keys(wantArgs)))))
		return exitUsage
	}
	if !ok(len(args)) {
		fmt.Fprintf(c.stderr, "skillkit secrets %s: wrong number of arguments; see skillkit help secrets\n", sub)
		return exitUsage
	}
	if len(args) > 0 {
		if err := skill.ValidateKey(args[0]); err != nil {
			fmt.Fprintf(c.stderr, "skillkit secrets %s: %v\n", sub, err)
			return exitUsage
		}
	}
	o.dir = resolveDir(c, o.dir)
	if st, err := os.Stat(o.dir); err != nil || !st.IsDir() {
		fmt.Fprintf(c.stderr, "skillkit secrets: the skills folder %s does not exist (use --dir or SKILLKIT_DIR)\n", o.dir)
		return exitFailure
	}
	kit, err := c.open(ctx, skillkit.Options{Dir: o.dir, Getenv: c.getenv, Logger: c.logger})
	if err != nil {
		return c.fail("secrets", err)
	}
	defer kit.Close()
	v := kit.Vault()
	switch sub {
	case "set":
		err = secretsSet(ctx, c, kit, args[0], args[1:])
	case "list":
		err = secretsList(ctx, c, o, kit, args[0])
	case "delete":
		err = secretsDelete(ctx, c, v, args[0], args[1:])
	case "adopt":
		err = secretsAdopt(ctx, c, v, args[0])
	case "rotate":
		err = secretsRotate(ctx, c, v)
	case "import-legacy":
		err = secretsImport(ctx, c, o, kit, args[0], args[1])
	}
	var usage usageError
	if errors.As(err, &usage) {
		fmt.Fprintf(c.stderr, "skillkit secrets %s: %v\n", sub, err)
		return exitUsage
	}
	if err != nil {
		return c.fail("secrets "+sub, err)
	}
	return exitOK
}

// usageError is a mistake on the command line (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func secretsSet(ctx context.Context, c *cli, kit *skillkit.Kit, name string, pairs []string) error {
	values := map[string]string{}
	stdinUsed := false
	for i, pair := range pairs {
		key, value, found := strings.Cut(pair, "=")
		if !found || key == "" {
			// The argument may be a value typed without its name: never echo it.
			return usageError{fmt.Sprintf("argument %d after NAME is not KEY=VALUE", i+1)}
		}
		if _, dup := values[key]; dup {
			return usageError{fmt.Sprintf("%s is given twice", key)}
		}
		if value == "-" {
			if stdinUsed {
				return usageError{"only one value can be read from standard input"}
			}
			stdinUsed = true
			var err error
			if value, err = readStdinValue(c.stdin); err != nil {
				return err
			}
		}
		values[key] = value
	}
	if err := needInstalled(ctx, kit, name); err != nil {
		return err
	}
	if err := kit.SaveSecrets(ctx, name, values); err != nil {
		return err
	}
	fmt.Fprintf(c.done(), "saved %s for %s\n", plural(len(values), "value"), name)
	return nil
}

// needInstalled refuses to save values for a skill that is not in the
// skills folder: values are sealed for one install of a skill, so values
// saved before an install would never reach the skill installed later.
func needInstalled(ctx context.Context, kit *skillkit.Kit, name string) error {
	if _, ok, err := kit.Skill(ctx, name); err != nil || ok {
		return err
	}
	if _, err := kit.Registry().Get(ctx, name); err == nil {
		return nil
	}
	return fmt.Errorf("%s has no skill %s%s: values are sealed for one install of a skill, so install it first, then save its values",
		kit.Dir(), name, didYouMean(suggest(name, skillNames(ctx, kit))))
}

// readStdinValue reads one value from standard input without its trailing
// newline.
func readStdinValue(r io.Reader) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, secrets.MaxValueLen+3))
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	s := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	return s, nil
}

func secretsList(ctx context.Context, c *cli, o *secretsOptions, kit *skillkit.Kit, name string) error {
	var schema []skill.EnvVar
	s, _, err := kit.Skill(ctx, name)
	if err != nil {
		return err
	}
	if s != nil {
		schema = s.Env
	}
	rows, err := kit.Vault().Configured(ctx, name, schema)
	if err != nil {
		return err
	}
	if o.json {
		if rows == nil {
			rows = []secrets.EnvStatus{}
		}
		return writeJSON(c, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintf(c.info(), "%s declares no variables and has no saved values\n", name)
		return nil
	}
	table := [][]string{{"VARIABLE", "VALUE", "NOTE"}}
	for _, r := range rows {
		value := "not set"
		switch {
		case r.HasValue && r.Damaged:
			value = "damaged: does not open, save it again"
		case r.HasValue && r.OtherKey:
			value = "set, under another key"
		case r.HasValue:
			value = "set"
		case r.Stale:
			value = "saved for an earlier install"
		case r.HasDefault:
			value = "default"
		}
		var notes []string
		if r.Required {
			notes = append(notes, "required")
		}
		if !r.Declared {
			notes = append(notes, "not declared by the skill")
		}
		if r.Required && !r.HasValue && !r.HasDefault {
			notes = append(notes, "MISSING")
		}
		table = append(table, []string{safeText(r.Name), value, strings.Join(notes, ", ")})
	}
	if err := writeTable(c.stdout, c.width(), table); err != nil {
		return err
	}
	if slices.ContainsFunc(rows, func(r secrets.EnvStatus) bool { return r.OtherKey }) {
		fmt.Fprintln(c.info(), otherKeyHint)
	}
	return nil
}

// otherKeyHint says what to do about values sealed under another key.
const otherKeyHint = "Values sealed under another key do not open with this SKILL_SECRET_KEY: if the key changed, set the old secret as " +
	secrets.EnvPreviousKey + " and run skillkit secrets rotate."

func secretsDelete(ctx context.Context, c *cli, v *secrets.Vault, name string, keys []string) error {
	saved, err := v.Store().Keys(ctx, name)
	if err != nil {
		return err
	}
	var present, missing []string
	for _, k := range keys {
		if slices.Contains(saved, k) {
			present = append(present, k)
		} else {
			missing = append(missing, k)
		}
	}
	if err := v.Delete(ctx, name, present...); err != nil {
		return err
	}
	if len(present) > 0 {
		fmt.Fprintf(c.done(), "deleted %s from %s\n", strings.Join(present, ", "), name)
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s has no saved value for %s", name, strings.Join(missing, ", "))
	}
	return nil
}

func secretsAdopt(ctx context.Context, c *cli, v *secrets.Vault, name string) error {
	names, err := v.Adopt(ctx, name)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fmt.Fprintf(c.done(), "%s has no values saved for an earlier install\n", name)
		return nil
	}
	fmt.Fprintf(c.done(), "adopted %s for the current install of %s\n", strings.Join(names, ", "), name)
	return nil
}

func secretsRotate(ctx context.Context, c *cli, v *secrets.Vault) error {
	kr, err := secrets.KeyringFromEnv(c.getenv)
	if err != nil {
		return err
	}
	stats, err := v.Rotate(ctx, kr)
	were := "were"
	if stats.Unchanged == 1 {
		were = "was"
	}
	fmt.Fprintf(c.done(), "resealed %s under key %#08x; %d %s already under it; %d could not be opened\n",
		plural(stats.Resealed, "value"), kr.Primary().ID(), stats.Unchanged, were, stats.Failed)
	if err != nil && stats.Failed > 0 && c.getenv(secrets.EnvPreviousKey) == "" {
		return fmt.Errorf("%w\n(set %s to the old secret so the old values open)", err, secrets.EnvPreviousKey)
	}
	return err
}

func secretsImport(ctx context.Context, c *cli, o *secretsOptions, kit *skillkit.Kit, name, blob string) error {
	if blob == "-" {
		data, err := io.ReadAll(io.LimitReader(c.stdin, secrets.MaxLegacyBlobLen+2))
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		blob = string(data)
	}
	key, err := secrets.LegacyKeyFromEnv(c.getenv)
	if o.legacyEnv != "" {
		if c.getenv(o.legacyEnv) == "" {
			return fmt.Errorf("%s is not set", o.legacyEnv)
		}
		key, err = secrets.NewLegacyKey([]byte(c.getenv(o.legacyEnv)))
	}
	if err != nil {
		return err
	}
	if err := needInstalled(ctx, kit, name); err != nil {
		return err
	}
	names, err := kit.Vault().ImportLegacy(ctx, name, blob, key)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.done(), "imported %s for %s: %s\n", plural(len(names), "value"), name, strings.Join(names, ", "))
	return nil
}
