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
