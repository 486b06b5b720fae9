// Package executor runs programs and skill code: the [Runner] interface
// (local, sandboxed or anywhere a host chooses), [LocalRunner], the
// bubblewrap [SandboxRunner], and runner [Middleware].
//
// # Runners
//
//   - A [Command] never goes through a shell: Path and Args are the program
//     and its arguments as given.
//   - The environment is exactly Command.Env. A nil Env is an empty
//     environment, never "inherit the host's": a host's secrets (database
//     passwords, API keys) reach a child only when the host puts them in Env.
//   - Standard output keeps its first MaxStdout bytes (default 1 MiB),
//     standard error its last MaxStderr bytes (default 64 KiB); the rest is
//     read and dropped, with a truncation flag, so memory stays bounded
//     whatever a program writes.
//   - Timeout (default 30 s) kills the command; Result.TimedOut says so.
//     Zero limits mean the defaults, never "unlimited".
//
// # What is isolated, and what is not
//
// [LocalRunner] isolates the environment and bounds time and captured
// output. On Unix each command runs in its own process group, which is
// killed on timeout or cancellation and again when the program ends, so
// grandchildren do not outlive Run; a process that leaves the group
// (setsid, double fork into a new session) escapes the kill, and Run stops
// waiting for its output WaitDelay after the program ended. On Windows only
// the direct child is killed. LocalRunner does not restrict files, network,
// CPU or memory: the program runs as the host's user.
//
// [SandboxRunner] (Linux, bubblewrap) adds namespaces: a read-only system, the
// working directory read-only, a private /tmp, no network unless allowed, its
// own PID namespace (everything in it dies with the sandbox), no
// capabilities. It still runs as the host's user on the mounted files, and
// does not bound CPU, memory or the size of /tmp.
package executor
