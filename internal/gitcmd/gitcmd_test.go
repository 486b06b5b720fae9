package gitcmd

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCommandIsHardened(t *testing.T) {
	t.Setenv("GIT_DIR", "/host/repo") // a host variable git would obey
	host := map[string]string{"HTTPS_PROXY": "http://proxy:3128", "HOME": "/root", "GIT_CONFIG_GLOBAL": "/root/.gitconfig"}
	for _, allowFile := range []bool{false, true} {
		c := Command(Options{Path: "/usr/bin/git", Env: host, AllowFile: allowFile, Timeout: time.Minute}, "/work", "/tmp/op-home", "clone", "--", "https://x/y")
		if c.Path != "/usr/bin/git" || c.Dir != "/work" || c.Timeout != time.Minute {
			t.Errorf("command %+v", c)
		}
		args := strings.Join(c.Args, " ")
		for _, want := range []string{"-c core.hooksPath=" + os.DevNull, "-c credential.helper=", "-c http.followRedirects=false",
			"-c transfer.fsckObjects=true", "-c protocol.allow=never", "-c protocol.https.allow=always", "-c submodule.recurse=false"} {
			if !strings.Contains(args, want) {
				t.Errorf("args lack %q: %s", want, args)
			}
		}
		if !strings.HasSuffix(args, " clone -- https://x/y") {
			t.Errorf("the command's own arguments do not come last: %s", args)
		}
		if got := strings.Contains(args, "protocol.file.allow=always"); got != allowFile {
			t.Errorf("AllowFile %v: file protocol allowed %v", allowFile, got)
		}
		wantProtocols := map[bool]string{false: "https", true: "https:file"}[allowFile]
		for k, want := range map[string]string{"HOME": "/tmp/op-home", "XDG_CONFIG_HOME": "/tmp/op-home", "GIT_CONFIG_NOSYSTEM": "1",
			"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "",
			"GIT_ALLOW_PROTOCOL": wantProtocols, "GIT_LFS_SKIP_SMUDGE": "1", "HTTPS_PROXY": "http://proxy:3128"} {
			if v, ok := c.Env[k]; !ok || v != want {
				t.Errorf("env %s = %q (set %v), want %q", k, v, ok, want)
			}
		}
		if _, ok := c.Env["GIT_DIR"]; ok {
			t.Error("a host variable that was not given reaches git")
		}
	}
}

func TestIsCommitID(t *testing.T) {
	for s, want := range map[string]bool{
		strings.Repeat("a", 40): true, strings.Repeat("0", 64): true, strings.Repeat("a", 39): false,
		strings.Repeat("A", 40): false, strings.Repeat("g", 40): false, "": false,
	} {
		if IsCommitID(s) != want {
			t.Errorf("IsCommitID(%q) = %v", s, !want)
		}
	}
}

func TestLastLines(t *testing.T) {
	out := []byte("one\r\ntwo\n\x1b]0;pwned\x07three\n\n")
	if got, want := LastLines(out, 2), `two / \x1b]0;pwned\athree`; got != want {
		t.Errorf("LastLines = %q, want %q", got, want)
	}
	if got := LastLines(out, 5); !slices.Contains(strings.Split(got, " / "), "one") {
		t.Errorf("LastLines = %q, want every line", got)
	}
}
