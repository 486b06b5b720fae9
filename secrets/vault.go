package secrets

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/skill"
)

// Options configure a [Vault]. A nil *Options or a zero field means the
// default given with each field.
type Options struct {
	// Keyring seals and opens values. Nil: built by [KeyringFromEnv] with
	// Getenv on first use, so a missing key is an error wrapping [ErrNoKey]
	// when a value is first sealed or opened, never earlier.
	Keyring *Keyring
	// Getenv reads the environment for the keyring. Nil: os.Getenv.
	Getenv func(string) string
	// Logger receives one audit line per change (save, delete, rotate,
	// import) with skill and variable names, never values. Nil: no lines.
	Logger *slog.Logger
}

// Vault saves, lists and resolves the secrets of skills. It seals values
// with its [Keyring] before they reach its [Store] and never returns a value
// except from [Vault.ResolveEnv], for the process that runs the skill. A
// Vault is safe for concurrent use; printing or logging it shows no key
// material.
type Vault struct {
	store  Store
	getenv func(string) string
	log    *slog.Logger

	// rotating is held for writing by Rotate and for reading by every other
	// use of keys, so no value is sealed under a key Rotate has passed.
	rotating sync.RWMutex
	krMu     sync.Mutex
	kr       *Keyring
}

// NewVault returns a vault over store. A nil store is a fresh [MemStore],
// whose values last as long as the Vault.
func NewVault(store Store, opts *Options) *Vault {
	if opts == nil {
		opts = &Options{}
	}
	if store == nil {
		store = &MemStore{}
	}
	v := &Vault{store: store, getenv: opts.Getenv, log: opts.Logger, kr: opts.Keyring}
	if v.getenv == nil {
		v.getenv = os.Getenv
	}
	if v.log == nil {
		v.log = slog.New(slog.DiscardHandler)
	}
	return v
}

// Store returns the vault's store.
func (v *Vault) Store() Store { return v.store }

// keyring returns the keyring, building it from the environment the first
// time. A failure is not remembered: setting the variable and trying again
// works.
func (v *Vault) keyring() (*Keyring, error) {
	v.krMu.Lock()
	defer v.krMu.Unlock()
	if v.kr == nil {
		kr, err := KeyringFromEnv(v.getenv)
		if err != nil {
			return nil, err
		}
		v.kr = kr
	}
	return v.kr, nil
}

func (v *Vault) setKeyring(kr *Keyring) {
	v.krMu.Lock()
	v.kr = kr
	v.krMu.Unlock()
}

// Save seals and stores values (variable name → value) for a skill,
// replacing saved values of the same names and keeping the others. Every
// name and value is checked before anything is written: names must pass
// [skill.ValidateEnvName] and differ from each other and from the names
// already saved by more than letter case; values must be at most
// [MaxValueLen] bytes without a NUL byte (the empty string is a value).
// Values are written one by one in name order; a failure part-way leaves
// the earlier ones saved. Errors name variables, never values.
func (v *Vault) Save(ctx context.Context, skillName string, values map[string]string) error {
	if err := skill.ValidateKey(skillName); err != nil {
		return err
	}
	names := slices.Sorted(maps.Keys(values))
	for i, name := range names {
		if err := validateKeyName(name); err != nil {
			return err
		}
		if err := checkValue(name, values[name]); err != nil {
			return err
		}
		for _, other := range names[:i] {
			if strings.EqualFold(name, other) {
				return fmt.Errorf("secrets: %s and %s differ only in case", other, name)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	v.rotating.RLock()
	defer v.rotating.RUnlock()
	saved, err := v.store.Keys(ctx, skillName)
	if err != nil {
		return err
	}
	for _, name := range names {
		for _, old := range saved {
			if old != name && strings.EqualFold(old, name) {
				return fmt.Errorf("secrets: %s differs only in case from the saved %s of skill %s; delete %s first", name, old, skillName, old)
			}
		}
	}
	kr, err := v.keyring()
	if err != nil {
		return err
	}
	for i, name := range names {
		sealed, err := kr.Seal(skillName, name, []byte(values[name]))
		if err == nil {
			err = v.store.Put(ctx, skillName, name, sealed)
		}
		if err != nil {
			if i > 0 {
				v.log.InfoContext(ctx, "secrets saved", "skill", skillName, "keys", names[:i], "key_id", kr.primary.id)
			}
			return fmt.Errorf("secrets: saving %s of skill %s: %w", name, skillName, err)
		}
	}
	v.log.InfoContext(ctx, "secrets saved", "skill", skillName, "keys", names, "key_id", kr.primary.id)
	return nil
}

// checkValue refuses a value the environment of a process cannot hold.
func checkValue(name, value string) error {
	if len(value) > MaxValueLen {
		return fmt.Errorf("%w: the value of %s is %d bytes, over the limit of %d", ErrValueTooLong, name, len(value), MaxValueLen)
	}
	if strings.IndexByte(value, 0) >= 0 {
		return fmt.Errorf("secrets: the value of %s contains a NUL byte, which no environment variable can hold", name)
	}
	return nil
}

// Delete removes the named values of a skill. A name without a saved value
// is not an error; no names is nothing to do.
func (v *Vault) Delete(ctx context.Context, skillName string, names ...string) error {
	if err := skill.ValidateKey(skillName); err != nil {
		return err
	}
	for _, name := range names {
		if err := validateKeyName(name); err != nil {
			return err
		}
	}
	var deleted []string
	for _, name := range names {
		err := v.store.Delete(ctx, skillName, name)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			v.logDeleted(ctx, skillName, deleted)
			return err
		}
		deleted = append(deleted, name)
	}
	v.logDeleted(ctx, skillName, deleted)
	return nil
}

// DeleteSkill removes every value of a skill, as when it is uninstalled.
func (v *Vault) DeleteSkill(ctx context.Context, skillName string) error {
	keys, err := v.store.Keys(ctx, skillName)
	if err != nil {
		return err
	}
	return v.Delete(ctx, skillName, keys...)
}

func (v *Vault) logDeleted(ctx context.Context, skillName string, names []string) {
	if len(names) > 0 {
		v.log.InfoContext(ctx, "secrets deleted", "skill", skillName, "keys", names)
	}
}

// EnvStatus says whether a variable of a skill is configured. It never holds
// a value.
type EnvStatus struct {
	Name        string `json:"name"`
	Required    bool   `json:"required"`
	Description string `json:"description,omitempty"`
	// Declared is false for a saved value the skill's schema does not
	// declare (it is still injected by ResolveEnv).
	Declared   bool `json:"declared"`
	HasValue   bool `json:"hasValue"`
	HasDefault bool `json:"hasDefault"`
}

// Configured returns, for each variable of schema in order, whether it has a
// saved value and a default, followed by the saved values the schema does
// not declare, sorted. It needs no key: it only lists names.
func (v *Vault) Configured(ctx context.Context, skillName string, schema []skill.EnvVar) ([]EnvStatus, error) {
	saved, err := v.store.Keys(ctx, skillName)
	if err != nil {
		return nil, err
	}
	out := make([]EnvStatus, 0, len(schema)+len(saved))
	declared := map[string]bool{}
	for _, ev := range schema {
		if declared[ev.Name] {
			continue
		}
		declared[ev.Name] = true
		out = append(out, EnvStatus{
			Name: ev.Name, Required: ev.Required, Description: ev.Description, Declared: true,
			HasValue: slices.Contains(saved, ev.Name), HasDefault: ev.Default != nil,
		})
	}
	for _, name := range saved {
		if !declared[name] {
			out = append(out, EnvStatus{Name: name, HasValue: true})
		}
	}
	return out, nil
}

// ResolveEnv returns the environment of a skill: the defaults of schema
// overlaid with every saved value of the skill, declared or not. A required
// variable with neither is left out, not an error ([EnvChecker] reports it).
// A name in schema that [skill.ValidateEnvName] refuses is an error, and so
// is a saved value that does not open (wrapping [ErrCannotOpen]). The key is
// needed only when the skill has saved values.
func (v *Vault) ResolveEnv(ctx context.Context, skillName string, schema []skill.EnvVar) (map[string]string, error) {
	if err := skill.ValidateKey(skillName); err != nil {
		return nil, err
	}
	env := make(map[string]string, len(schema))
	for _, ev := range schema {
		if err := validateKeyName(ev.Name); err != nil {
			return nil, fmt.Errorf("secrets: skill %s declares %w", skillName, err)
		}
		if ev.Default != nil {
			env[ev.Name] = *ev.Default
		}
	}
	v.rotating.RLock()
	defer v.rotating.RUnlock()
	keys, err := v.store.Keys(ctx, skillName)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return env, nil
	}
	kr, err := v.keyring()
	if err != nil {
		return nil, err
	}
	for _, name := range keys {
		sealed, err := v.store.Get(ctx, skillName, name)
		if errors.Is(err, ErrNotFound) {
			continue // deleted since Keys
		}
		if err != nil {
			return nil, err
		}
		plain, err := kr.Open(skillName, name, sealed)
		if err != nil {
			return nil, fmt.Errorf("secrets: %s of skill %s: %w", name, skillName, err)
		}
		env[name] = string(plain)
	}
	return env, nil
}

// RotateStats counts what [Vault.Rotate] did.
type RotateStats struct {
	Resealed  int // values sealed again under the new primary key
	Unchanged int // values already sealed under the new primary key
	Failed    int // values that could not be opened, left as they were
}

// Rotate seals every saved value again under the primary key of next, and
// then uses next. Values already sealed under that key are left alone, so a
// rotation cut short (a crash, a cancelled context, a failing store) is
// finished by calling Rotate again with the same keyring; until then the
// vault opens values with the keys of both keyrings. Values are opened with
// the current keyring (the old key, and SKILL_SECRET_KEY_PREVIOUS when it
// came from the environment) and with next. A value no key opens is counted
// as Failed, left as it was, and named in the returned error; the others are
// still rotated. Rotate waits for other calls on this Vault and holds them
// off while it runs; other processes must not write to the store meanwhile.
func (v *Vault) Rotate(ctx context.Context, next *Keyring) (RotateStats, error) {
	var stats RotateStats
	if next == nil {
		return stats, fmt.Errorf("%w: Rotate needs a keyring", ErrInvalidKey)
	}
	v.rotating.Lock()
	defer v.rotating.Unlock()
	opener := next
	current, err := v.keyring()
	switch {
	case err == nil:
		opener = next.with(current)
	case !errors.Is(err, ErrNoKey):
		return stats, err
	}
	// From here on values may be under either keyring's keys.
	v.setKeyring(opener)
	var failed []error
	err = v.rotateAll(ctx, next, opener, &stats, &failed)
	v.log.InfoContext(ctx, "secrets rotated", "key_id", next.primary.id,
		"resealed", stats.Resealed, "unchanged", stats.Unchanged, "failed", stats.Failed, "complete", err == nil && len(failed) == 0)
	if err != nil {
		return stats, err
	}
	if len(failed) > 0 {
		return stats, errors.Join(failed...)
	}
	v.setKeyring(next)
	return stats, nil
}

func (v *Vault) rotateAll(ctx context.Context, next, opener *Keyring, stats *RotateStats, failed *[]error) error {
	skills, err := v.store.Skills(ctx)
	if err != nil {
		return err
	}
	for _, skillName := range skills {
		keys, err := v.store.Keys(ctx, skillName)
		if err != nil {
			return err
		}
		for _, name := range keys {
			sealed, err := v.store.Get(ctx, skillName, name)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if id, err := SealedKeyID(sealed); err == nil && id == next.primary.id {
				stats.Unchanged++
				continue
			}
			plain, err := opener.Open(skillName, name, sealed)
			if err != nil {
				stats.Failed++
				*failed = append(*failed, fmt.Errorf("secrets: rotate %s of skill %s: %w", name, skillName, err))
				continue
			}
			resealed, err := next.Seal(skillName, name, plain)
			if err == nil {
				err = v.store.Put(ctx, skillName, name, resealed)
			}
			if err != nil {
				return fmt.Errorf("secrets: rotate %s of skill %s: %w", name, skillName, err)
			}
			stats.Resealed++
		}
	}
	return nil
}

// String describes the vault without key material.
func (v *Vault) String() string {
	if v == nil {
		return "secrets.Vault(nil)"
	}
	return fmt.Sprintf("secrets.Vault(store=%T)", v.store)
}

// GoString is String.
func (v *Vault) GoString() string { return v.String() }

// Format prints String for every verb.
func (v *Vault) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(v.String())) }

// LogValue logs String.
func (v *Vault) LogValue() slog.Value { return slog.StringValue(v.String()) }
