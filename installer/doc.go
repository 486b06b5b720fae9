// Package installer installs Agent Skills into a skills folder from GitHub,
// any git host the host allows, ZIP archives and local folders, and
// uninstalls, updates, checks for updates, pins, enables and disables
// them. Every install is all or nothing: the skills folder holds either the
// old version or the new one, complete, whatever fails and wherever the
// process dies.
//
// A skill's own dependencies are package deps's job, and the skills an
// agent writes package authoring's. All three work on one skills folder
// through skillkit's internal transaction core (name locks within and
// across processes, staging, a journal, the trash, crash recovery), which
// skillkit.Kit opens once and shares: hosts get an Installer from
// Kit.Installer, or use the Kit's methods, which rescan afterwards.
//
// # Sources
//
// A [Source] sets exactly one of:
//
//   - Git: a GitHub URL, https://github.com/OWNER/REPO[.git], optionally
//     followed by /tree/REF/PATH (one skill inside a repository) or
//     /blob/REF/PATH/SKILL.md; Ref and Subdir give the branch or tag and
//     the folder instead, or as well (they must agree with the URL; a ref
//     holding "/" is told from the path by Ref). Any other https URL is
//     cloned as it is when its host is in Options.AllowedHosts (default:
//     github.com only); a file:// URL only with Options.AllowFileURLs. URLs
//     with credentials, queries or fragments, plain http, ssh and other
//     schemes are refused ([ErrInvalidSource], [ErrHostNotAllowed]). Refs
//     follow git's rules and never start with "-".
//   - ZipFile, or Zip and ZipSize: a ZIP archive on disk or in memory.
//     Subdir picks one skill folder of an archive holding several; the
//     whole archive is checked all the same.
//   - Dir: a local skill folder, copied; Subdir picks one of several. A
//     folder that is a git checkout (a .git at its top) is copied without
//     its .git, and the commit checked out is recorded, read from .git
//     without running git.
//
// [Installer.Skills] lists the skill folders a source holds, for a caller
// that installs several, each with its Subdir and in its own transaction.
//   - Remote: a skill another package fetches through its protocol and
//     verifies against the digests it publishes: a site's Agent Skills
//     discovery index (package wellknown) or an MCP server declaring the
//     Skills extension (package mcpskills). Its files go through the same
//     checks as a folder (archive.CopyFS); a file that does not match its
//     digest fails the install ([ErrDigestMismatch]). The record keeps
//     the Remote's origin and the version installed (a digest), and
//     Options.Remote finds the Remote again for Update and CheckUpdates.
//
// git runs through Options.Runner (an executor.LocalRunner by default)
// as
//
//	git -c ... clone --depth 1 --no-recurse-submodules --quiet [--branch REF] -- URL DEST
//
// with an empty environment plus PATH, HOME and XDG_CONFIG_HOME set to an
// empty folder of the operation, GIT_CONFIG_NOSYSTEM=1,
// GIT_CONFIG_GLOBAL=/dev/null, GIT_TERMINAL_PROMPT=0, GIT_ALLOW_PROTOCOL
// (https, and file when allowed), GIT_LFS_SKIP_SMUDGE=1, LC_ALL=C, and the
// configuration core.hooksPath=/dev/null, core.fsmonitor=false, an empty
// credential.helper, http.followRedirects=false (a redirect could leave
// the allowed hosts), transfer.fsckObjects=true, protocol.allow=never with
// https (and file) allowed. So no user or system configuration, credential,
// hook or prompt is involved. The commit checked out (git rev-parse) is
// recorded; .git is removed before the tree is checked.
//
// # Flow
//
// Each operation works in its own folder .skillhub/staging/<id> of the
// skills folder (same file system, so the swap is a rename):
//
//  1. fetch: clone, extract or copy into staging. ZIP archives and folders
//     (and the clone's subfolder) go through the archive checks of
//     skillkit's internal/archive, the model being golang.org/x/mod/zip:
//     every entry is checked before anything is written, and a refusal
//     names the entry. Refused: absolute names, "..", backslashes, drive
//     letters, control and bidirectional characters, symbolic and hard
//     links, devices, duplicates, case-fold collisions, file/folder
//     conflicts, .git and .skillhub; omitted (listed in Result.Omitted):
//     .venv, node_modules, __pycache__, __MACOSX, .DS_Store. A single top
//     folder holding SKILL.md is unwrapped. Archive data never creates a
//     link. Refusals wrap [ErrRejected] (and [ErrLimit] for limits).
//     A git source's commit (and annotated tag ref) is checked against
//     Options.Publishers before .git is dropped: a signature that does not
//     verify is [ErrBadSignature]; an origin among Options.RequireSigned
//     needs a listed publisher's ([ErrUnsigned]). A ZIP archive's Sigstore
//     bundle (Source.Bundle, or "<archive>.sigstore.json" beside a
//     ZipFile) is checked the same way, over the archive's bytes, after
//     the archive passed its checks.
//  2. check: the tree holds SKILL.md at its root and passed the limits.
//  3. validate: SKILL.md loads in lenient mode (skill.Load), its frontmatter
//     has a name, and the name follows the naming rules; else
//     [ErrInvalidSkill]. The skill's folder will be that name.
//  4. fingerprint: registry.Fingerprint of the staged tree.
//  5. scan: the scan package rates the staged skill and the skills
//     folder's trust policy decides for the trust of its source (trusted
//     when a listed publisher signed it): allow,
//     ask (a [*ScanError] wrapping [ErrNeedsConfirmation] unless
//     InstallOptions.Confirmed) or block ([ErrScanRejected]; Force never
//     changes it).
//  6. swap, under the skill's lock: an installed skill of that name is
//     replaced only when it came from the same origin (same source, URL and
//     subfolder, for every kind of source: a ZIP file at another path is
//     another origin, ZIPs uploaded from memory share one; a folder placed
//     by hand, without a record, counts as another origin), is not pinned, and
//     its files still match their recorded fingerprint; otherwise
//     [ErrExists], [ErrPinned] or [ErrModified], unless forced. A record
//     whose folder is gone protects nothing but its pin. Enabled, pinned
//     and the first install time carry over to the new record. The staged
//     files are synced to disk, a journal is written, the old version is
//     renamed to .skillhub/trash/<id>, the staged one renamed into place,
//     the registry record written (the commit point), the trash removed.
//
// Progress events ([Event]) report each step and then one final event.
//
// # Crash guarantees
//
// Before the commit point, a failure in the process undoes the swap: the
// new version moves back to staging, the old one back into place, the old
// record is restored. After it, the install has happened, and a failure to
// empty the trash is only logged. When the process dies instead, the next
// operation on the folder — each first runs the recovery, and so does the
// Kit before its first scan — settles each dead operation (one whose lock file no live process holds)
// by what is on disk:
//
//   - no journal: the skill was never touched; the staging folder goes;
//   - journal, new version still staged: the old version (if it was moved
//     to the trash) is renamed back, and the previous record restored if
//     the journal's record was written (a write the store reported as
//     failed although it took effect, then a crash while undoing it);
//   - journal, new version in place: the record is written from the journal
//     if the folder in place has the journal's fingerprint and no one has
//     written another record since; the trash goes.
//
// What recovery cannot settle (a journal skillkit did not write, a rename
// the system refuses) is logged to Options.Logger and left for the next
// try; a dead operation whose skill a live one is working on is left for
// later too. Recovery never waits for a skill, so it never holds up
// operations on other skills.
//
// Uninstall refuses a folder without an install record ([ErrNotRecorded],
// a skill placed by hand or by another tool) unless
// UninstallOptions.Force. It moves the folder to the trash, deletes the
// record (its commit point), runs the purge hook when asked, and empties
// the trash; recovery
// finishes an uninstall whose folder was moved out. So after any crash the
// skills folder holds the old or the new version complete, with the record
// that matches it, and the staging and trash folders are emptied. Renames
// and the journal are synced (on Linux the staged files with one syncfs),
// so this holds for power loss too, as far as the file system keeps its
// promises. Tests fail every step in turn, both as an error and as a
// crash, and kill a real process between the two renames.
//
// # History
//
// Every swap and removal keeps a version in the skill's history
// (.skillhub/history/<name>: a log and one ZIP per fingerprint; on a
// replica the shared package store): the files it replaces or removes
// are packed before anything moves, the versions go into the journal, and
// the log takes them once the operation commits — recovery appends them
// for an operation it finishes, never for one it undoes. [Installer.History]
// lists them, [Installer.Rollback] installs one again through this flow,
// and [Retention] bounds them.
//
// # Concurrency
//
// Operations on one skill name are serialized — installs, updates,
// dependency builds and agents' writes alike: within the process by a lock
// per name of the shared skills folder, across processes by a file lock in
// .skillhub/locks. An
// install takes the lock only for the swap (the name is known once
// SKILL.md was read); Update and Uninstall hold it throughout. Operations
// on different names run in parallel. Where the system has no file locks
// (js, wasip1, plan9) only the first holds.
//
// # Updates
//
// [Installer.Update] fetches the recorded origin again. For git sources it
// first asks the remote (git ls-remote) and stops when the recorded commit
// is still current; a Remote is asked for the version it serves, compared
// with the recorded one. Otherwise the source is fetched and checked as an
// install is; when the fetched files are the ones installed (a commit
// elsewhere in a repository holding several skills, a folder or ZIP file
// that did not change), nothing is swapped — the skill, its .venv and
// node_modules stay — and only the record learns the new commit
// (Result.UpToDate). A real update swaps the new version in; what the old
// version built that the new one can keep (a .venv for the same
// requirements) is moved over by the skills folder (skillkit.Kit wires
// deps.Keep), after the commit point. Update refuses pinned skills
// ([ErrPinned]), skills without an origin that can be fetched
// ([ErrNotUpdatable]: agent-written, hand placed, ZIPs given as a reader),
// and skills whose files differ from their recorded fingerprint
// ([ErrModified]) unless forced. [Installer.CheckUpdates] asks, for every
// git-installed skill, the remote for its latest commit (git ls-remote
// through the Runner, any host, no token; or for github.com the GitHub API
// when Options.GitHub is set), and when it moved compares the tree of the
// skill's folder there (a shallow fetch without file contents, or the API)
// with the one recorded at install, so a commit elsewhere in the
// repository is no update.
//
// # Replicas
//
// When the skills folder is one replica of several sharing a registry
// (skillkit.Options.Packages, docs/fleet.md), every swap first stores the
// staged files in the package store, keyed by their fingerprint, and the
// folder notes in .skillhub/placed/<name> the version it placed.
// [Installer.Sync] brings the folder to what the shared registry records:
//
//   - an enabled skill whose record has a fingerprint that the folder
//     lacks, or holds at another version than the record's, is fetched from
//     the package store (at most the archive limit) and staged through the
//     install's flow above as a ZIP (fetch, check, validate, fingerprint,
//     scan); its fingerprint must be the recorded one
//     ([ErrFingerprintMismatch]) and it must name the recorded skill
//     ([ErrInvalidSkill]); the trust policy's block stands
//     ([ErrScanRejected]), its ask counts as confirmed (a person confirmed
//     the install that wrote the record);
//   - the swap writes no record (the record is the registry's, and is
//     checked under the skill's lock to still name the fetched version):
//     the commit point is the rename of the new version into place, and
//     recovery of a sync only finishes or undoes the renames;
//   - the placed note (.skillhub/placed/NAME) changes with the swap,
//     before the rename, and the journal keeps the one before: undo and
//     recovery leave a note that names the version in the folder;
//   - a folder that already holds the recorded version is noted as placed;
//     a folder this replica did not place is replaced only with
//     SyncOptions.Force ([ErrExists]), and so is a placed one whose files
//     changed since ([ErrModified]), unless its files are a version the
//     package store holds (a version the fleet installed is no edit);
//   - a skill it placed whose record is gone is removed (its secrets are
//     not purged: they are the registry's);
//   - disabled skills and records without a fingerprint are not fetched.
//
// Updates and installs that replace a skill compare its files with the
// version this replica placed rather than with the record, which may be
// ahead of it until the next sync ([ErrModified]).
//
// # Names
//
// An install's skill must have a name that follows the specification
// (skill.ValidateName), which becomes its folder. Uninstall, update, pin,
// enable and disable accept every name the loader accepts
// (skill.ValidateKey), so a skill folder placed by hand as My_Tool can be
// disabled.
//
// # Limits
//
// From [Limits] (the Kit's Options.Limits; nil: the defaults): an archive
// of at most 50 MiB, a file of at most 1 MiB, 200 MiB and 10,000 entries in
// all, a compression ratio of at most 100 (files up to 64 KiB exempt).
// Each git command runs at most Options.GitTimeout (default 5 minutes). A clone is bounded by
// its timeout, not by size: the checks run on the checked-out tree, so a
// huge repository costs disk space until the timeout or the checks stop
// it. git LFS files are installed as their pointer files. Skills are
// installed only at the top of the skills folder.
//
// # Uninstall and secrets
//
// The installer does not know where secrets live. [Installer.Uninstall]
// calls the skills folder's purge hook after the skill is gone, unless
// UninstallOptions.KeepSecrets; the Kit wires it to the secrets vault's
// DeleteSkill. Kept or not, a skill's secrets are sealed for its install id
// (the registry package documentation says when it changes), so a skill
// that later takes the name never receives them.
package installer
