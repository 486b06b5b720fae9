//go:build !lean

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/skillkit-go/skillkit/provenance"
	"golang.org/x/crypto/ssh"
)

type signOptions struct {
	key       string
	principal string
	repo      string
}

func signCommand() *command {
	return &command{
		name:    "sign",
		args:    "[--key FILE] [--principal EMAIL] [--repo DIR] git | zip ARCHIVE",
		summary: "show a publisher how to sign a skill so that skillkit verifies it, and check a ZIP archive's bundle",
		help: `
git: prints how to sign a skill repository's commits and tags with an SSH
key (git 2.34 or later), and the allowed-signers line hosts add to their
publishers file for it: with --key (the private key file; its .pub beside
it is read) the line names that key, with --principal (default EMAIL) the
publisher. With --repo and --key it also sets gpg.format=ssh and
user.signingkey in that repository's git configuration, so git commit -S
and git tag -s sign with the key.

zip: prints how to sign ARCHIVE with Sigstore (cosign sign-blob, keyless)
so that its bundle, ARCHIVE.sigstore.json, is published beside it, and the
JSON publishers file hosts write for the identity. When that bundle is
there and --publishers names a publishers file, the bundle is checked as an
install would check it, offline: exit status 1 when it does not verify or
its identity is not listed.`,
		flags: func(fs *flag.FlagSet) any {
			o := &signOptions{}
			fs.StringVar(&o.key, "key", "", "the SSH private key `FILE` that signs (git)")
			fs.StringVar(&o.principal, "principal", "", "the publisher's `EMAIL` in the allowed-signers line (git)")
			fs.StringVar(&o.repo, "repo", "", "set the signing configuration in the git repository `DIR` (git, with --key)")
			return o
		},
		run: runSign,
	}
}

func runSign(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*signOptions)
	switch {
	case len(args) == 1 && args[0] == "git":
		return signGit(ctx, c, o)
	case len(args) == 2 && args[0] == "zip":
		if o.key != "" || o.repo != "" || o.principal != "" {
			fmt.Fprintln(c.stderr, "skillkit sign: --key, --principal and --repo go with git")
			return exitUsage
		}
		return signZip(c, args[1])
	}
	fmt.Fprintln(c.stderr, "skillkit sign: give git, or zip and the archive")
	return exitUsage
}

// signGit prints, and with --repo sets, git's SSH signing configuration.
func signGit(ctx context.Context, c *cli, o *signOptions) int {
	if o.repo != "" && o.key == "" {
		fmt.Fprintln(c.stderr, "skillkit sign: --repo needs --key")
		return exitUsage
	}
	key, pub := "KEY", "ssh-ed25519 AAAA..."
	if o.key != "" {
		line, err := publicKeyLine(o.key)
		if err != nil {
			return c.fail("sign", err)
		}
		key, pub = o.key, line
	}
	principal := o.principal
	if principal == "" {
		principal = "EMAIL"
	}
	if o.repo != "" {
		for _, kv := range [][2]string{{"gpg.format", "ssh"}, {"user.signingkey", key}} {
			cmd := exec.CommandContext(ctx, "git", "-C", o.repo, "config", "--local", kv[0], kv[1])
			if out, err := cmd.CombinedOutput(); err != nil {
				return c.fail("sign", fmt.Errorf("git config %s in %s: %v: %s", kv[0], o.repo, err, strings.TrimSpace(string(out))))
			}
		}
		fmt.Fprintf(c.info(), "%s signs with %s: gpg.format=ssh, user.signingkey set\n", o.repo, key)
	}
	fmt.Fprintf(c.stdout, `Sign the commits and tags hosts install with an SSH key (git 2.34 or later):
  git config gpg.format ssh
  git config user.signingkey %s
  git commit -S -m "release 1.0.0"     (or: git config commit.gpgsign true)
  git tag -s v1.0.0 -m "v1.0.0"        (install with --ref v1.0.0: the tag's signature counts)
Hosts add this line to their allowed-signers file (skillkit --publishers FILE):
  %s namespaces="git" %s
`, key, principal, pub)
	return exitOK
}

// publicKeyLine is the authorized-keys line of the public half of the
// private key file key: key.pub, else key itself when it holds a public key.
func publicKeyLine(key string) (string, error) {
	for _, p := range []string{key + ".pub", key} {
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		pk, _, _, _, err := ssh.ParseAuthorizedKey(data)
		if err != nil {
			continue
		}
		return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pk))), nil
	}
	return "", fmt.Errorf("no public key for %s (looked for %s.pub)", key, key)
}

// signZip prints how to sign archive with Sigstore and checks its bundle
// when there is one and publishers are given.
func signZip(c *cli, archive string) int {
	bundle := archive + provenance.BundleSuffix
	example, _ := json.MarshalIndent(map[string]any{"sigstore": map[string]any{
		"trusted_root": "trusted_root.json",
		"identities": []provenance.Identity{
			{SAN: "https://github.com/OWNER/REPO/.github/workflows/release.yml@refs/tags/v1.0.0", Issuer: "https://token.actions.githubusercontent.com"},
			{SANRegexp: `^https://github\.com/OWNER/REPO/\.github/workflows/release\.yml@refs/tags/`, Issuer: "https://token.actions.githubusercontent.com"},
		},
	}}, "  ", "  ")
	fmt.Fprintf(c.stdout, `Sign the archive with Sigstore (keyless) and publish the bundle beside it:
  cosign sign-blob --yes --bundle %s %s
In GitHub Actions (permissions: id-token: write) the identity is the workflow's URI and
the issuer https://token.actions.githubusercontent.com; run by hand, your email and your
OIDC provider. skillkit install reads %s beside the archive.
Hosts list the identity in a JSON publishers file (skillkit --publishers FILE), with a
trusted root (cosign trusted-root create, or the Sigstore TUF repository's trusted_root.json):
  %s
`, shellWord(bundle), shellWord(archive), bundle, example)
	file := publishersFile(c, true)
	data, err := provenance.ReadBundle(bundle)
	if err != nil {
		return c.fail("sign", err)
	}
	if data == nil || file == "" {
		return exitOK
	}
	publishers, err := provenance.LoadPublishers(file, nil)
	if err != nil {
		return c.fail("sign", err)
	}
	f, err := os.Open(archive)
	if err != nil {
		return c.fail("sign", err)
	}
	defer f.Close()
	sig, err := publishers.VerifyBundleOver(data, f)
	if err != nil {
		return c.fail("sign", err)
	}
	switch sig.State {
	case provenance.Verified:
		fmt.Fprintf(c.stdout, "%s: verified, %s (issuer %s), %s\n", bundle, safeText(sig.Key), safeText(sig.Issuer), sig.Digest)
		return exitOK
	case provenance.UnknownSigner:
		return c.fail("sign", fmt.Errorf("%s: signed by %s (issuer %s), which %s does not list", bundle, sig.Key, sig.Issuer, file))
	}
	return c.fail("sign", fmt.Errorf("%s: %s: %s", bundle, sig.State, sig.Reason))
}

// shellWord quotes s for a POSIX shell when it needs quoting.
func shellWord(s string) string {
	if s != "" && !bytes.ContainsAny([]byte(s), " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
