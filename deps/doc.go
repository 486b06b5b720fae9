// Package deps installs the dependencies of the skills in a skills folder,
// each into the skill's own folder, and runs a skill's setup script when a
// person confirms it; its [Checker] reports, for the loader, what a skill
// needs that the host lacks. It works on the skills folder that the
// installer and authoring packages share, through skillkit's internal
// transaction core; hosts get an [Installer] from skillkit.Kit.Deps or use
// Kit.Install.
//
// # What it installs
//
// [Installer.Install] installs what a skill declares in skill.config.yaml
// (docs/skill-config.md), plus the frontmatter install
// specs of kind uv/pip (Python) and node/npm (OpenClaw's metadata.install;
// other kinds, such as brew or download, are reported and not run), plus
// the dependencies of its package.json:
//
//   - python: a .venv of its own. With uv (when "uv --version" runs):
//     uv venv, then uv pip install --python VENV -r REQUIREMENTS; else
//     python3 -m venv, then VENV/bin/python -m pip install --no-input
//     --no-compile -r REQUIREMENTS. Options.PipArgs follow (a host's
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
//     InstallOptions.Setup — the host asked its user — and only for skills
//     installed from GitHub, git or a ZIP (never local, hand-placed or
//     agent-written ones: [ErrNotAllowed]); the path must be a regular file
//     inside the skill, reached without a link, with no "..". It runs in the
//     skill folder for at most SetupTimeout (120 s), with the skill's
//     .venv/bin and node_modules/.bin first on PATH, after the other
//     dependencies installed, through bash (.sh, none), PowerShell (.ps1),
//     cmd (.cmd, .bat), Python (.py) or node (.js).
//
// Before anything runs, every npm package is checked against the install-name
// pattern ([ValidateNpmPackage]), every Python requirement against its
// ([ValidatePythonRequirement]; a requirements file may hold nothing else
// but comments and --hash options, [ParseRequirements]), every
// package.json dependency must be a registry version, an npm: alias or a
// file: path inside the skill — in the skill's package.json and, followed
// recursively, in the package.json of every folder and tarball a file:
// dependency names (a tarball's may have no file: dependencies); none may
// declare workspaces — and every check command and path is checked
// ([ErrInvalid]). An agent-written skill's dependencies are
// installed only with InstallOptions.AllowAgentWritten.
//
// Every command runs through Options.Runner, without a shell, with the
// controlled environment of [Options] and Options.Timeout (default
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
// second Install with the same requirements does nothing unless
// InstallOptions.Force. Commands and the last lines of their output are
// returned in Result.Logs and streamed as progress events (OpDeps),
// each line once its command ended. A missing tool (no python3, npm or
// dotnet) is a RUNTIME_UNAVAILABLE diagnostic, not an error; a command
// that fails is a [*CommandError], and the other kinds still install. Files
// a setup script writes into the skill are taken into its recorded
// fingerprint when the skill matched it before, so they do not look like a
// person's edits.
//
// Install runs code the skill chose, so a host calls it only for skills
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
// InstallOptions.AllowAgentWritten.
//
// [Checker] is the loader checker for RUNTIME_UNAVAILABLE (the runtime, and
// the tools installing what is declared but missing needs: python3 or uv,
// npm, dotnet, the setup script's interpreter), VENV_MISSING,
// DEPS_MISSING, SYSTEM_DEP_MISSING and DECLARED_FILE_MISSING (a
// requirements file, .NET project or setup script the config names that
// the skill does not have). It never runs
// anything: loading skills and calling Doctor must not start programs a
// skill chose. It looks programs up on PATH (a system dependency's check
// command's program, or its name) and looks at the skill folder.
//
// # Updates
//
// [Keep] tells the skills folder what an updated skill keeps: the .venv
// and node_modules built from the requirements its new version still
// declares move into the new version, so an update that leaves them alone
// needs no new install. [Installer.State] says what a skill declares and
// what of it is built, without running anything; skillkit.Kit uses both
// to rebuild after an update what was built before and is stale now.
package deps
