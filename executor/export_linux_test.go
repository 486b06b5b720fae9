package executor

import "syscall"

// RefuseNamespaces makes the kernel refuse r's namespaces, as it does where
// unprivileged user namespaces are disabled: clone(2) fails with EINVAL for
// CLONE_NEWUSER with CLONE_FS.
func RefuseNamespaces(r *LocalRunner) {
	r.isolate = func(attr *syscall.SysProcAttr) {
		isolate(attr)
		attr.Cloneflags |= syscall.CLONE_FS
	}
}
