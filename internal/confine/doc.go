// Package confine starts a program confined to what it was granted: the
// system's programs read-only, its own folder, the paths and network it
// declared, a private scratch space, and nothing else of the host.
//
// On Linux (amd64 and arm64) the host starts, once, a zygote: a copy of
// its own executable (/proc/self/exe, recognised by an init function of
// this package before the host's main) that holds a few megabytes whatever
// the host holds. For each program the zygote works out the whole setup as
// a list of system calls, then clones with CLONE_VM|CLONE_VFORK (no page
// table is copied) into new user, PID, mount, IPC and UTS namespaces (and a
// network namespace unless the program may reach every host), with the
// host as the parent (CLONE_PARENT). The child walks the list and becomes
// the program:
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
// caller learns what was left out ([Cmd.Reduced]); with Spec.Strict
// the start fails instead. On other systems [Prepare] fails with
// [ErrUnsupported].
//
// A start costs about what a plain exec costs, whatever the host's size.
// Every program that imports this package (through the executor) can
// confine: the zygote is that program started again.
package confine
