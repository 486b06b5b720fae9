//go:build !linux

package confine

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
)

// Cmd is a confined program; on this system none can be prepared.
type Cmd struct {
	// Cmd starts the program.
	Cmd *exec.Cmd
	// Reduced lists the mechanisms that were refused.
	Reduced []string
}

// Prepare fails here: the mechanisms are Linux's.
func Prepare(ctx context.Context, spec Spec) (*Cmd, error) {
	return nil, fmt.Errorf("%w (this is %s)", ErrUnsupported, runtime.GOOS)
}

// Start does nothing: Prepare never returns a Cmd here.
func (c *Cmd) Start() error { return ErrUnsupported }

// Close does nothing.
func (c *Cmd) Close() {}

// RefuseNamespaces does nothing here.
func RefuseNamespaces(c *Cmd) {}
