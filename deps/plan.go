package deps

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
	"github.com/skillkit-go/skillkit/skill"
)

// depsPlan is everything Install will do for one skill, every name and
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
				return nil, fmt.Errorf("%w: dependencies.python.source %s: %w", ErrInvalid, rel, err)
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
		eco := spec.Ecosystem()
		switch {
		case !spec.AppliesHere():
			continue
		case eco == "python" && spec.Package != "":
			if err := ValidatePythonRequirement(spec.Package); err != nil {
				return nil, fmt.Errorf("metadata.install (%s): %w", spec.Kind, err)
			}
			if !slices.Contains(p.python, spec.Package) {
				p.python = append(p.python, spec.Package)
			}
		case eco == "node" && spec.Package != "":
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
		return nil, fmt.Errorf("%w: more than %d packages", ErrInvalid, MaxRequirements)
	}
	pkgJSON, err := readSmall(fsys, "package.json", maxPackageJSONBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("%w: package.json: %w", ErrInvalid, err)
	default:
		n, err := checkNpmTree(fsys, pkgJSON)
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
		return "", fmt.Errorf("%w: %s: %w", ErrInvalid, field, err)
	}
	if slices.Contains(strings.Split(strings.ReplaceAll(p, `\`, "/"), "/"), "..") {
		return "", fmt.Errorf("%w: %s: %q holds \"..\"", ErrInvalid, field, p)
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
var npmRangeRE = lazyregexp.New(`^[A-Za-z0-9^~>=<.*|+ -]*$`)

// npmFileRE is the path of a file: dependency: plain characters only, so
// npm reads it as the path we check (no "%2e%2e" that its URL parsing
// would decode, no "~" for a home folder, no "?", "#", ":" or backslash).
var npmFileRE = lazyregexp.New(`^[A-Za-z0-9._@+/-]+$`)

// Limits of the package.json files Install follows through file:
// dependencies.
const (
	maxPackageJSONBytes = 1 << 20
	maxNpmFileDeps      = 100      // folders and tarballs reached through file:
	maxNpmTarballBytes  = 64 << 20 // a tarball's package.json is searched in at most this much unpacked data
)

// npmPackage is what checkPackageJSON found in one package.json.
type npmPackage struct {
	deps  int      // dependencies npm installs from it
	files []string // file: targets, slash paths inside the skill folder
}

// checkPackageJSON checks the dependencies of a package.json at dir (a
// slash path inside the skill folder, "." for the skill's own). Names must
// be npm names; a spec must be a registry version, range or tag, an "npm:"
// alias of a registry package, or a "file:" path that stays inside the
// skill folder, resolved from dir (fileOK false refuses file: specs: a
// tarball's, whose base npm does not define). git, GitHub shorthands,
// URLs, "link:" and paths leaving the skill are refused, in overrides too;
// a devDependency may be anything but a file: or link: path leaving the
// skill (npm resolves dev dependencies even with --omit=dev, and a git one
// fails on the git program Install gives npm). "workspaces" is refused:
// npm links workspaces wherever they are, even with --workspaces=false.
func checkPackageJSON(data []byte, dir string, fileOK bool) (npmPackage, error) {
	var out npmPackage
	where := path.Join(dir, "package.json")
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return out, fmt.Errorf("%w: %s is not a JSON object: %w", ErrInvalid, where, err)
	}
	if _, ok := doc["workspaces"]; ok {
		return out, fmt.Errorf("%w: %s declares workspaces; npm links them wherever they are, so a skill may not have any", ErrInvalid, where)
	}
	spec := func(name, s string) error {
		target, err := checkNpmSpec(name, s, dir, fileOK)
		if target != "" {
			out.files = append(out.files, target)
		}
		return err
	}
	for _, sec := range [...]string{"dependencies", "optionalDependencies", "peerDependencies", "devDependencies"} {
		raw, ok := doc[sec]
		if !ok {
			continue
		}
		var deps map[string]string
		if err := json.Unmarshal(raw, &deps); err != nil {
			return out, fmt.Errorf("%w: %s %s: want an object of strings: %w", ErrInvalid, where, sec, err)
		}
		names := make([]string, 0, len(deps))
		for name := range deps {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if err := checkNpmName(name); err != nil {
				return out, fmt.Errorf("%s %s: %w", where, sec, err)
			}
			if sec == "devDependencies" {
				// Left out by --omit=dev; only a path out must not reach npm.
				if v := deps[name]; strings.HasPrefix(v, "file:") || strings.HasPrefix(v, "link:") {
					if _, err := checkNpmSpec(name, v, dir, fileOK); err != nil {
						return out, fmt.Errorf("%s %s: %w", where, sec, err)
					}
				}
				continue
			}
			if err := spec(name, deps[name]); err != nil {
				return out, fmt.Errorf("%s %s: %w", where, sec, err)
			}
		}
		if sec != "devDependencies" {
			out.deps += len(deps)
		}
	}
	if raw, ok := doc["overrides"]; ok {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return out, fmt.Errorf("%w: %s overrides: %w", ErrInvalid, where, err)
		}
		if err := checkOverrides(where+" overrides", v, spec); err != nil {
			return out, err
		}
	}
	if out.deps > MaxRequirements {
		return out, fmt.Errorf("%w: %s declares more than %d dependencies", ErrInvalid, where, MaxRequirements)
	}
	return out, nil
}

// checkNpmTree checks the skill's package.json (data) and, through its
// file: dependencies, every package npm would read from the skill: each
// folder's package.json with the same rules (its file: paths resolved from
// its folder, still inside the skill), and each tarball's package.json
// (which may not have file: dependencies). A file: dependency must be a
// folder or a .tgz, .tar.gz or .tar file. It returns the skill's own
// dependency count. fsys is the skill folder.
func checkNpmTree(fsys fs.FS, data []byte) (int, error) {
	root, err := checkPackageJSON(data, ".", true)
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	queue := slices.Clone(root.files)
	for len(queue) > 0 {
		target := queue[0]
		queue = queue[1:]
		if seen[target] {
			continue
		}
		seen[target] = true
		if len(seen) > maxNpmFileDeps {
			return 0, fmt.Errorf("%w: more than %d file: dependencies", ErrInvalid, maxNpmFileDeps)
		}
		info, err := fs.Stat(fsys, target)
		if err != nil {
			return 0, fmt.Errorf("%w: file: dependency %s: %w", ErrInvalid, target, err)
		}
		switch {
		case info.IsDir():
			data, err := readSmall(fsys, path.Join(target, "package.json"), maxPackageJSONBytes)
			if err != nil {
				return 0, fmt.Errorf("%w: file: dependency %s: %w", ErrInvalid, target, err)
			}
			pkg, err := checkPackageJSON(data, target, true)
			if err != nil {
				return 0, err
			}
			queue = append(queue, pkg.files...)
		case info.Mode().IsRegular() && isNpmTarball(target):
			if err := checkNpmTarball(fsys, target); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("%w: file: dependency %s is neither a folder nor a .tgz, .tar.gz or .tar file", ErrInvalid, target)
		}
	}
	return root.deps, nil
}

func isNpmTarball(name string) bool {
	name = strings.ToLower(name)
	return strings.HasSuffix(name, ".tgz") || strings.HasSuffix(name, ".tar.gz") || strings.HasSuffix(name, ".tar")
}

// checkNpmTarball checks the package.json of a tarball npm would install
// (the one in its top folder, "package/" for what npm pack writes): its
// dependencies follow the rules, without file: paths.
func checkNpmTarball(fsys fs.FS, name string) error {
	bad := func(err error) error {
		return fmt.Errorf("%w: file: dependency %s: %w", ErrInvalid, name, err)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return bad(err)
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if !strings.HasSuffix(strings.ToLower(name), ".tar") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return bad(err)
		}
		defer zr.Close()
		r = zr
	}
	tr := tar.NewReader(io.LimitReader(r, maxNpmTarballBytes))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return bad(errors.New("it holds no package.json"))
		}
		if err != nil {
			return bad(err)
		}
		top, rest, _ := strings.Cut(strings.TrimPrefix(h.Name, "./"), "/")
		if top == "" || rest != "package.json" || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > maxPackageJSONBytes {
			return bad(fmt.Errorf("its package.json is over %d bytes", maxPackageJSONBytes))
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return bad(err)
		}
		if _, err := checkPackageJSON(data, name, false); err != nil {
			return err
		}
		return nil
	}
}

// checkNpmName checks a dependency name (no version).
func checkNpmName(name string) error {
	if err := ValidateNpmPackage(name); err != nil {
		return err
	}
	if strings.Contains(name[1:], "@") {
		return fmt.Errorf("%w: npm dependency name %q holds a version", ErrInvalid, name)
	}
	return nil
}

// checkNpmSpec checks what a package.json at dir asks for one dependency.
// For a file: spec it returns the target, a clean slash path inside the
// skill folder.
func checkNpmSpec(name, spec, dir string, fileOK bool) (target string, err error) {
	bad := func(why string) error {
		return fmt.Errorf("%w: %s %q: %s", ErrInvalid, name, spec, why)
	}
	switch {
	case len(spec) > MaxPackageNameLength:
		return "", bad("too long")
	case strings.HasPrefix(spec, "npm:"):
		if err := ValidateNpmPackage(strings.TrimPrefix(spec, "npm:")); err != nil {
			return "", bad("not an npm alias of a registry package")
		}
	case strings.HasPrefix(spec, "file:"):
		if !fileOK {
			return "", bad("a file: dependency is not allowed here (in a tarball)")
		}
		rel := strings.TrimPrefix(spec, "file:")
		if !npmFileRE().MatchString(rel) || strings.HasPrefix(rel, "/") {
			return "", bad("a file: dependency must be a relative path of letters, digits and . _ @ + / -")
		}
		target := path.Join(dir, rel)
		if target == "." || target == ".." || strings.HasPrefix(target, "../") {
			return "", bad("a file: dependency must be a folder or tarball inside the skill folder")
		}
		return target, nil
	case !npmRangeRE().MatchString(spec):
		return "", bad("only registry versions, ranges and tags, npm: aliases and file: paths inside the skill are allowed (no git, URLs or GitHub shorthands)")
	}
	return "", nil
}

// checkOverrides walks package.json's overrides: every string is a spec.
func checkOverrides(at string, v any, spec func(name, s string) error) error {
	switch v := v.(type) {
	case string:
		return spec(at, v)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := checkOverrides(at+"."+k, v[k], spec); err != nil {
				return err
			}
		}
		return nil
	default:
		return fmt.Errorf("%w: %s: want strings and objects", ErrInvalid, at)
	}
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
