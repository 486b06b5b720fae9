package deps

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillkit-go/skillkit/executor"
)

// An install step reaches its staging folder, the local paths its command
// names, and through the proxy the registries and the hosts its command
// names: never the whole network.
func TestInstallConfinement(t *testing.T) {
	wheels, work := t.TempDir(), t.TempDir()
	cmd := executor.Command{Path: "pip", Dir: work,
		Args: []string{"install", "--find-links", wheels, "--index-url=http://127.0.0.1:8080/simple", "-r", filepath.Join(work, "req.txt"), "/nonexistent/x.whl"},
		Env:  map[string]string{"npm_config_registry": "https://npm.corp.example:4873/", "PATH": "/usr/bin"}}
	if err := os.WriteFile(filepath.Join(work, "req.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := installConfinement(cmd, work, DefaultRegistryHosts())
	if c.Network.All {
		t.Fatal("an install step got the whole network")
	}
	for _, h := range []string{"pypi.org", "files.pythonhosted.org", "registry.npmjs.org", "127.0.0.1:8080", "npm.corp.example:4873"} {
		if !slices.Contains(c.Network.Hosts, h) {
			t.Errorf("hosts %v lack %s", c.Network.Hosts, h)
		}
	}
	if !slices.Equal(c.Work, []string{work}) || !slices.Contains(c.Read, wheels) || slices.Contains(c.Read, "/nonexistent/x.whl") || len(c.Write) != 0 {
		t.Errorf("files: work %v, read %v, write %v", c.Work, c.Read, c.Write)
	}
	if c.Network.AllowsHost("evil.example", 443) {
		t.Error("an unnamed host is reachable")
	}
}
