package deps

import (
	"slices"

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
	values := slices.Clone(cmd.Args)
	for k, v := range cmd.Env {
		if k != "PATH" {
			values = append(values, v)
		}
	}
	paths, hosts := executor.Named(values...)
	hosts = append(hosts, registries...)
	slices.Sort(hosts)
	return &executor.Confinement{Work: []string{work}, Read: paths, Network: skill.NetworkAccess{Hosts: slices.Compact(hosts)}}
}
