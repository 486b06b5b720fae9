// Package confine starts a program confined to what it was granted: the
// system's programs read-only, its own folder, the paths and network it
// declared, a private scratch space, and nothing else of the host.
//
// On Linux the host starts a helper, a copy of its own executable
// (/proc/self/exe) in new user, PID, mount, IPC and UTS namespaces (and a
// network namespace unless the program may reach every host). The helper
// builds the program's view of the machine, then replaces itself with the
// program:
//
//   - a fresh /proc of its own PID namespace, with /proc/sys read-only;
//   - an empty tmpfs over the places where users keep their data and their
//     sessions' sockets (HOME, /tmp, /var/tmp, /dev/shm, /run), with the
//     granted paths bound back at their own paths; the tmpfs at /tmp is the
//     scratch space, bounded in size;
//   - loopback up in its network namespace; for a list of hosts, a
//     listener there whose connections the host's filtering proxy serves;
//   - Landlock rules: read-only system folders, the grants, writable
//     scratch; TCP connections only to the proxy where the kernel can say
//     so; no signals or abstract sockets beyond its own domain;
//   - resource limits (processes, file size, no core files);
//   - no capabilities, no_new_privs, and a seccomp filter that refuses the
//     system calls no skill needs (ptrace, bpf, keyctl, mounts, new
//     namespaces, kernel modules, ...);
//   - on a root host, an unprivileged user ID (nobody) instead of root.
//
// Where the kernel refuses a mechanism the rest still applies and the
// caller learns what was left out ([Started.Reduced]); with Spec.Strict
// the start fails instead. On other systems [Prepare] fails with
// [ErrUnsupported].
//
// The helper runs from an init function of this package, before the host
// program's main: every program that imports it (through the executor) can
// confine.
package confine
