// Package secrets keeps the secrets of skills (API keys and the like)
// encrypted at rest and hands each skill only its own, as environment
// variables.
//
// # Contract
//
//   - A [Vault] seals values with a [Keyring] before they reach a [Store];
//     a Store holds sealed bytes only. [FSStore] keeps them in
//     <skills dir>/.skillhub/secrets/<skill>/<VARIABLE>.sealed (files 0600,
//     folders 0700, atomic replace); [MemStore] in memory. Both pass
//     secretstest.TestStore and implement [CompareAndSwapper], the optional
//     conditional write that Rotate and Adopt use.
//   - A value belongs to one install of a skill. The vault learns the
//     current install id of a skill from [Options].InstallID (the
//     registry's record; "" for a skill without one), seals each value for
//     it, and opens a value only for the install it was sealed for. A value
//     saved for another install (the skill was uninstalled with its secrets
//     kept, and another skill took its name) is stale: [Vault.Configured]
//     reports it (EnvStatus.Stale), [Vault.ResolveEnv] leaves it out, and
//     only [Vault.Adopt], a person's decision, binds it to the current
//     install.
//   - [Vault.Save] seals and stores values; [Vault.Delete] and
//     [Vault.DeleteSkill] remove them; [Vault.Configured] says for each
//     declared variable whether it has a value and a default, never what
//     the value is. [Vault.ResolveEnv] is the only way back to plaintext: the
//     schema's defaults overlaid with the skill's saved values, for the
//     process that runs the skill.
//   - Variable names must pass [skill.ValidateEnvName]: they match
//     ^[A-Za-z_][A-Za-z0-9_]*$ and are not one of the names that change how
//     programs load code or which programs they start, or where their
//     traffic goes (LD_*, DYLD_*, NODE_OPTIONS, PYTHONPATH, BASH_ENV, PATH,
//     HOME, XDG_*, GIT_*, EDITOR, the proxy variables, ...). Two names of
//     one skill may not differ only in case. Skill names must pass
//     [skill.ValidateKey].
//   - A plaintext value never appears in an error, a log line, a panic, a
//     file, or the %v, %+v, %#v or slog form of any type of this package:
//     [Key], [Keyring], [LegacyKey] and [Vault] print key ids at most.
//     Errors and audit lines name skills and variables only.
//   - [Vault.EnvChecker] reports ENV_NOT_CONFIGURED (warning) for a required
//     variable with no saved value and no default; it satisfies the loader's
//     Checker interface.
//
// # Keys
//
// A [Key] is an AES-256-GCM key with a 32-bit id derived from the key
// (HKDF-SHA256, info "skillkit/secrets v1 key id"), so a secret always
// gives the same id and no key list is stored. [NewKey] takes 32 raw bytes;
// [DeriveKey] derives them from a secret of at least 16 bytes with
// HKDF-SHA256, empty salt, info [DeriveLabel]. [KeyringFromEnv] derives the
// primary key from SKILL_SECRET_KEY, or APP_SECRET when that is unset or
// empty, and adds SKILL_SECRET_KEY_PREVIOUS as a key that opens but never
// seals. A Vault without [Options].Keyring reads the
// environment on first use; with no secret set that use fails with
// [ErrNoKey]. Nothing is read when the package is imported.
//
// # Sealed format (version 2)
//
//	offset  length  field
//	0       1       version, 0x02
//	1       4       key id, big-endian
//	5       1       L, the length of the install id (0 to 64)
//	6       L       install id, ASCII letters, digits, '-', '_', '.'
//	6+L     12      nonce, random
//	18+L    n       AES-256-GCM ciphertext of the n-byte value
//	18+L+n  16      GCM tag
//
// The additional authenticated data is the header (version, key id and
// install id) followed by uint32be(len(skill)) || skill ||
// uint32be(len(variable)) || variable, so a value copied to another skill or
// variable, or given another key id or install id, does not open. The
// header is readable without the key ([ReadHeader]), so the vault can tell
// stale values apart and re-bind them; it is authenticated only when the
// value opens. Opening picks the key by id; every failure (unknown version
// or key id, wrong key, another install, any changed or missing byte,
// other names) wraps [ErrCannotOpen], which says nothing about the
// plaintext.
//
// Version 1, written before install ids, is the same without the length
// byte and the install id (a 5-byte header). Such values still open, for
// a skill without an install id only: installs made before the change keep
// their secrets, and a new install never receives them. [Vault.Rotate]
// rewrites them in version 2, still bound to no install id.
//
// # Rotation
//
// [Vault.Rotate] opens every value with the current keyring and the new one
// and seals it again under the new primary key, for the same install, one
// value at a time, each replaced atomically. A value already under the new
// primary is skipped, so a rotation cut short by a crash is finished by
// running it again; between the two runs a Vault given both keys opens
// every value. On a store with [CompareAndSwapper] each value is replaced
// only if it still holds what Rotate read, so other processes (other
// replicas) may save while it runs: their values are never overwritten by
// the re-seal of an older value. With keys from the
// environment: set SKILL_SECRET_KEY to the new secret and
// SKILL_SECRET_KEY_PREVIOUS to the old one, run "skillkit secrets rotate",
// then remove SKILL_SECRET_KEY_PREVIOUS. If every key is lost, the values
// cannot be recovered; save them again.
//
// # The legacy format
//
// [Vault.ImportLegacy] reads values saved in the legacy format, one
// encrypted JSON object per skill: base64(IV 16 bytes ||
// ciphertext || tag 16 bytes), AES-256-GCM under sha256(secret) where the
// secret is process.env.SKILL_SECRET_KEY || process.env.APP_SECRET (the
// first one set and not empty; [LegacyKeyFromEnv]), over JSON.stringify of
// an object of string values. Each value is saved in the sealed format
// above; the blob itself is not kept.
//
// # Limits
//
//   - A value is at most [MaxValueLen] bytes and holds no NUL byte; a skill
//     or variable name at most [MaxNameLen] bytes; a legacy blob at most
//     [MaxLegacyBlobLen] characters.
//   - Nonces are random: a key must not seal more than 2^32 values, far more
//     than any skills folder needs. Rotate long before.
//   - HKDF does not slow down guessing: SKILL_SECRET_KEY must be random
//     (e.g. openssl rand -base64 32), not a password.
//   - Values live in memory as Go strings while a process uses them and
//     cannot be wiped.
//   - Several processes may share a store. On a store without
//     [CompareAndSwapper] (a third-party one), Rotate and Adopt must not run
//     while another process saves values. A process that still seals with
//     the old key after a rotation leaves values under it: give every
//     process the new key, then rotate once more.
//   - Without [Options].InstallID every skill's install id is "": values
//     are bound to skill names alone, and a skill that takes the name of
//     one uninstalled with its secrets kept receives them.
//   - Secrets from a legacy secret that is not valid UTF-8 may not open
//     (Node.js decodes the environment as UTF-8 first).
package secrets
