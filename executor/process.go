package executor

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Process is a long-running program a [LocalRunner] started with
// [LocalRunner.Start] (an MCP server): its standard input and output stay
// open for the caller.
type Process struct {
	// Stdin is the program's standard input; closing it is how a caller
	// usually asks the program to end.
	Stdin io.WriteCloser
	// Stdout is the program's standard output.
	Stdout io.ReadCloser

	cmd       child
	done      func()
	stderr    <-chan struct{} // closed when standard error was copied out
	stderrEnd func()          // closes the parent's end of standard error
	waitDelay time.Duration
}

// Start starts c's program as [LocalRunner.Run] would, confined the same
// way, but leaves its standard streams to the caller and returns at once;
// stderr receives its standard error (nil discards it). The program ends
// with ctx, and at c.Timeout when it is set (a lifetime, not the default
// of Run); every process it started ends with it.
func (r *LocalRunner) Start(ctx context.Context, c Command, stderr io.Writer) (*Process, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if !r.Isolation.valid() {
		return nil, fmt.Errorf("%w: unknown isolation mode %d", ErrInvalidCommand, int(r.Isolation))
	}
	path, err := LookPath(c.Path, c.Env)
	if err != nil {
		return nil, fmt.Errorf("executor: start %s: %w", c.Path, err)
	}
	life, cancel := ctx, context.CancelFunc(func() {})
	if c.Timeout > 0 {
		life, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	p, err := newPipes(true)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("executor: start %s: %w", c.Path, err)
	}
	if stderr == nil {
		stderr = io.Discard
	}
	cmd, done, err := r.start(ctx, life, path, c, p)
	p.closeChild()
	if err != nil {
		p.closeParent()
		cancel()
		return nil, fmt.Errorf("executor: start %s: %w", c.Path, err)
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_ = drain(stderr, p.parentErr)
	}()
	return &Process{Stdin: p.parentIn, Stdout: p.parentOut, cmd: cmd, done: func() { done(); cancel() },
		stderr: copied, stderrEnd: func() { _ = p.parentErr.Close() }, waitDelay: r.waitDelay()}, nil
}

// Wait waits for the program to end, then kills what it left behind and
// releases what the confinement held. It returns the program's exit error,
// as [os/exec.Cmd.Wait] does.
// Standard error has been copied to its writer when Wait returns (or
// given up WaitDelay after, if something the program left holds it).
func (p *Process) Wait() error {
	err := p.cmd.wait()
	_ = killGroup(p.cmd.process)
	select {
	case <-p.stderr:
	case <-time.After(p.waitDelay):
		p.stderrEnd()
		<-p.stderr
	}
	p.done()
	return err
}

// Kill kills the program and every process it started.
func (p *Process) Kill() error { return killGroup(p.cmd.process) }
