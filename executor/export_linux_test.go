package executor

// RefuseNamespaces makes the kernel refuse r's namespaces, as it does where
// unprivileged user namespaces are disabled.
func RefuseNamespaces(r *LocalRunner) { r.refuseNamespaces = true }
