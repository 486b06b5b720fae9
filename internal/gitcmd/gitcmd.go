package gitcmd

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// Options say how git runs.
type Options struct {
	// Path is the git program.
	Path string
	// Env adds the host's variables (a proxy, a CA bundle); the variables
	// this package sets win over them.
	Env map[string]string
	// AllowFile lets git use file:// remotes besides https.
	AllowFile bool
	// Timeout bounds the command.
	Timeout time.Duration
}

// config is passed with -c to every git command: no hooks, no credential
// helpers, no file system monitor, no redirects to other hosts, objects
// checked as they arrive.
func config() []string {
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

// Command returns the command that runs git with args in dir. home is an
// empty folder of the operation: HOME and XDG_CONFIG_HOME point at it, so
// no ~/.gitconfig or credentials are read.
func Command(o Options, dir, home string, args ...string) executor.Command {
	cfg := config()
	argv := make([]string, 0, 2*len(cfg)+2+len(args))
	for _, c := range cfg {
		argv = append(argv, "-c", c)
	}
	if o.AllowFile {
		argv = append(argv, "-c", "protocol.file.allow=always")
	}
	return executor.Command{Path: o.Path, Args: append(argv, args...), Dir: dir, Env: env(o, home), Timeout: o.Timeout}
}

// env is git's whole environment: the host's PATH (or Options.Env's), the
// host's extra variables, and ours, which win.
func env(o Options, home string) map[string]string {
	e := map[string]string{}
	if p := os.Getenv("PATH"); p != "" {
		e["PATH"] = p
	}
	if runtime.GOOS == "windows" {
		for _, k := range []string{"SystemRoot", "TEMP", "TMP"} {
			if v := os.Getenv(k); v != "" {
				e[k] = v
			}
		}
	}
	for k, v := range o.Env {
		e[k] = v
	}
	protocols := "https"
	if o.AllowFile {
		protocols = "https:file"
	}
	for k, v := range map[string]string{
		"HOME":                   home,
		"XDG_CONFIG_HOME":        home,
		"GIT_CONFIG_NOSYSTEM":    "1",
		"GIT_CONFIG_GLOBAL":      globalConfig(home),
		"GIT_TERMINAL_PROMPT":    "0",
		"GIT_ASKPASS":            "",
		"SSH_ASKPASS":            "",
		"GIT_ALLOW_PROTOCOL":     protocols,
		"GIT_PROTOCOL_FROM_USER": "0",
		"GIT_LFS_SKIP_SMUDGE":    "1",
		"LC_ALL":                 "C",
	} {
		e[k] = v
	}
	return e
}

// globalConfig is git's global configuration: a file in home that trusts
// every repository's ownership. A confined git runs as nobody on a root
// host, where a local source belongs to root; the upload-pack of a file://
// clone drops the -c options, and with no hooks and no fsmonitor another
// owner's repository runs nothing. The null device where home is not
// writable.
func globalConfig(home string) string {
	if home == "" {
		return os.DevNull
	}
	p := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(p, []byte("[safe]\n\tdirectory = *\n"), 0o644); err != nil {
		return os.DevNull
	}
	return p
}

// IsCommitID reports whether s is a full SHA-1 or SHA-256 object id.
func IsCommitID(s string) bool {
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

// LastLines returns the last n non-empty lines of out, joined with " / ",
// with control characters escaped so remote text cannot drive a terminal.
func LastLines(out []byte, n int) string {
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
