// Package registry records what is installed: one [Record] per skill with
// where it came from (source, URL, ref, commit, subfolder), its content
// [Fingerprint] at install time, when it was installed and updated, and
// whether it is enabled and pinned.
//
// # Stores
//
// A [Store] keeps records by skill name. Get and Delete wrap [ErrNotFound]
// for a name with no record; Put replaces the whole record; List returns
// every record sorted by name (byte order). Names must be valid skill names
// ([skill.ValidateKey]); Put wraps [ErrInvalidRecord] otherwise. Stores are
// safe for concurrent use. Every error message starts with "registry: "
// once, except errors passed up from another package (a context's error).
//
// A store may also implement [CompareAndSwapper]: a Put or Delete that
// takes effect only when the stored record is still the one the caller read
// ([Record.Equal]), and otherwise wraps [ErrConflict]. [Update] uses it to
// read, change and write a record without losing a concurrent writer's
// change, retrying on conflict; on a store without it the last writer wins.
// Every store of this module implements it.
//
// [MemStore] keeps records in memory; its zero value is ready. [FSStore] keeps them in a
// skills folder's .skillhub/: lock.json and one origin file per skill, in
// the camelCase layout other tools write there too, plus skillkit's fields:
//
//	.skillhub/lock.json          {"version":1,"skills":{"<name>":{"version","fingerprint","installedAt","updatedAt","enabled","pinned","installId","signer"}}}
//	.skillhub/origins/<name>.json {"version":1,"source","url","branch","commitHash","installedAt","subdir"}
//
// lock.json says what is installed: a record exists when lock.json has an
// entry for it. The origin file adds where it came from; "branch" holds
// [Record.Ref] (a branch or a tag). A lock entry without "enabled" (as
// other tools write them) is enabled. Unknown fields of the lock entries that a Put
// does not replace are kept as they were. Files are written atomically
// (temporary file, fsync, rename, fsync of the folder), and writers in every
// process serialize on .skillhub/.lock (flock on unix, LockFileEx on
// Windows); readers take the same lock shared, so a Get never sees a record
// half written across its two files. The files are limited to
// [MaxFileBytes]; a file that cannot be decoded, or has a version other than
// 1, is an error wrapping [ErrCorrupt] and is never overwritten.
// CompareAndSwap compares and writes under the exclusive lock, so it is
// atomic across processes.
//
// registrytest.TestStore is the conformance suite every Store passes; each
// of its cases is also a function of its own. registrytest.FailingStore
// wraps a store and fails chosen calls, before or after their write.
//
// # Packages and replicas
//
// Replicas of a host that share a registry also share the files of what
// is installed: a [PackageStore] keeps one archive per fingerprint
// (ValidateFingerprint checks the key), stored once, returned up to the
// size the caller accepts ([ErrPackageTooLarge]); it does not look inside
// what it keeps, so whoever reads an archive checks it against its
// fingerprint (skillkit's Sync does). A store may also be a
// [ReplicaStore], which keeps each [Replica]'s last sync: what it holds
// and what failed. [MemPackages] is both, in memory; its zero value is
// ready. registrytest.TestPackages is their conformance suite.
//
// # Install ids
//
// [Record.InstallID] names one install of a skill. Secrets are sealed for
// it (see the secrets package), so that a skill that later takes the same
// name, installed from elsewhere or written by an agent, never receives the
// secrets of the one before. The rule for whoever writes records:
//
//   - A fresh install (no record for the name), a skill written fresh by an
//     agent, and a reinstall from another origin (another source, URL or
//     folder) get a new id from [NewInstallID].
//   - An update, a reinstall from the same origin, enabling, disabling and
//     pinning keep the id of the record they replace.
//   - Records written before install ids existed have none, and so do
//     hand-placed skills without a record; secrets saved for them are bound
//     to "no install id" and keep opening for them.
//
// [InstallIDFunc] reads the current id of a skill from a Store, as the
// secrets vault needs it.
//
// # Fingerprints
//
// [Fingerprint] hashes a skill folder: "sha256:" and the hex SHA-256 over
// every file's relative slash path, its kind (file, executable file or
// symbolic link) and its bytes, in byte order of the paths. .venv,
// node_modules, .git, __pycache__ and .skillhub folders are skipped at any
// depth ([skill.InfraDirs]). Symbolic links are not followed: a link counts
// as its target text. Other kinds (sockets, devices) are skipped. The same
// tree gives the same fingerprint on every OS, with two caveats: Windows file
// systems have no executable bit, so an executable file hashes as a plain one
// there; and bytes are hashed as stored, so a checkout that rewrites line ends
// changes the fingerprint.
//
// [FingerprintChecker] compares a loaded skill with its recorded fingerprint
// and reports FINGERPRINT_CHANGED (info) when they differ. It implements the
// loader's Checker interface.
//
// # Approval
//
// A record's fingerprint is what a person or the trust policy approved.
// [Verifier] checks, before a skill's code runs or its secrets are handed
// out, that its files still have it, hashing only the files whose stat
// changed since the last check it proved, and refuses with a
// [*ModifiedError] (SKILL_MODIFIED) naming the files changed, added or
// removed.
//
// # Fleet signatures
//
// Replicas that share a registry and a [PackageStore] trust the shared
// database only as far as it is signed: [PutStatement] signs, with an
// Ed25519 key, the install of a skill (name, fingerprint, install id), its
// removal (name, fingerprint) or the end of an install (name, install id:
// [OpRetire], for replicas that missed the versions in between), and
// stores the statement in the package store under
// [StatementKey]; [CheckStatement] verifies it against the public keys a
// replica trusts ([ErrUnsigned]). [NewFleetKey], [ReadPrivateKeyFile] and
// [ParsePublicKeys] read and write the keys.
package registry
