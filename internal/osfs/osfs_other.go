//go:build !unix

package osfs

import (
	"io/fs"
	"os"
)

// SkipPoller is no flag where the poller's cost is not paid.
const SkipPoller = 0

// openFlags is what the os package's own Open uses.
const openFlags = os.O_RDONLY

// wrap keeps the os package's FS: the poller's cost is Unix's.
func wrap(base fs.FS, _ func(string) (*os.File, error)) fs.FS { return base }
