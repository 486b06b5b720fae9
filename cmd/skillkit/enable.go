//go:build !lean

package main

import (
	"context"

	"github.com/skillkit-go/skillkit"
)

func enableCommand() *command {
	return flagCommand("enable", "show a disabled skill to agents again", "enabled",
		func(kit *skillkit.Kit, ctx context.Context, name string) error {
			return kit.SetEnabled(ctx, name, true)
		})
}

func disableCommand() *command {
	return flagCommand("disable", "hide an installed skill from every agent, keeping it installed", "disabled",
		func(kit *skillkit.Kit, ctx context.Context, name string) error {
			return kit.SetEnabled(ctx, name, false)
		})
}
