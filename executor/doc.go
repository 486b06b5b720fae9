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
// # What is confined, and what is not
//
// [LocalRunner] isolates the environment and bounds time and captured
// output. On Linux, by default ([IsolateAuto]), each command is also
// confined ([Confinement]; docs/security.md has the table per platform):
//
//   - Files: it reads the system's folders, its working folder, the
//     folders of the program it runs and its Read grants; it writes only a
//     private scratch space (/tmp, with HOME in it, bounded in size) and its
//     Write and Work grants. HOME, /tmp, /var/tmp, /dev/shm and /run are
//     empty in its view but for its grants, so the user's files and the
//     sockets of the user's sessions are out of reach (Landlock, and a
//     mount namespace of its own).
//   - Network: none but its own loopback, unless its Network says so; a
//     list of hosts goes through a filtering proxy in the host process.
//   - Processes: its own user, PID, IPC and UTS namespaces and a private
//     /proc: the host's environment and memory are out of reach, and when
//     its first process ends or is killed on timeout or cancellation, the
//     kernel kills every process it started before Run returns, including
//     those that called setsid or forked twice. No capabilities,
//     no_new_privs, a seccomp filter against the calls no skill needs, and
//     limits ([Limits]). On a root host it runs as nobody.
//
// Where the kernel refuses a mechanism the others still apply and the
// runner's Logger gets one warning; [IsolateRequired] makes that an error
// instead. [IsolateOff], and other systems, run each command in its own
// process group, which is killed on timeout or cancellation and again when
// the program ends, so grandchildren do not outlive Run; a process that
// leaves the group (setsid, a daemon) escapes the kill, and Run stops
// waiting for its output WaitDelay after the program ended. On Windows
// only the direct child is killed. Unconfined, a program runs with the host
// user's rights and can read the environment and memory of every dumpable
// process of its user: [ProtectHost] makes the host non-dumpable, which
// guards the host itself from programs without CAP_SYS_PTRACE (not from
// root).
//
// [SandboxRunner] (Linux, bubblewrap) is the same boundary built by
// bubblewrap, for hosts that prefer it; it honours Command.Confine's grants
// and network too.
//
// Standard error can hold anything the skill prints, input values included:
// the audit line and error messages keep only its tail, with the skill's
// secrets redacted (as written, and in their JSON, quoted and JSON pointer
// escaped forms). Secret values shorter than 4 bytes are not redacted.
package executor
