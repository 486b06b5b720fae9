// Package executor runs programs and skill code: the [Runner] interface
// (local, sandboxed or anywhere a host chooses) with [LocalRunner], the
// bubblewrap [SandboxRunner] and runner [Middleware]; the [Executor] that
// runs compute-entry skills under a JSON protocol; and the [EnvProvider]
// that gives a host's own shell tool a skill's environment.
//
// # Runners
//
//   - A [Command] never goes through a shell: Path and Args are the program
//     and its arguments as given.
//   - The environment is exactly Command.Env. A nil Env is an empty
//     environment, never "inherit the host's": a host's secrets (database
//     passwords, API keys) reach a child only when the host puts them there.
//   - Standard output keeps its first MaxStdout bytes (default 1 MiB),
//     standard error its last MaxStderr bytes (default 64 KiB); the rest is
//     read and dropped with a truncation flag, so memory stays bounded
//     whatever a program writes.
//   - Timeout (default 30 s) kills the command; Result.TimedOut says so.
//     Zero limits mean the defaults, never "unlimited".
//   - The conformance suite executortest.TestRunner checks every rule of
//     the [Runner] contract against real programs.
//
// # Compute-entry skills
//
// [Executor.Execute] runs a skill whose skill.config.yaml names an
// entrypoint (docs/protocol.md is the contract for skill authors):
//
//   - The input is a JSON object of at most 1 MiB, checked against
//     interface.input (JSON Schema 2020-12 by default, compiled once per
//     skill and schema text, external $refs refused); missing properties
//     get their defaults; every problem is reported with its JSON pointer.
//   - The program: python runs the skill's .venv/bin/python
//     (.venv\Scripts\python.exe on Windows), else python3 when the skill
//     declares no Python dependencies ([skill.Skill.DeclaredDeps]), else
//     VENV_MISSING; node runs "node ENTRYPOINT", or refuses with
//     DEPS_MISSING when the skill declares npm packages and has no
//     node_modules; bash "bash ENTRYPOINT", dotnet "dotnet run
//     --project ENTRYPOINT". The entrypoint must resolve inside the skill
//     folder; the working directory is the skill folder; skills without a
//     folder on disk (embedded) cannot run.
//   - The environment: the whitelisted host variables (PATH HOME USER LANG
//     LC_ALL TZ TEMP TMP TMPDIR HTTP_PROXY HTTPS_PROXY NO_PROXY by
//     default) plus the skill's own declared variables from the
//     [EnvResolver]. A name that [skill.ValidateEnvName] refuses (LD_PRELOAD,
//     NODE_OPTIONS, ...) fails the execution instead of being injected.
//   - Standard input is the input JSON; the timeout is the config's
//     (default 30 s), capped by Options.MaxTimeout (default 5 min).
//   - Standard output must be exactly one JSON value within 1 MiB,
//     checked against interface.output when declared. Exit code 0 with bad
//     output is [ErrBadOutput], whose message quotes the first 200
//     characters of standard output (or the output schema's problems, which
//     quote values and property names) with the skill's own secret values
//     replaced by [Redacted]; a non-zero exit is an [*ExitError] whose
//     message is the last 500 characters of standard error, redacted the
//     same way.
//   - At most 8 executions run at once, 4 per skill (Options); callers
//     beyond wait for a slot or for their context.
//   - One audit line per execution goes to Options.Logger: skill, the
//     agent when the context names one ([WithAgent]; the tools package
//     sets it from tools.Agent.Name), success, duration, exit code and, on failure, the kind of error, the JSON
//     pointers of invalid input and the redacted stderr tail. Never the
//     input, the output or an environment value; the ctx is passed on, so
//     a handler can add the caller's identity from it.
//
// # What is isolated, and what is not
//
// [LocalRunner] isolates the environment and bounds time and captured
// output. On Linux, by default ([IsolateAuto]), each command also starts in
// a new user namespace and a new PID namespace:
//
//   - It cannot read /proc/PID/environ, mem, maps or fd of the host or of
//     any other process outside its namespaces, even when the host runs as
//     root: the kernel asks for CAP_SYS_PTRACE over the other process's
//     user namespace, which a process in a child namespace never has. So a
//     vault key in the host's environment stays out of reach. It can still
//     read any process's command line (as ps can), and every file the
//     host's user can read.
//   - Its first process is the namespace's first: when it ends, or is
//     killed on timeout or cancellation, the kernel kills every process
//     left in the namespace before Run returns, including those that
//     called setsid or forked twice.
//   - It keeps the host's user and group IDs, network and files; files of
//     other users show as owned by nobody, set-user-ID programs (sudo) do
//     not gain privileges, and a root host's commands lose the privileges
//     that need capabilities over the host (binding ports below 1024,
//     changing other users' files). [IsolateOff] runs commands as before
//     for the programs that need that.
//
// Where the kernel refuses the namespaces (unprivileged user namespaces
// disabled), the command runs in the host's namespaces and the runner's
// Logger gets one warning; [IsolateRequired] makes that an error instead.
// There, and with IsolateOff and on other Unix systems, each command runs in
// its own process group, which is killed on timeout or cancellation and
// again when the program ends, so grandchildren do not outlive Run; a
// process that leaves the group (setsid, a daemon) escapes the kill, and
// Run stops waiting for its output WaitDelay after the program ended. On
// Windows only the direct child is killed. Without namespaces a program can
// read the environment and memory of every dumpable process of its user:
// [ProtectHost] makes the host non-dumpable, which guards the host itself
// from programs without CAP_SYS_PTRACE (not from root).
//
// LocalRunner does not restrict files, network, CPU or memory: the program
// runs with the host user's rights, so it can read that user's files
// (including a key kept in a file) and ask the user's other services (cron,
// systemd --user) to run code later. Skill code is code the host chose to
// install; LocalRunner is not a defense against a hostile skill.
//
// [SandboxRunner] (Linux, bubblewrap) adds a mount and network namespace: a
// read-only system, the skill folder read-only, a private /tmp and /proc,
// no network unless allowed, no capabilities; the program is the first
// process of the sandbox's PID namespace, so everything it started dies
// with it before Run returns (on timeout or cancellation, moments after:
// bwrap is killed and the sandbox follows it). It still runs as the host's
// user on the files it shows, and does not bound CPU, memory or the size
// of /tmp.
//
// Standard error can hold anything the skill prints, input values included:
// the audit line and error messages keep only its tail, with the skill's
// secrets redacted (as written, and in their JSON, quoted and JSON pointer
// escaped forms). Secret values shorter than 4 bytes are not redacted.
package executor
