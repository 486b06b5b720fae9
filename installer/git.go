package installer

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/gitcmd"
	"github.com/skillkit-go/skillkit/provenance"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// runGit runs git through the Runner. A non-zero exit or a timeout is a
// *GitError; an error of the Runner (git not found, ctx done) is returned
// as it is.
func (in *Installer) runGit(ctx context.Context, op, url, dir, home string, args ...string) ([]byte, error) {
	cmd := gitcmd.Command(in.opt.git, dir, home, args...)
	cmd.Confine = gitConfinement(home, url)
	res, err := in.opt.runner.Run(ctx, cmd)
	if err != nil {
		return nil, fmt.Errorf("git %s %s: %w", op, url, err)
	}
	if res.ExitCode != 0 || res.TimedOut {
		return nil, &GitError{Op: op, URL: url, ExitCode: res.ExitCode, TimedOut: res.TimedOut, Stderr: gitcmd.LastLines(res.Stderr, 5)}
	}
	return res.Stdout, nil
}

// gitConfinement is what git may reach: the operation's staging folder
// (its home sits there, beside the clone), the network, and a local
// source's folder.
func gitConfinement(home, url string) *executor.Confinement {
	c := &executor.Confinement{Work: []string{filepath.Dir(home)}, Network: skill.NetworkAccess{All: true}}
	if p, ok := strings.CutPrefix(url, "file://"); ok {
		c.Read = append(c.Read, p)
	} else if filepath.IsAbs(url) {
		c.Read = append(c.Read, url)
	}
	return c
}

// clone makes a shallow clone of g into dest (which must not exist) and
// returns the commit checked out.
func (in *Installer) clone(ctx context.Context, g gitSource, dest, home string) (commit string, err error) {
	args := []string{"clone", "--depth", "1", "--no-recurse-submodules", "--quiet"}
	if g.ref != "" {
		args = append(args, "--branch", g.ref)
	}
	args = append(args, "--", g.cloneURL, dest)
	if _, err := in.runGit(ctx, "clone", g.url, home, home, args...); err != nil {
		return "", err
	}
	return in.revParse(ctx, g, dest, home, "HEAD^{commit}")
}

// treeOf is the revision of the tree of folder subdir ("" for the top) at
// commit-ish rev.
func treeOf(rev, subdir string) string {
	if subdir == "" {
		return rev + "^{tree}"
	}
	return rev + ":" + subdir
}

// revParse resolves rev to an object id in the repository at dir.
func (in *Installer) revParse(ctx context.Context, g gitSource, dir, home, rev string) (string, error) {
	out, err := in.runGit(ctx, "rev-parse", g.url, dir, home, "rev-parse", "--verify", "--end-of-options", rev)
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(out))
	if !gitcmd.IsCommitID(id) {
		return "", fmt.Errorf("installer: git rev-parse %s %s: unexpected output %q", g.url, rev, id)
	}
	return id, nil
}

// lsRemote returns the commit the remote's ref (or default branch) points
// to now. A branch wins over a tag of the same name, as for git clone
// --branch; an annotated tag counts as the commit it points to.
func (in *Installer) lsRemote(ctx context.Context, g gitSource, home string) (string, error) {
	patterns := []string{"HEAD"}
	if g.ref != "" {
		patterns = []string{"refs/heads/" + g.ref, "refs/tags/" + g.ref, "refs/tags/" + g.ref + "^{}"}
	}
	args := append([]string{"ls-remote", "--", g.cloneURL}, patterns...)
	out, err := in.runGit(ctx, "ls-remote", g.url, home, home, args...)
	if err != nil {
		return "", err
	}
	found := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		id, ref, ok := strings.Cut(sc.Text(), "\t")
		if ok && gitcmd.IsCommitID(id) {
			found[ref] = id
		}
	}
	for _, p := range []string{"HEAD", "refs/heads/" + g.ref, "refs/tags/" + g.ref + "^{}", "refs/tags/" + g.ref} {
		if id, ok := found[p]; ok && (p == "HEAD") == (g.ref == "") {
			return id, nil
		}
	}
	what := "the default branch"
	if g.ref != "" {
		what = "the ref " + g.ref
	}
	return "", fmt.Errorf("%w: git ls-remote %s: %s not found", ErrGit, g.url, what)
}

// signature checks the publisher's signature of commit, checked out in the
// clone at dir, and, when g's ref is an annotated tag pointing to it, of
// the tag: git gives the raw objects (git cat-file), package provenance
// checks them against Options.Publishers. A signature that does not verify
// is an error wrapping ErrBadSignature. Of two signatures, a verified one
// is recorded; else the commit's, unless only the tag is signed.
func (in *Installer) signature(ctx context.Context, g gitSource, dir, home, commit string) (*registry.Signer, error) {
	raw, err := in.runGit(ctx, "cat-file", g.url, dir, home, "cat-file", "commit", commit)
	if err != nil {
		return nil, err
	}
	sig := in.opt.signers.VerifyCommit(raw)
	if sig.State == provenance.Broken {
		return nil, fmt.Errorf("%w: commit %s of %s: %s", ErrBadSignature, commit, g.url, sig.Reason)
	}
	out := signerOf(sig, "commit "+commit)
	if g.ref == "" {
		return out, nil
	}
	tag, err := in.annotatedTag(ctx, g, dir, home, commit)
	if err != nil || tag == nil {
		return out, err
	}
	tsig := in.opt.signers.VerifyTag(tag)
	if tsig.State == provenance.Broken {
		return nil, fmt.Errorf("%w: tag %s of %s: %s", ErrBadSignature, g.ref, g.url, tsig.Reason)
	}
	if tsig.State == provenance.Verified && sig.State != provenance.Verified || sig.State == provenance.Unsigned && tsig.State != provenance.Unsigned {
		out = signerOf(tsig, "tag "+g.ref)
	}
	return out, nil
}

// annotatedTag returns the raw tag object refs/tags/<g.ref> names in the
// clone at dir when it is an annotated tag of commit; nil otherwise (a
// branch, a lightweight tag, a tag of another commit).
func (in *Installer) annotatedTag(ctx context.Context, g gitSource, dir, home, commit string) ([]byte, error) {
	out, err := in.runGit(ctx, "for-each-ref", g.url, dir, home, "for-each-ref", "--format=%(objecttype) %(objectname) %(*objectname)", "--", "refs/tags/"+g.ref)
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(out))
	if len(f) != 3 || f[0] != "tag" || f[2] != commit || !gitcmd.IsCommitID(f[1]) {
		return nil, nil
	}
	return in.runGit(ctx, "cat-file", g.url, dir, home, "cat-file", "tag", f[1])
}

// signerOf is what the record keeps of a signature over object.
func signerOf(sig provenance.Signature, object string) *registry.Signer {
	return &registry.Signer{State: string(sig.State), Principals: sig.Principals, Key: sig.Key, Object: object,
		Format: sig.Format, Issuer: sig.Issuer, Digest: sig.Digest}
}
