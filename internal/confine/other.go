//go:build !linux || !(amd64 || arm64)

package confine

import (
	"context"
	"fmt"
	"os"
	"runtime"
)

// Cmd is a confined program; on this system none can be prepared.
type Cmd struct {
	// Stdin, Stdout and Stderr are the program's standard streams.
	Stdin, Stdout, Stderr *os.File
	// Reduced lists the mechanisms that were refused.
	Reduced []string
	// Process is the program, after Start.
	Process *os.Process
	// ProcessState is how it ended, after Wait.
	ProcessState *os.ProcessState
}

// Prepare fails here: the mechanisms are Linux's, on amd64 and arm64.
func Prepare(ctx context.Context, spec Spec) (*Cmd, error) {
	return nil, fmt.Errorf("%w (this is %s/%s)", ErrUnsupported, runtime.GOOS, runtime.GOARCH)
}

// Start does nothing: Prepare never returns a Cmd here.
func (c *Cmd) Start() error { return ErrUnsupported }

// Wait does nothing: Prepare never returns a Cmd here.
func (c *Cmd) Wait() error { return ErrUnsupported }

// Close does nothing.
func (c *Cmd) Close() {}

// RefuseNamespaces does nothing here.
func RefuseNamespaces(c *Cmd) {}
