//go:build !lean

package main

import (
	"context"
	"os"
	"os/signal"
)

// interruptible is the context commands run in: an interrupt (Ctrl-C)
// cancels it, so an install or a sync stops at a point it can undo.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}
