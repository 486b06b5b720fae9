// Package loader finds the skills of several sources, resolves what shadows
// what, and answers "which skills does this agent see now?" from an
// immutable [Snapshot].
//
// # Sources and discovery
//
// A [Source] is one root folder of skills: an [io/fs.FS] (os.DirFS, an
// embed.FS, a fstest.MapFS) and, when it is on disk, its Dir. Sources are
// given in precedence order (workspace, user, bundled). In each source:
//
//   - a folder holding SKILL.md (in any case: skill.md, Skill.md, ...) is a
//     skill; nothing below it is searched, and skill files deeper in it are
//     named by the skill's NESTED_SKILL diagnostics (a warning when the
//     outer skill does not load) and in NotLoaded, unless
//     Options.NestedSkills asks for them to be loaded as skills too;
//   - other folders are searched, depth first in sorted order, down to
//     [DefaultMaxDepth] (6) levels below the root; deeper folders are
//     searched last, within the folder limit, only to name the skill files
//     they hold (LIMIT_REACHED in NotLoaded, and one diagnostic that counts
//     them);
//   - node_modules, .git, .venv, .skillhub and the other [skill.InfraDirs]
//     are never searched;
//   - below a dot folder, the conventional skill roots of other agents
//     ([ConventionalRoots]: .claude/skills, .agents/skills, ...) are searched
//     like any folder, after the folder's other children; the rest of a dot
//     folder is searched last, after the whole source, only to name each
//     skill file in it (SKILL_IN_DOT_FOLDER, info): those skills are not
//     loaded;
//   - symbolic links to folders inside the source root are followed, and
//     links into agent folders (the project of a source that is an agent's
//     skills folder, the agent skills folders of the user's home,
//     Source.LinkRoots: see [Source]); a link leading elsewhere, or a
//     SKILL.md or skill.config.yaml that does, is skipped with
//     SYMLINK_ESCAPE; a folder reached twice (a loop, an alias,
//     two sources sharing a folder) is loaded once, at its first path,
//     silently.
//
// A source folder that does not exist holds no skills and is not reported,
// so a host can list a user folder before it is created.
//
// # Collisions and limits
//
// The first source that defines a name wins; within a source, the first path
// in discovery order. Each loser gets NAME_COLLISION (warning) with
// winner_path, winner_source, loser_path and loser_source in its detail; its
// own load diagnostics are kept too.
//
// [Snapshot.NotLoaded] lists every skill folder found and not loaded, with
// the code and message that say why (invalid, a lost collision, over the
// limit, under a dot folder, nested), so a host can say how many skills it
// did not load and why.
//
// Limits, all in [Options], where zero means the default and never
// "unlimited" ([Unlimited] lifts a limit explicitly): at most 200 skills in
// a snapshot ([DefaultMaxSkills]; the skills past it in precedence order are
// not loaded and are all named in a LIMIT_REACHED diagnostic), 2000 folders
// visited per source ([DefaultMaxDirs]), 6 levels deep ([DefaultMaxDepth])
// (the folders cut by either are named, the first 20 of them; every skill
// file past the depth limit is in NotLoaded), and 256 KiB
// for SKILL.md's frontmatter and skill.config.yaml (FILE_TOO_LARGE, the
// skill is skipped; a longer SKILL.md loads with a warning, and is served up
// to the limit).
//
// # Snapshots and rescans
//
// A [Snapshot] is immutable and safe for concurrent readers: skills sorted by
// name, [Snapshot.Get], [Snapshot.ResolveByPath] (the skill whose folder holds
// a path: the folder itself or "dir + separator" prefix) and
// the scan's diagnostics. Bodies are not held: [skill.Skill.Body] reads them.
// A [Loader] holds the current snapshot and swaps in a new one atomically on
// [Loader.Rescan]; readers never wait. Skills load in parallel (bounded by
// Options.Concurrency). A rescan reuses every skill whose skill file,
// skill.config.yaml and folder listing (size and modification time of the
// folder and each sub-folder, infrastructure folders aside) did not change,
// and reports [Changes]. A skill read again and found the same (a touched
// file) is kept, so Changes lists real changes only. A file system without
// modification times (embed.FS, fstest.MapFS) proves nothing by stamps: its
// folders are listed and its skills read on every rescan. A change that keeps
// a file's size and modification time (possible on file systems with coarse
// timestamps, or with a clock set back) is not seen until the next change to
// it. [Loader.Watch] keeps the snapshot current: on Linux it rescans when
// the kernel notifies a change (inotify, a watch per folder), and a rescan
// then looks only at the folders notified, so while nothing changes it does
// no work; what notifications cannot cover (sources not on disk, network and
// FUSE file systems) is polled on an interval, and folders past the watch
// limit a slice per interval, each within a minute; see docs/decisions.md.
//
// What a rescan reuses costs memory (about a third of a loader's). A
// program that scans once and exits sets Options.OneShot: the snapshot then
// holds only the skills, and each later rescan reads every skill again.
//
// # Visibility
//
// [Snapshot.Filter] takes an [Env] (the agent's tools, toolsets and skill
// allowlist, the OS, and lookups for programs, environment variables and host
// configuration) and returns a [Visibility]: the catalog, and each hidden
// skill with every [Reason] that hides it. A skill with
// disable-model-invocation stays out of the catalog but can be read by name.
// A skill disabled in the registry given to [New] is hidden; the registry
// is read at each Filter call, so enabling a skill needs no rescan.
//
// # Checkers
//
// A [Checker] adds diagnostics that depend on outside state (secrets,
// runtimes, recorded fingerprints). Checkers are not run by a scan: their
// answers change without any skill file changing, so a snapshot cannot hold
// them. [Loader.Doctor] and [Snapshot.Check] run them live. The registry's
// FINGERPRINT_CHANGED checker is one of them ([registry.FingerprintChecker]);
// the host, or skillkit's Kit, passes it with the others.
package loader
