package deps

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
)

// DefaultRegistryHosts are the package registries a dependency install may
// reach besides the hosts its command names (an index URL in PipArgs, a
// registry in npm's configuration).
func DefaultRegistryHosts() []string {
	return []string{
		"pypi.org", "files.pythonhosted.org", // pip, uv
		"registry.npmjs.org",                                    // npm
		"api.nuget.org", "www.nuget.org", "globalcdn.nuget.org", // dotnet restore
	}
}

// installConfinement is what one step of a dependency install may reach:
// its staging folder (work, lent to it), the files and folders its command
// names by absolute path (a local index, a wheel, a package tarball), and
// the network to the package registries and the hosts its command names,
// through the filtering proxy.
func installConfinement(cmd executor.Command, work string, registries []string) *executor.Confinement {
	c := &executor.Confinement{Work: []string{work}}
	hosts := slices.Clone(registries)
	consider := func(v string) {
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\n' }) {
			if _, val, ok := strings.Cut(part, "="); ok && strings.HasPrefix(part, "-") {
				part = val
			}
			part = strings.TrimPrefix(part, "file:")
			if u, err := url.Parse(part); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
				host := u.Hostname()
				if strings.Contains(host, ":") {
					host = "[" + host + "]"
				}
				if p := u.Port(); p != "" {
					host = net.JoinHostPort(strings.Trim(host, "[]"), p)
				}
				hosts = append(hosts, strings.ToLower(host))
				continue
			}
			part = strings.TrimPrefix(part, "//")
			if filepath.IsAbs(part) {
				if _, err := os.Stat(part); err == nil && !slices.Contains(c.Read, part) {
					c.Read = append(c.Read, filepath.Clean(part))
				}
			}
		}
	}
	for _, a := range cmd.Args {
		consider(a)
	}
	for k, v := range cmd.Env {
		if k != "PATH" {
			consider(v)
		}
	}
	slices.Sort(hosts)
	c.Network = skill.NetworkAccess{Hosts: slices.Compact(hosts)}
	return c
}
