//go:build !linux

package executor

import (
	"errors"
	"fmt"
	"runtime"
)

// canIsolate says that this system has no namespaces to try.
const canIsolate = false

// ProtectHost makes the host process non-dumpable on Linux; here it returns
// an error wrapping [errors.ErrUnsupported]. See the Linux documentation of
// this function for what it guards.
func ProtectHost() error {
	return fmt.Errorf("executor: making the host non-dumpable needs Linux, this is %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
