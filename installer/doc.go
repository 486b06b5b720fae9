// Package installer installs Agent Skills into a skills folder from GitHub,
// any git host the host allows, ZIP archives and local folders, and
// uninstalls, updates, checks for updates, pins, enables and disables
// them; installs each skill's own dependencies and runs its setup script
// when a person confirms it; and writes the skills an agent authors
// (skill_manage). Every install is all or nothing: the skills folder holds
// either the old version or the new one, complete, whatever fails and
// wherever the process dies.
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
//   - Dir: a local skill folder, copied.
//
// git runs through the Options.Runner (an executor.LocalRunner by default)
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
//  2. check: the tree holds SKILL.md at its root and passed the limits.
//  3. validate: SKILL.md loads in lenient mode (skill.Load), its frontmatter
//     has a name, and the name follows the naming rules; else
//     [ErrInvalidSkill]. The skill's folder will be that name.
//  4. fingerprint: registry.Fingerprint of the staged tree.
//  5. scan: Options.Scanner, when set, may refuse ([ErrScanRejected]).
//  6. swap, under the skill's lock: an installed skill of that name is
//     replaced only when it came from the same origin (same source, URL and
//     subfolder; any ZIP replaces a ZIP-installed skill; a folder placed by
//     hand, without a record, counts as another origin), is not pinned, and
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
// [New] — and every later operation, which first runs the same recovery —
// settles each dead operation (one whose lock file no live process holds)
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
// Uninstall moves the folder to the trash, deletes the record (its commit
// point), runs the purge hook when asked, and empties the trash; recovery
// finishes an uninstall whose folder was moved out. So after any crash the
// skills folder holds the old or the new version complete, with the record
// that matches it, and the staging and trash folders are emptied. Renames
// and the journal are synced (on Linux the staged files with one syncfs),
// so this holds for power loss too, as far as the file system keeps its
// promises. Tests fail every step in turn, both as an error and as a
// crash, and kill a real process between the two renames.
//
// # Concurrency
//
// Operations on one skill name are serialized: within the process by a
// lock per name, across processes by a file lock in .skillhub/locks. An
// install takes the lock only for the swap (the name is known once
// SKILL.md was read); Update and Uninstall hold it throughout. Operations
// on different names run in parallel. Where the system has no file locks
// (js, wasip1, plan9) only the first holds.
//
// # Updates
//
// [Installer.Update] fetches the recorded origin again. For git sources it
// first asks the remote (git ls-remote) and stops when the recorded commit
// is still current; a local folder or ZIP file is fetched and installed
// again, and Result.UpToDate says when its fingerprint did not change. It refuses pinned skills ([ErrPinned]), skills without
// an origin that can be fetched ([ErrNotUpdatable]: agent-written, hand
// placed, ZIPs given as a reader), and skills whose files differ from
// their recorded fingerprint ([ErrModified]) unless forced.
// [Installer.CheckUpdates] compares, for every git-installed skill, the
// recorded commit with the remote's: git ls-remote through the Runner (any
// host, no token), or for github.com the GitHub API when Options.GitHub is
// set.
//
// # Limits
//
// From [Limits] (nil: the defaults): an archive of at most 50 MiB, a file
// of at most 1 MiB, 200 MiB and 10,000 entries in all, a compression
// ratio of at most 100 (files up to 64 KiB exempt). Each git command runs
// at most Options.GitTimeout (default 5 minutes). A clone is bounded by
// its timeout, not by size: the checks run on the checked-out tree, so a
// huge repository costs disk space until the timeout or the checks stop
// it. git LFS files are installed as their pointer files. Skills are
// installed only at the top of the skills folder.
//
// # Dependencies
//
// [Installer.InstallDeps] installs what a skill declares in
// skill.config.yaml (seed 000 §2.3, §4.5), plus the frontmatter install
// specs of kind uv/pip (Python) and node/npm (OpenClaw's metadata.install;
// other kinds, such as brew or download, are reported and not run), plus
// the dependencies of its package.json:
//
//   - python: a .venv of its own. With uv (when "uv --version" runs):
//     uv venv, then uv pip install --python VENV -r REQUIREMENTS; else
//     python3 -m venv, then VENV/bin/python -m pip install --no-input
//     --no-compile -r REQUIREMENTS. DepsConfig.PipArgs follow (a host's
//     --no-index --find-links DIR, --index-url URL).
//   - node: npm install --ignore-scripts --no-audit --no-fund --omit=dev
//     --workspaces=false [NpmArgs] [packages], in a copy of the skill
//     without its .npmrc files and without its lock files
//     (package-lock.json, npm-shrinkwrap.json, anywhere: their "resolved"
//     URLs and paths would be followed unchecked), so package.json's file:
//     dependencies resolve and npm's writes never reach the skill, with
//     npm_config_git set to a program that does not exist, so a git
//     dependency anywhere in the tree fails; the node_modules it builds is
//     moved into the skill.
//   - dotnet: dotnet restore PROJECT, in a copy of the skill without its
//     NuGet configuration files (nuget.config in any case, anywhere), as npm
//     runs without its .npmrc: the skill does not pick package sources or
//     credentials through them. Packages land in the host user's NuGet
//     packages folder; the copy, with what restore wrote beside the project
//     (obj/), is thrown away, so the skill's files do not change.
//   - system: each check command, split into words and run without a
//     shell ([SplitCheckCommand]) in the skill folder, CheckTimeout each;
//     its program must be a bare name found on PATH (never a path, so never
//     a program the skill ships), else the check is refused before anything
//     runs, or, when not on PATH, reported missing without running. Without
//     a check, the name must be a program on PATH. A failure is a
//     SYSTEM_DEP_MISSING warning in the result, not an error.
//   - setup: setup.posix (setup.win32 on Windows) runs only with
//     DepsOptions.Setup — the host asked its user — and only for skills
//     installed from GitHub, git or a ZIP (never local, hand-placed or
//     agent-written ones: [ErrNotAllowed]); the path must be a regular file
//     inside the skill, reached without a link, with no "..". It runs in the
//     skill folder for at most SetupTimeout (120 s), with the skill's
//     .venv/bin and node_modules/.bin first on PATH, after the other
//     dependencies installed, through bash (.sh, none), PowerShell (.ps1),
//     cmd (.cmd, .bat), Python (.py) or node (.js).
//
// Before anything runs, every npm package is checked against the seed's
// pattern ([ValidateNpmPackage]), every Python requirement against its
// ([ValidatePythonRequirement]; a requirements file may hold nothing else
// but comments and --hash options, [ParseRequirements]), every
// package.json dependency must be a registry version, an npm: alias or a
// file: path inside the skill — in the skill's package.json and, followed
// recursively, in the package.json of every folder and tarball a file:
// dependency names (a tarball's may have no file: dependencies); none may
// declare workspaces — and every check command and path is checked
// ([ErrInvalidDependency]). An agent-written skill's dependencies are
// installed only with DepsOptions.AllowAgentWritten.
//
// Every command runs through Options.Runner, without a shell, with the
// controlled environment of [DepsConfig] and DepsConfig.Timeout (default
// 10 minutes). A .venv or node_modules is built in the operation's staging
// folder and swapped in with two renames under the skill's lock, so a skill
// has its old one or the new one, complete: a failure puts the old one
// back, and a crash between the two renames leaves none (VENV_MISSING),
// never a half-built one. When putting the old one back fails too, it is
// kept in the operation's .skillhub/trash/<id> and the error and log say
// so (the skill has none meanwhile, as after a crash; the next
// operation's recovery empties that trash). Tools write absolute paths into a venv (console
// scripts' shebangs, activate, pyvenv.cfg), which are rewritten for where
// it lands; Windows' .exe launchers in Scripts\ keep the staging path, so
// there console scripts of a venv must be run as "python -m". A marker in
// each (.skillkit-deps) holds the hash of what it was built from, so a
// second InstallDeps with the same requirements does nothing unless
// DepsOptions.Force. Commands and the last lines of their output are
// returned in DepsResult.Logs and streamed as progress events (OpDeps),
// each line once its command ended. A missing tool (no python3, npm or
// dotnet) is a RUNTIME_UNAVAILABLE diagnostic, not an error; a command
// that fails is a [*DepsError], and the other kinds still install. Files
// a setup script writes into the skill are taken into its recorded
// fingerprint when the skill matched it before, so they do not look like a
// person's edits.
//
// InstallDeps runs code the skill chose, so a host calls it only for skills
// its user chose, as it would run their setup script: check commands are
// programs and arguments from the skill's config; pip and uv build source
// packages by running their build scripts (a host that wants wheels only
// passes --only-binary=:all: in DepsConfig.PipArgs); dotnet restore
// evaluates the project's MSBuild files (the skill's, and its packages'),
// which can also name package sources themselves; npm resolves
// the skill's dependency tree from the registry (with --ignore-scripts, so
// no install scripts run, but the packages land in node_modules, where the
// skill's code runs them). What is checked bounds where things come from
// and what runs without being asked, not what the chosen code does. An
// agent-written skill's dependencies are installed only with
// DepsOptions.AllowAgentWritten.
//
// [DepsChecker] is the loader checker for RUNTIME_UNAVAILABLE,
// VENV_MISSING, DEPS_MISSING and SYSTEM_DEP_MISSING. It never runs
// anything: loading skills and calling Doctor must not start programs a
// skill chose. It looks programs up on PATH (a system dependency's check
// command's program, or its name) and looks at the skill folder.
//
// # Skills an agent writes
//
// [Installer.Create], [Installer.Edit] and [Installer.Delete] are
// skill_manage's (seed 002 §4.2, seed 000 §7.1): the name follows the
// naming rules; SKILL.md holds at most MaxAgentContentChars characters and
// loads (lenient) with a frontmatter naming exactly that skill; files lie
// under references/, templates/, scripts/ or assets/ only, each at most
// MaxAgentFileBytes, written without the executable bit. So an agent
// cannot write skill.config.yaml, requirements.txt or package.json: its
// skills have no entrypoint or setup, and skillkit runs none of their code
// (their frontmatter install specs are installed only with
// DepsOptions.AllowAgentWritten). They go through the install's staging,
// archive checks, validation, fingerprint, journal and swap, and are
// recorded with source agent. An agent may change or delete only what it
// wrote, unless Options.AgentMayChangeInstalled, and even then never the
// code skillkit runs for a skill a person installed (entrypoint, setup
// scripts, dependency files, their folders, scripts/ of a skill with a
// runtime) nor its install specs; a pinned skill not at all. metadata.env
// in the frontmatter becomes the skill's env schema, which the secrets
// vault lists and checks (ENV_NOT_CONFIGURED); its entries may not have a
// default, a value the agent would choose for processes to receive.
//
// # Uninstall and secrets
//
// The installer does not know where secrets live. [Installer.Uninstall]
// with Purge calls Options.Purge(ctx, name) after the skill is gone; the
// Kit wires it to the secrets vault's DeleteSkill. Without Purge the
// secrets stay, so reinstalling a skill finds them again.
package installer
