package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileMCPEnv makes the test binary an MCP server that answers
// skills/list with one page of 12 MB of dense JSON.
const hostileMCPEnv = "SKILLKIT_TEST_HOSTILE_MCP"

func serveHostileMCP() {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"io.modelcontextprotocol/skills":{}}},"serverInfo":{"name":"hostile","version":"1"}}}`+"\n", m.ID)
		case "skills/list":
			var b bytes.Buffer
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%s,"result":{"skills":[{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","x":[{}`, m.ID)
			for b.Len() < 12<<20 {
				b.WriteString(`,{}`)
			}
			b.WriteString(`]},"resources":[]}]}}` + "\n")
			os.Stdout.Write(b.Bytes())
		}
	}
}

// skillkit install from an MCP server that sends one 12 MB skills/list
// page stays under 200 MB and fails with a clear error.
func TestInstallFromHostileMCPServerIsBounded(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "install", "--dir", t.TempDir(), "--", "mcp+stdio:env", hostileMCPEnv+"=1", exe)
	cmd.Env = []string{runMainEnv + "=1", hostileMCPEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), "more than its size allows") {
		t.Fatalf("install: %v\n%s", err, stderr.String())
	}
	maxRSS := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("peak resident memory of skillkit: %d MB", maxRSS>>20)
	if maxRSS > 200<<20 {
		t.Errorf("skillkit used %d MB", maxRSS>>20)
	}
}
