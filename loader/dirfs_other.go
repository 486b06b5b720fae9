//go:build !linux

package loader

// dirFS is Linux only; elsewhere a scan reads the source's FS.
type dirFS struct {
	plainFS
	unstamped bool
}

func openDirFS(string) (*dirFS, bool) { return nil, false }
