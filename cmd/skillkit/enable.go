package main

import (
	"context"

	"github.com/skillkit-go/skillkit/installer"
)

func enableCommand() *command {
	return flagCommand("enable", "show a disabled skill to agents again", "enabled",
		func(in *installer.Installer, ctx context.Context, name string) error {
			return in.SetEnabled(ctx, name, true)
		})
}

func disableCommand() *command {
	return flagCommand("disable", "hide an installed skill from every agent, keeping it installed", "disabled",
		func(in *installer.Installer, ctx context.Context, name string) error {
			return in.SetEnabled(ctx, name, false)
		})
}
