package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/skill"
)

// testMCPArg, as the first argument, makes the test binary an MCP server
// (servers run confined and with a small environment, so an argument says
// what to serve): with no more arguments one that answers skills/list
// with one page of 12 MB of dense JSON; with a skill's name, one that
// serves that skill.
const testMCPArg = "serve-test-mcp"

func serveTestMCP(args []string) {
	if len(args) > 0 {
		serveSkillMCP(args[0])
		return
	}
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
		default: // server/discover among them: JSON-RPC answers every request
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID)
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
	cmd := exec.CommandContext(ctx, exe, "install", "--dir", t.TempDir(), "--", "mcp+stdio:"+exe, testMCPArg)
	cmd.Env = []string{runMainEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), "more than its size allows") {
		t.Fatalf("install: %v\n%s", err, stderr.String())
	}
	maxRSS := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("peak resident memory of skillkit: %d MB", maxRSS>>20)
	limit := int64(200 << 20)
	if raceBuild {
		limit *= 2 // the race detector's shadow memory; unbounded, the page takes gigabytes
	}
	if maxRSS > limit {
		t.Errorf("skillkit used %d MB, more than %d MB", maxRSS>>20, limit>>20)
	}
}

// serveSkillMCP serves a skill named name, written into a folder of its
// own, over the Skills extension: initialize, skills/list, skills/get and
// resources/read, enough for an install and an update check.
func serveSkillMCP(name string) {
	dir := filepath.Join(os.TempDir(), "served", name)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md(name, "v1")), 0o644)
	s, _ := skill.Load(os.DirFS(filepath.Dir(dir)), filepath.Base(dir), &skill.LoadOptions{DiskRoot: filepath.Dir(dir)})
	entry, err := mcpskills.Entry(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	in := bufio.NewReader(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				URI string `json:"uri"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
			continue
		}
		var result any
		switch m.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": mcpskills.LegacyProtocolVersion, "serverInfo": map[string]any{"name": "test", "version": "1"},
				"capabilities": map[string]any{"resources": map[string]any{}, "extensions": map[string]any{mcpskills.ExtensionID: map[string]any{}}}}
		case mcpskills.MethodList:
			result = map[string]any{"skills": []any{entry}}
		case mcpskills.MethodGet:
			result = map[string]any{"skill": entry}
		case "resources/read":
			_, rel, _ := mcpskills.SplitServed(m.Params.URI)
			data, _ := mcpskills.ReadServed(s, rel)
			result = map[string]any{"contents": []any{map[string]any{"uri": m.Params.URI, "text": string(data)}}}
		}
		out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}
}

// install from an MCP server adds the command the person typed to the
// list of allowed servers, so outdated may start it; with another list,
// outdated refuses to.
func TestInstallFromMCPServerAllowsItsCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	skills := filepath.Join(t.TempDir(), "skills")
	list := filepath.Join(t.TempDir(), "config", "skillkit", "mcp-servers")
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Dir(filepath.Dir(list))}
	code, out, errOut := runCLIEnv(t, env, "install", "--dir", skills, "--", "mcp+stdio:"+exe, testMCPArg, "notes")
	if code != exitOK || !strings.Contains(out+errOut, "added to "+list) {
		t.Fatalf("install: exit %d\n%s\n%s", code, out, errOut)
	}
	allowed, err := mcpskills.ReadAllowList(list)
	if err != nil || len(allowed) != 1 || allowed[0][len(allowed[0])-1] != "notes" {
		t.Fatalf("the list: %q, %v", allowed, err)
	}
	if code, _, errOut := runCLIEnv(t, env, "outdated", "--dir", skills); code != exitOK || strings.Contains(errOut, "not on the host's list") {
		t.Errorf("outdated with the command listed: exit %d %s", code, errOut)
	}
	other := map[string]string{"SKILLKIT_MCP_SERVERS": filepath.Join(t.TempDir(), "none")}
	if code, _, errOut := runCLIEnv(t, other, "outdated", "--dir", skills); code != exitFailure || !strings.Contains(errOut, "not on the host's list") {
		t.Errorf("outdated with another list: exit %d %s", code, errOut)
	}
}
