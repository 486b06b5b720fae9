package deps

import (
	"encoding/json"
	"path"
	"slices"
	"sort"

	"github.com/skillkit-go/skillkit/skill"
)

// CodePaths returns the paths of s (slash paths relative to its folder) that
// hold code skillkit runs or installs for it: files — its entrypoint, setup
// scripts, requirements file and .NET project — and folders, everything
// below which counts — the folders of the entrypoint, setup scripts and
// project (a program's sibling files are its modules: Python puts the
// script's folder on sys.path, node requires relative paths, dotnet restore
// evaluates the project folder's MSBuild files), scripts/ of a skill with a
// runtime or an entrypoint, and the folders and tarballs package.json's
// file: dependencies reach (they are installed into node_modules, where the
// skill's code requires them). An agent may not change them in a skill a
// person installed.
func CodePaths(s *skill.Skill) (files, dirs []string) {
	add := func(p string, withDir bool) {
		clean, err := skill.CleanRelPath(p)
		if p == "" || err != nil {
			return
		}
		files = append(files, clean)
		if dir := path.Dir(clean); withDir && dir != "." {
			dirs = append(dirs, dir)
		}
	}
	if cfg := s.Config; cfg != nil {
		add(cfg.Entrypoint, true)
		add(cfg.Setup.Posix, true)
		add(cfg.Setup.Win32, true)
		if py := cfg.Dependencies.Python; py != nil {
			add(py.Source, false)
		}
		if d := cfg.Dependencies.Dotnet; d != nil {
			add(d.Project, true)
		}
		if cfg.Runtime != "" || cfg.Entrypoint != "" {
			dirs = append(dirs, "scripts")
		}
	}
	dirs = append(dirs, npmFileTargets(s)...)
	return files, dirs
}

// npmFileTargets returns the folders and tarballs s's package.json reaches
// through file: dependencies, followed as Install follows them
// (devDependencies too).
func npmFileTargets(s *skill.Skill) []string {
	var out []string
	seen := map[string]bool{}
	queue := []string{"."}
	for len(queue) > 0 && len(seen) <= maxNpmFileDeps {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		data, err := s.ReadFile(path.Join(dir, "package.json"))
		if err != nil {
			continue
		}
		var doc map[string]json.RawMessage
		json.Unmarshal(data, &doc)
		for _, sec := range [...]string{"dependencies", "optionalDependencies", "peerDependencies", "devDependencies"} {
			var deps map[string]string
			json.Unmarshal(doc[sec], &deps)
			for name, spec := range deps {
				if target, err := checkNpmSpec(name, spec, dir, true); err == nil && target != "" {
					out = append(out, target)
					queue = append(queue, target)
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}
