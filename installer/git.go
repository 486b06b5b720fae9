package installer

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/skillkit-go/skillkit/executor"
)

// gitConfig is passed with -c to every git command: no hooks, no
// credential helpers, no file system monitor, no redirects to other hosts,
// objects checked as they arrive.
func gitConfig() []string {
	return []string{
		"core.hooksPath=" + os.DevNull,
		"core.fsmonitor=false",
		"credential.helper=",
		"http.followRedirects=false",
		"transfer.fsckObjects=true",
		"submodule.recurse=false",
		"protocol.allow=never",
		"protocol.https.allow=always",
		"advice.detachedHead=false",
		"init.templateDir=",
	}
}

// gitArgs returns the -c options followed by args.
func (in *Installer) gitArgs(args ...string) []string {
	config := gitConfig()
	out := make([]string, 0, 2*len(config)+2+len(args))
	for _, c := range config {
		out = append(out, "-c", c)
	}
	if in.opt.allowFile {
		out = append(out, "-c", "protocol.file.allow=always")
	}
	return append(out, args...)
}

// gitEnv is git's whole environment: the host's PATH (or GitEnv's), the
// host's extra variables, and ours, which win. home is an empty folder of
// the operation, so no ~/.gitconfig or credentials are read.
func (in *Installer) gitEnv(home string) map[string]string {
	env := map[string]string{}
	if p := os.Getenv("PATH"); p != "" {
		env["PATH"] = p
	}
	if runtime.GOOS == "windows" {
		for _, k := range []string{"SystemRoot", "TEMP", "TMP"} {
			if v := os.Getenv(k); v != "" {
				env[k] = v
			}
		}
	}
	for k, v := range in.opt.gitEnv {
		env[k] = v
	}
	protocols := "https"
	if in.opt.allowFile {
		protocols = "https:file"
	}
	for k, v := range map[string]string{
		"HOME":                   home,
		"XDG_CONFIG_HOME":        home,
		"GIT_CONFIG_NOSYSTEM":    "1",
		"GIT_CONFIG_GLOBAL":      os.DevNull,
		"GIT_TERMINAL_PROMPT":    "0",
		"GIT_ASKPASS":            "",
		"SSH_ASKPASS":            "",
		"GIT_ALLOW_PROTOCOL":     protocols,
		"GIT_PROTOCOL_FROM_USER": "0",
		"GIT_LFS_SKIP_SMUDGE":    "1",
		"LC_ALL":                 "C",
	} {
		env[k] = v
	}
	return env
}

// runGit runs git through the Runner. A non-zero exit or a timeout is a
// *GitError; an error of the Runner (git not found, ctx done) is returned
// as it is.
func (in *Installer) runGit(ctx context.Context, op, url, dir, home string, args ...string) ([]byte, error) {
	res, err := in.opt.runner.Run(ctx, executor.Command{
		Path:    in.opt.git,
		Args:    in.gitArgs(args...),
		Dir:     dir,
		Env:     in.gitEnv(home),
		Timeout: in.opt.gitTimeout,
	})
	if err != nil {
		return nil, fmt.Errorf("git %s %s: %w", op, url, err)
	}
	if res.ExitCode != 0 || res.TimedOut {
		return nil, &GitError{Op: op, URL: url, ExitCode: res.ExitCode, TimedOut: res.TimedOut, Stderr: lastLines(res.Stderr, 5)}
	}
	return res.Stdout, nil
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
	if !isCommitID(id) {
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
		if ok && isCommitID(id) {
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

// isCommitID reports whether s is a full SHA-1 or SHA-256 object id.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// lastLines returns the last n non-empty lines of out, with control
// characters escaped so remote text cannot drive a terminal.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		q := strconv.Quote(strings.TrimRight(l, "\r"))
		lines[i] = q[1 : len(q)-1]
	}
	return strings.Join(lines, " / ")
}
