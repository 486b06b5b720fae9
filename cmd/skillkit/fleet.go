//go:build !lean

package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/skillkit-go/skillkit/registry"
)

func fleetCommand() *command {
	return &command{
		name:    "fleet",
		args:    "keygen FILE",
		summary: "make the key that signs what a replica installs (replicas on one database)",
		help: `
skillkit fleet keygen FILE writes a new Ed25519 private key to FILE (mode
0600; an existing file is never overwritten) and prints its public key,
ed25519:BASE64, as the last line.

Replicas on one database (--db) trust the database only as far as it is
signed: a replica given the private key (--fleet-key FILE or
$SKILLKIT_FLEET_KEY) signs each skill it installs and uninstalls; a replica
given public keys (--fleet-trust PUB[,PUB...] or $SKILLKIT_FLEET_TRUST)
syncs only what one of them signed, and keeps what it holds otherwise. A
replica with no trusted key refuses to sync unless --fleet-unsigned (or
SKILLKIT_FLEET_UNSIGNED=1). See docs/fleet.md.`,
		run: runFleet,
	}
}

func runFleet(_ context.Context, c *cli, _ any, args []string) int {
	if len(args) != 2 || args[0] != "keygen" {
		fmt.Fprintln(c.stderr, "skillkit fleet: usage: skillkit fleet keygen FILE")
		return exitUsage
	}
	pemData, pub, err := registry.NewFleetKey()
	if err != nil {
		return c.fail("fleet keygen", err)
	}
	f, err := os.OpenFile(args[1], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return c.fail("fleet keygen", err)
	}
	_, werr := f.Write(pemData)
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		os.Remove(args[1])
		return c.fail("fleet keygen", err)
	}
	fmt.Fprintf(c.info(), "wrote the private key to %s: keep it on the replicas that install; give the public key to every replica (--fleet-trust)\n", args[1])
	fmt.Fprintln(c.stdout, registry.FormatPublicKey(pub))
	return exitOK
}
