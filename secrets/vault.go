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

	"github.com/skillkit-go/skillkit/internal/installid"
	"github.com/skillkit-go/skillkit/internal/pkgerr"
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
	// adopt, import) with skill and variable names, never values. Nil: no
	// lines.
	Logger *slog.Logger
	// InstallID returns the install id of a skill (the registry record's
	// InstallID; registry.InstallIDFunc reads it from a registry store), or
	// "" for a skill without one. Values are sealed for the current
	// install and open only for it. Nil: every skill's install id is "",
	// so values are bound to the skill's name alone, as for a vault used
	// without a registry.
	InstallID func(ctx context.Context, skill string) (string, error)
}

// Vault saves, lists and resolves the secrets of skills. It seals values
// with its [Keyring] before they reach its [Store] and never returns a value
// except from [Vault.ResolveEnv], for the process that runs the skill. A
// Vault is safe for concurrent use; printing or logging it shows no key
// material.
type Vault struct {
	store     Store
	getenv    func(string) string
	log       *slog.Logger
	installID func(ctx context.Context, skill string) (string, error)

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
	v := &Vault{store: store, getenv: opts.Getenv, log: opts.Logger, kr: opts.Keyring, installID: opts.InstallID}
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

// currentInstall returns the install id values of the skill are sealed for.
func (v *Vault) currentInstall(ctx context.Context, skillName string) (string, error) {
	if v.installID == nil {
		return "", nil
	}
	id, err := v.installID(ctx, skillName)
	if err != nil {
		return "", pkgerr.Wrap("secrets", err, "the install id of skill %s", skillName)
	}
	if err := installid.Validate(id); err != nil {
		return "", fmt.Errorf("secrets: the install id of skill %s: %w", skillName, err)
	}
	return id, nil
}

func (v *Vault) setKeyring(kr *Keyring) {
	v.krMu.Lock()
	v.kr = kr
	v.krMu.Unlock()
}

// Save seals and stores values (variable name → value) for the current
// install of a skill, replacing saved values of the same names and keeping
// the others. Every
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
	install, err := v.currentInstall(ctx, skillName)
	if err != nil {
		return err
	}
	kr, err := v.keyring()
	if err != nil {
		return err
	}
	for i, name := range names {
		sealed, err := kr.Seal(Binding{Skill: skillName, Install: install, Variable: name}, []byte(values[name]))
		if err == nil {
			err = v.store.Put(ctx, skillName, name, sealed)
		}
		if err != nil {
			if i > 0 {
				v.log.InfoContext(ctx, "secrets saved", "skill", skillName, "keys", names[:i], "key_id", kr.primary.id, "install_id", install)
			}
			return pkgerr.Wrap("secrets", err, "saving %s of skill %s", name, skillName)
		}
	}
	v.log.InfoContext(ctx, "secrets saved", "skill", skillName, "keys", names, "key_id", kr.primary.id, "install_id", install)
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
	Declared bool `json:"declared"`
	// HasValue: a value is saved for the skill's current install.
	HasValue   bool `json:"has_value"`
	HasDefault bool `json:"has_default"`
	// Stale: the saved value was saved for an earlier install of a skill
	// of this name ("saved for an earlier install"). It is not injected;
	// [Vault.Adopt] binds it to the current install.
	Stale bool `json:"stale"`
	// OtherKey: the saved value was sealed under a key the vault's keyring
	// does not hold (SKILL_SECRET_KEY changed): it cannot be opened until
	// the old secret is given as SKILL_SECRET_KEY_PREVIOUS, and [Vault.Rotate]
	// reseals it. Reported only when a key is configured.
	OtherKey bool `json:"other_key,omitempty"`
	// Damaged: the value saved for the current install does not open with
	// the key it names (or its header cannot be read): its bytes were
	// changed. A run of the skill would fail (ErrCannotOpen); save it
	// again. Reported only when the keyring holds that key.
	Damaged bool `json:"damaged,omitempty"`
}

// savedValue is one stored value of a skill as read, with its header (or
// the error that kept it from being read).
type savedValue struct {
	name      string
	sealed    []byte
	header    Header
	headerErr error
}

// current reports whether the value was sealed for install. A value whose
// header cannot be read counts as current, so that ResolveEnv reports it
// instead of leaving it out.
func (sv savedValue) current(install string) bool {
	return sv.headerErr != nil || sv.header.InstallID == install
}

// savedFor returns the current install id of a skill and every value
// saved for it, in name order.
func (v *Vault) savedFor(ctx context.Context, skillName string) (string, []savedValue, error) {
	install, err := v.currentInstall(ctx, skillName)
	if err != nil {
		return "", nil, err
	}
	saved, err := v.readSaved(ctx, skillName)
	return install, saved, err
}

// readSaved reads every saved value of a skill, in name order.
func (v *Vault) readSaved(ctx context.Context, skillName string) ([]savedValue, error) {
	keys, err := v.store.Keys(ctx, skillName)
	if err != nil {
		return nil, err
	}
	out := make([]savedValue, 0, len(keys))
	for _, name := range keys {
		sealed, err := v.store.Get(ctx, skillName, name)
		if errors.Is(err, ErrNotFound) {
			continue // deleted since Keys
		}
		if err != nil {
			return nil, err
		}
		h, herr := ReadHeader(sealed)
		out = append(out, savedValue{name: name, sealed: sealed, header: h, headerErr: herr})
	}
	return out, nil
}

// Configured returns, for each variable of schema in order, whether it has a
// value saved for the skill's current install, a default, or only a stale
// value saved for an earlier install; followed by the saved values the
// schema does not declare, sorted. With a key configured it also tells
// values sealed under a key the keyring does not hold (OtherKey) and values
// that do not open (Damaged: it opens each, and keeps no plaintext). It
// needs no key: without one it reads names and the unencrypted headers of
// values.
func (v *Vault) Configured(ctx context.Context, skillName string, schema []skill.EnvVar) ([]EnvStatus, error) {
	install, saved, err := v.savedFor(ctx, skillName)
	if err != nil {
		return nil, err
	}
	// Without a key nothing tells a foreign key from ours; the list still
	// works, it needs no key.
	kr, _ := v.keyring()
	current, stale, otherKey, damaged := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, sv := range saved {
		if sv.current(install) {
			current[sv.name] = true
		} else {
			stale[sv.name] = true
		}
		otherKey[sv.name] = kr != nil && sv.headerErr == nil && !kr.Has(sv.header.KeyID)
		if kr != nil && current[sv.name] && !otherKey[sv.name] {
			_, err := kr.Open(Binding{Skill: skillName, Install: install, Variable: sv.name}, sv.sealed)
			damaged[sv.name] = err != nil
		}
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
			HasValue: current[ev.Name], HasDefault: ev.Default != nil, Stale: stale[ev.Name], OtherKey: otherKey[ev.Name],
			Damaged: damaged[ev.Name],
		})
	}
	for _, sv := range saved {
		if !declared[sv.name] {
			out = append(out, EnvStatus{Name: sv.name, HasValue: current[sv.name], Stale: stale[sv.name], OtherKey: otherKey[sv.name],
				Damaged: damaged[sv.name]})
		}
	}
	return out, nil
}

// ResolveEnv returns the environment of a skill: the defaults of schema
// overlaid with every value saved for the skill's current install, declared
// or not. Values saved for another install (stale) are left out, never
// opened. A required variable with no value and no default is left out, not
// an error ([EnvChecker] reports it). A name in schema that
// [skill.ValidateEnvName] refuses is an error, and so is a value saved for
// the current install that does not open (wrapping [ErrCannotOpen]). The
// key is needed only when the skill has such values.
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
	install, saved, err := v.savedFor(ctx, skillName)
	if err != nil {
		return nil, err
	}
	var kr *Keyring
	for _, sv := range saved {
		if !sv.current(install) {
			continue
		}
		if kr == nil {
			if kr, err = v.keyring(); err != nil {
				return nil, err
			}
		}
		plain, err := kr.Open(Binding{Skill: skillName, Install: install, Variable: sv.name}, sv.sealed)
		if err != nil {
			return nil, pkgerr.Wrap("secrets", err, "%s of skill %s", sv.name, skillName)
		}
		env[sv.name] = string(plain)
	}
	return env, nil
}

// Adopt binds the values of a skill that were saved for an earlier install
// (EnvStatus.Stale) to its current install, so that ResolveEnv injects them
// again, and returns their names, sorted. It is meant for a person who
// knows the new install is the same program as the old one (for example
// after reinstalling it from another source): a skill never adopts values
// by itself. Values saved for the current install are left alone; so is a
// value that another writer replaces while Adopt works on it (on a store
// with [CompareAndSwapper]). A stale value that does not open is an error
// wrapping [ErrCannotOpen] and stays as it was.
func (v *Vault) Adopt(ctx context.Context, skillName string) ([]string, error) {
	if err := skill.ValidateKey(skillName); err != nil {
		return nil, err
	}
	v.rotating.RLock()
	defer v.rotating.RUnlock()
	install, saved, err := v.savedFor(ctx, skillName)
	if err != nil {
		return nil, err
	}
	var adopted []string
	defer func() {
		if len(adopted) > 0 {
			v.log.InfoContext(ctx, "secrets adopted", "skill", skillName, "keys", adopted, "install_id", install)
		}
	}()
	for _, sv := range saved {
		if sv.current(install) {
			continue
		}
		kr, err := v.keyring()
		if err != nil {
			return adopted, err
		}
		to := Binding{Skill: skillName, Install: install, Variable: sv.name}
		changed, err := v.reseal(ctx, to, sv.sealed, func(h Header, sealed []byte) ([]byte, error) {
			if h.InstallID == install {
				return nil, nil // saved for this install meanwhile
			}
			plain, err := kr.Open(Binding{Skill: skillName, Install: h.InstallID, Variable: sv.name}, sealed)
			if err != nil {
				return nil, err
			}
			return kr.Seal(to, plain)
		})
		if err != nil {
			return adopted, pkgerr.Wrap("secrets", err, "adopting %s of skill %s", sv.name, skillName)
		}
		if changed {
			adopted = append(adopted, sv.name)
		}
	}
	return adopted, nil
}

// maxResealAttempts bounds how often reseal reads a value again after a
// conflicting write.
const maxResealAttempts = 100

// reseal replaces the stored value of b (read as sealed) with what remake
// makes of it; remake returns nil when the value needs no change. On a store
// with [CompareAndSwapper] the write takes effect only if the store still
// holds sealed; when another writer replaced it meanwhile, reseal reads the
// new value and remakes that, so a concurrent write is never overwritten by
// a re-seal of the value it replaced. A value deleted meanwhile stays
// deleted. It reports whether it wrote.
func (v *Vault) reseal(ctx context.Context, b Binding, sealed []byte, remake func(Header, []byte) ([]byte, error)) (bool, error) {
	cas, _ := v.store.(CompareAndSwapper)
	for range maxResealAttempts {
		h, err := ReadHeader(sealed)
		if err != nil {
			return false, err
		}
		next, err := remake(h, sealed)
		if err != nil || next == nil {
			return false, err
		}
		if cas == nil {
			return true, v.store.Put(ctx, b.Skill, b.Variable, next)
		}
		err = cas.CompareAndSwap(ctx, b.Skill, b.Variable, sealed, next)
		if !errors.Is(err, ErrConflict) {
			return err == nil, err
		}
		sealed, err = v.store.Get(ctx, b.Skill, b.Variable)
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
	return false, fmt.Errorf("%w: gave up after %d attempts", ErrConflict, maxResealAttempts)
}

// RotateStats counts what [Vault.Rotate] did.
type RotateStats struct {
	Resealed  int // values sealed again under the new primary key
	Unchanged int // values already sealed under the new primary key
	Failed    int // values that could not be opened, left as they were
}

// Rotate seals every saved value again under the primary key of next, for
// the install it was sealed for, and then uses next. Values already sealed
// under that key in the current format are left alone, so a rotation cut
// short (a crash, a cancelled context, a failing store) is finished by
// calling Rotate again with the same keyring; until then the vault opens
// values with the keys of both keyrings. Values are opened with the
// current keyring (the old key, and SKILL_SECRET_KEY_PREVIOUS when it came
// from the environment) and with next. Values of format version 1 are
// written in the current format, bound to no install id as before. A value
// no key opens is counted as Failed, left as it was, and named in the
// returned error; the others are still rotated.
//
// Rotate waits for other calls on this Vault and holds them off while it
// runs. Other processes (other replicas) may save meanwhile: on a store
// with [CompareAndSwapper] each value is replaced only if it still holds
// what Rotate read, so a value saved meanwhile is never overwritten by the
// re-seal of the value it replaced; it is re-sealed in turn, or left alone
// when it is already under the new key. A process that still seals with the
// old key after Rotate returns leaves values under it: give every process
// the new key, then run Rotate once more. On a store without
// CompareAndSwapper, other processes must not save while Rotate runs.
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
		saved, err := v.readSaved(ctx, skillName)
		if err != nil {
			return err
		}
		for _, sv := range saved {
			b := Binding{Skill: skillName, Variable: sv.name}
			changed, err := v.reseal(ctx, b, sv.sealed, func(h Header, sealed []byte) ([]byte, error) {
				if h.Version == FormatVersion && h.KeyID == next.primary.id {
					return nil, nil
				}
				b.Install = h.InstallID
				plain, err := opener.Open(b, sealed)
				if err != nil {
					return nil, err
				}
				return next.Seal(b, plain)
			})
			switch {
			case errors.Is(err, ErrCannotOpen):
				stats.Failed++
				*failed = append(*failed, pkgerr.Wrap("secrets", err, "rotate %s of skill %s", sv.name, skillName))
			case err != nil:
				return pkgerr.Wrap("secrets", err, "rotate %s of skill %s", sv.name, skillName)
			case changed:
				stats.Resealed++
			default:
				stats.Unchanged++
			}
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
