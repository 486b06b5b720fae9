package installer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/skillkit-go/skillkit/skill"
)

// depsPlan is everything InstallDeps will do for one skill, every name and
// path in it already checked.
type depsPlan struct {
	python      []string // requirement lines (with --hash options), in order
	venv        bool     // a .venv is wanted: Python dependencies are declared, even if none are listed
	node        []string // npm packages to add to package.json's
	packageJSON bool     // the skill has a package.json with dependencies
	dotnet      string   // project path inside the skill
	system      []skill.SystemDep
	checks      [][]string // argv of each system dep's check, nil for none
	setup       string     // the setup script for this OS, inside the skill
	notes       []string   // install specs skillkit does not run, with why
}

// specKind maps a frontmatter install spec kind (OpenClaw's and the seed's
// metadata.install) onto the per-skill dependency it installs: StepPython
// for uv, pip and python, StepNode for node and npm, "" for the others.
func specKind(kind string) Step {
	switch strings.ToLower(kind) {
	case "uv", "pip", "python":
		return StepPython
	case "node", "npm":
		return StepNode
	}
	return ""
}

// specApplies reports whether an install spec is for this OS.
func specApplies(spec skill.InstallSpec) bool {
	return len(spec.OS) == 0 || slices.Contains(spec.OS, runtime.GOOS)
}

// planDeps reads what s declares — skill.config.yaml's dependencies and
// setup, the frontmatter's install specs of kind uv/pip (Python) and
// node/npm, the skill's requirements file and package.json — and checks
// every package name, requirement, path and check command before anything
// runs. fsys is the skill folder.
func planDeps(s *skill.Skill, fsys fs.FS) (*depsPlan, error) {
	p := &depsPlan{}
	var cfg skill.Config
	if s.Config != nil {
		cfg = *s.Config
	}
	if py := cfg.Dependencies.Python; py != nil {
		if py.Source != "" {
			rel, err := insidePath("dependencies.python.source", py.Source)
			if err != nil {
				return nil, err
			}
			data, err := readSmall(fsys, rel, MaxRequirementsBytes)
			if err != nil {
				return nil, fmt.Errorf("%w: dependencies.python.source %s: %w", ErrInvalidDependency, rel, err)
			}
			if p.python, err = ParseRequirements(data); err != nil {
				return nil, fmt.Errorf("%s: %w", rel, err)
			}
		}
		for _, req := range py.Inline {
			if err := ValidatePythonRequirement(req); err != nil {
				return nil, fmt.Errorf("dependencies.python.inline: %w", err)
			}
			p.python = append(p.python, req)
		}
	}
	if n := cfg.Dependencies.Node; n != nil {
		for _, pkg := range n.Packages {
			if err := ValidateNpmPackage(pkg); err != nil {
				return nil, fmt.Errorf("dependencies.node.packages: %w", err)
			}
			p.node = append(p.node, pkg)
		}
	}
	for _, spec := range s.Frontmatter.Install {
		kind := specKind(spec.Kind)
		switch {
		case !specApplies(spec):
			continue
		case kind == StepPython && spec.Package != "":
			if err := ValidatePythonRequirement(spec.Package); err != nil {
				return nil, fmt.Errorf("metadata.install (%s): %w", spec.Kind, err)
			}
			if !slices.Contains(p.python, spec.Package) {
				p.python = append(p.python, spec.Package)
			}
		case kind == StepNode && spec.Package != "":
			if err := ValidateNpmPackage(spec.Package); err != nil {
				return nil, fmt.Errorf("metadata.install (%s): %w", spec.Kind, err)
			}
			if !slices.Contains(p.node, spec.Package) {
				p.node = append(p.node, spec.Package)
			}
		default:
			what := firstNonEmpty(spec.Package, spec.Formula, spec.Module, spec.URL, spec.Label, spec.ID)
			p.notes = append(p.notes, fmt.Sprintf("install spec %s %s: not run; skillkit installs only per-skill Python (uv) and Node (node) packages", spec.Kind, what))
		}
	}
	// The executor runs a skill that declares Python dependencies only with
	// its own .venv, so one is built even when the list turns out empty.
	p.venv = cfg.Dependencies.Python != nil || len(p.python) > 0
	if len(p.python) > MaxRequirements || len(p.node) > MaxRequirements {
		return nil, fmt.Errorf("%w: more than %d packages", ErrInvalidDependency, MaxRequirements)
	}
	pkgJSON, err := readSmall(fsys, "package.json", 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("%w: package.json: %w", ErrInvalidDependency, err)
	default:
		n, err := checkPackageJSON(pkgJSON)
		if err != nil {
			return nil, err
		}
		p.packageJSON = n > 0
	}
	if d := cfg.Dependencies.Dotnet; d != nil {
		if p.dotnet, err = insidePath("dependencies.dotnet.project", d.Project); err != nil {
			return nil, err
		}
	}
	for _, dep := range cfg.Dependencies.System {
		var argv []string
		if dep.Check != "" {
			if argv, err = SplitCheckCommand(dep.Check); err != nil {
				return nil, fmt.Errorf("dependencies.system %s: %w", dep.Name, err)
			}
		}
		p.system = append(p.system, dep)
		p.checks = append(p.checks, argv)
	}
	script := cfg.Setup.Posix
	if runtime.GOOS == "windows" {
		script = cfg.Setup.Win32
	}
	if script != "" {
		if p.setup, err = insidePath("setup", script); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// insidePath checks again a path skill.ParseConfig already checked: it
// must be relative, stay inside the skill folder and be written in its
// clean form, so that no ".." survives anywhere in it.
func insidePath(field, p string) (string, error) {
	clean, err := skill.CleanRelPath(p)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrInvalidDependency, field, err)
	}
	if slices.Contains(strings.Split(strings.ReplaceAll(p, `\`, "/"), "/"), "..") {
		return "", fmt.Errorf("%w: %s: %q holds \"..\"", ErrInvalidDependency, field, p)
	}
	return clean, nil
}

// readSmall reads a file of at most max bytes; a larger one is an error.
func readSmall(fsys fs.FS, name string, max int64) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if info.Size() > max {
		return nil, fmt.Errorf("%s is over %d bytes", name, max)
	}
	return fs.ReadFile(fsys, name)
}

// npmRangeRE is a registry version, range or tag as package.json writes it:
// "^1.2.0", ">=1 <2", "1.x || 2.x", "latest", "*", "".
var npmRangeRE = regexp.MustCompile(`^[A-Za-z0-9^~>=<.*|+ -]*$`)

// checkPackageJSON checks the dependencies of a skill's package.json and
// returns how many there are. Names must be npm names; a spec must be a
// registry version, range or tag, an "npm:" alias of a registry package,
// or a "file:" path inside the skill folder. git, GitHub shorthands, URLs,
// "link:" and paths leaving the skill are refused, in overrides too: the
// same rule as for the packages skill.config.yaml names.
func checkPackageJSON(data []byte) (int, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return 0, fmt.Errorf("%w: package.json is not a JSON object: %w", ErrInvalidDependency, err)
	}
	count := 0
	// The sections npm install reads dependencies from (devDependencies are
	// left out: InstallDeps passes --omit=dev).
	for _, sec := range [...]string{"dependencies", "optionalDependencies", "peerDependencies"} {
		raw, ok := doc[sec]
		if !ok {
			continue
		}
		var deps map[string]string
		if err := json.Unmarshal(raw, &deps); err != nil {
			return 0, fmt.Errorf("%w: package.json %s: want an object of strings: %w", ErrInvalidDependency, sec, err)
		}
		names := make([]string, 0, len(deps))
		for name := range deps {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if err := checkNpmName(name); err != nil {
				return 0, fmt.Errorf("package.json %s: %w", sec, err)
			}
			if err := checkNpmSpec(name, deps[name]); err != nil {
				return 0, fmt.Errorf("package.json %s: %w", sec, err)
			}
		}
		count += len(deps)
	}
	if raw, ok := doc["overrides"]; ok {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return 0, fmt.Errorf("%w: package.json overrides: %w", ErrInvalidDependency, err)
		}
		if err := checkOverrides("overrides", v); err != nil {
			return 0, err
		}
	}
	if count > MaxRequirements {
		return 0, fmt.Errorf("%w: package.json declares more than %d dependencies", ErrInvalidDependency, MaxRequirements)
	}
	return count, nil
}

// checkNpmName checks a dependency name (no version).
func checkNpmName(name string) error {
	if err := ValidateNpmPackage(name); err != nil {
		return err
	}
	if strings.Contains(name[1:], "@") {
		return fmt.Errorf("%w: npm dependency name %q holds a version", ErrInvalidDependency, name)
	}
	return nil
}

// checkNpmSpec checks what package.json asks for one dependency.
func checkNpmSpec(name, spec string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: %s %q: %s", ErrInvalidDependency, name, spec, why)
	}
	switch {
	case len(spec) > MaxPackageNameLength:
		return bad("too long")
	case strings.HasPrefix(spec, "npm:"):
		if err := ValidateNpmPackage(strings.TrimPrefix(spec, "npm:")); err != nil {
			return bad("not an npm alias of a registry package")
		}
	case strings.HasPrefix(spec, "file:"):
		rel := strings.TrimPrefix(strings.TrimPrefix(spec, "file:"), "./")
		if _, err := insidePath("file", rel); err != nil {
			return bad("a file: dependency must be a path inside the skill folder")
		}
	case !npmRangeRE.MatchString(spec):
		return bad("only registry versions, ranges and tags, npm: aliases and file: paths inside the skill are allowed (no git, URLs or GitHub shorthands)")
	}
	return nil
}

// checkOverrides walks package.json's overrides: every string is a spec.
func checkOverrides(at string, v any) error {
	switch v := v.(type) {
	case string:
		return checkNpmSpec(at, v)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := checkOverrides(at+"."+k, v[k]); err != nil {
				return err
			}
		}
		return nil
	default:
		return fmt.Errorf("%w: package.json %s: want strings and objects", ErrInvalidDependency, at)
	}
}

// declaredDeps tells, without checking them, whether s declares Python and
// Node dependencies: what the loader checkers compare with the venv and
// node_modules on disk.
func declaredDeps(s *skill.Skill) (python, node bool) {
	if s.Config != nil {
		python = s.Config.Dependencies.Python != nil
		node = s.Config.Dependencies.Node != nil && len(s.Config.Dependencies.Node.Packages) > 0
	}
	for _, spec := range s.Frontmatter.Install {
		if !specApplies(spec) || spec.Package == "" {
			continue
		}
		python = python || specKind(spec.Kind) == StepPython
		node = node || specKind(spec.Kind) == StepNode
	}
	if !node {
		if data, err := s.ReadFile("package.json"); err == nil {
			n, err := checkPackageJSON(data)
			node = err != nil || n > 0 // a package.json InstallDeps refuses still declares something
		}
	}
	return python, node
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// venvPython is the interpreter of a venv, a slash path relative to it.
func venvPython() string {
	if runtime.GOOS == "windows" {
		return path.Join("Scripts", "python.exe")
	}
	return path.Join("bin", "python")
}
