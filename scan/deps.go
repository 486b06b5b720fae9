package scan

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/skill"
)

// The dependency rules.
const (
	ruleDepTyposquat  = "dep-typosquat"
	ruleDepURL        = "dep-url"
	ruleDepConfusion  = "dep-confusion"
	ruleInstallHook   = "install-hook"
	confusionMajorMin = 90 // a major version from which a pin looks like a confusion payload
)

var (
	//go:embed names/pypi.txt
	pypiText string
	//go:embed names/npm.txt
	npmText string
	//go:embed names/malicious.txt
	maliciousText string
)

// ecosystem is a package registry's name lists.
type ecosystem struct {
	name      string
	popular   map[string]bool
	list      []string // popular, sorted
	malicious map[string]bool
	normalize func(string) string
}

var ecosystems = sync.OnceValue(func() map[string]*ecosystem {
	eco := map[string]*ecosystem{
		"pypi": {name: "PyPI", popular: map[string]bool{}, malicious: map[string]bool{}, normalize: normalizePyPI},
		"npm":  {name: "npm", popular: map[string]bool{}, malicious: map[string]bool{}, normalize: strings.ToLower},
	}
	for kind, text := range map[string]string{"pypi": pypiText, "npm": npmText} {
		for _, w := range nameFields(text) {
			eco[kind].popular[eco[kind].normalize(w)] = true
		}
	}
	for line := range strings.SplitSeq(maliciousText, "\n") {
		f := nameFields(line)
		if len(f) > 1 && eco[f[0]] != nil {
			for _, w := range f[1:] {
				eco[f[0]].malicious[eco[f[0]].normalize(w)] = true
			}
		}
	}
	for _, e := range eco {
		for n := range e.popular {
			e.list = append(e.list, n)
		}
		slices.Sort(e.list)
	}
	return eco
})

// nameFields splits a name list, skipping # comments.
func nameFields(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			out = append(out, strings.Fields(line)...)
		}
	}
	return out
}

var pypiSeparators = lazyRE(`[-_.]+`)

// normalizePyPI is PEP 503 normalization.
func normalizePyPI(s string) string {
	return pypiSeparators().ReplaceAllString(strings.ToLower(s), "-")
}

// checkDeps reads the dependencies a configuration file declares.
func (sc *skillScan) checkDeps(f *fileState, p, text string) {
	base := strings.ToLower(path.Base(p))
	switch {
	case strings.HasPrefix(base, "requirements"):
		for i, l := range strings.Split(text, "\n") {
			sc.pythonRequirement(f, i+1, l)
		}
	case base == "package.json":
		sc.packageJSON(f, text)
	case base == skill.ConfigFileName:
		cfg, _ := skill.ParseConfig([]byte(text))
		if cfg == nil {
			return
		}
		if py := cfg.Dependencies.Python; py != nil {
			for _, r := range py.Inline {
				sc.pythonRequirement(f, lineOf(text, r), r)
			}
		}
		if node := cfg.Dependencies.Node; node != nil {
			for _, spec := range node.Packages {
				name, version := splitNpmSpec(spec)
				sc.npmDependency(f, lineOf(text, spec), name, version)
			}
		}
	case base == "pyproject.toml", base == "setup.py":
		for _, m := range pyprojectDeps().FindAllStringSubmatchIndex(text, -1) {
			block := text[m[2]:m[3]]
			for _, q := range quoted().FindAllStringSubmatchIndex(block, -1) {
				req := block[q[2]:q[3]]
				sc.pythonRequirement(f, strings.Count(text[:m[2]+q[2]], "\n")+1, req)
			}
		}
	case base == ".npmrc", base == ".yarnrc", base == ".yarnrc.yml":
		for i, l := range strings.Split(text, "\n") {
			if m := npmRegistry().FindStringSubmatch(strings.ToLower(l)); m != nil && !strings.Contains(m[2], "registry.npmjs.org") && !strings.Contains(m[2], "registry.yarnpkg.com") {
				sev, msg := Medium, "points npm at another registry for every unscoped package"
				if m[1] != "" {
					if !publicScope(m[1]) {
						continue // a registry for one's own scope is how private packages are kept safe
					}
					sev, msg = High, "points a public package scope ("+m[1]+") at another registry, which then serves those packages"
				}
				if dest := classifyURLs(m[2]); dest == destSuspicious {
					sev, msg = High, "points npm at a registry over plain HTTP or at an IP address"
				}
				sc.addDep(f, i+1, ruleDepConfusion, sev, l, msg)
			}
		}
	}
}

// publicScope reports whether an npm scope ("@babel") is one of the
// popular public ones, which a project has no reason to fetch elsewhere.
func publicScope(scope string) bool {
	scope = strings.TrimSuffix(strings.TrimSpace(scope), ":")
	for _, n := range ecosystems()["npm"].list {
		if strings.HasPrefix(n, scope+"/") {
			return true
		}
	}
	return false
}

var (
	pyprojectDeps = lazyRE(`(?s)(?:dependencies|install_requires|requires)\s*=\s*\[(.*?)\]`)
	quoted        = lazyRE(`["']([^"'\n]+)["']`)
	npmRegistry   = lazyRE(`^\s*(@[a-z0-9._-]+:)?registry\s*[=:]\s*["']?(\S+?)["']?\s*$`)
	pyRequirement = lazyRE(`^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$`)
	versionMajor  = lazyRE(`(?:^|[=<>~^!\s,v])\s*([0-9]+)(?:\.|$|\s|,|\*)`)
)

// lineOf finds the line of a file that holds s, or 0.
func lineOf(text, s string) int {
	i := strings.Index(text, s)
	if i < 0 {
		return 0
	}
	return strings.Count(text[:i], "\n") + 1
}

func (sc *skillScan) addDep(f *fileState, n int, rule string, sev Severity, text, msg string) {
	sc.add(Finding{Rule: rule, Severity: sev, File: f.path, Line: n, Context: CtxConfig, Match: snippet(text, 0, len(text)), Message: msg})
}

// pythonRequirement checks one line of a requirements file (or one
// requirement string).
func (sc *skillScan) pythonRequirement(f *fileState, n int, l string) {
	l = strings.TrimSpace(l)
	if i := strings.Index(l, " #"); i >= 0 {
		l = strings.TrimSpace(l[:i])
	}
	if l == "" || strings.HasPrefix(l, "#") {
		return
	}
	lower := strings.ToLower(l)
	if strings.HasPrefix(l, "-") {
		opt, arg, _ := strings.Cut(strings.Replace(lower, "=", " ", 1), " ")
		arg = strings.TrimSpace(arg)
		switch opt {
		case "--extra-index-url":
			sev := High
			if classifyURLs(arg) == destSuspicious {
				sev = Critical
			}
			sc.addDep(f, n, ruleDepConfusion, sev, l, "adds a second package index: pip takes the highest version from any index, so a public package named like a private one wins (dependency confusion)")
		case "-i", "--index-url":
			if !strings.Contains(arg, "pypi.org") && !strings.Contains(arg, "pythonhosted.org") {
				sev, msg := Medium, "installs from a package index other than PyPI"
				if classifyURLs(arg) == destSuspicious {
					sev, msg = High, "installs from a package index over plain HTTP or at an IP address"
				}
				sc.addDep(f, n, ruleDepConfusion, sev, l, msg)
			}
		case "--trusted-host":
			sc.addDep(f, n, ruleDepConfusion, High, l, "turns off TLS verification for a package host, so anyone on the way can serve the packages")
		case "-f", "--find-links", "-e", "--editable":
			if strings.Contains(arg, "://") || strings.HasPrefix(arg, "git+") {
				sc.urlDependency(f, n, l, arg)
			}
		}
		return
	}
	if strings.Contains(lower, "://") || strings.HasPrefix(lower, "git+") {
		url := lower
		if _, after, ok := strings.Cut(lower, "@"); ok && !strings.HasPrefix(lower, "git+") && !strings.HasPrefix(lower, "http") {
			url = strings.TrimSpace(after)
		}
		sc.urlDependency(f, n, l, url)
		if m := pyRequirement().FindStringSubmatch(l); m != nil && !strings.Contains(m[1], "://") && !strings.HasPrefix(strings.ToLower(m[1]), "git") {
			sc.packageName(f, n, l, "pypi", m[1])
		}
		return
	}
	m := pyRequirement().FindStringSubmatch(l)
	if m == nil {
		return
	}
	sc.packageName(f, n, l, "pypi", m[1])
	spec, _, _ := strings.Cut(m[3], ";")
	sc.highVersion(f, n, l, spec)
}

func (sc *skillScan) urlDependency(f *fileState, n int, l, url string) {
	sev, msg := Medium, "installs a package from a URL or a git repository, outside the registry's checks and version history"
	if classifyURLs(url) == destSuspicious {
		sev, msg = High, "installs a package from an IP address, plain HTTP or a file-drop service"
	}
	sc.addDep(f, n, ruleDepURL, sev, l, msg)
}

// highVersion reports a pin to an absurd major version.
func (sc *skillScan) highVersion(f *fileState, n int, l, spec string) {
	for _, m := range versionMajor().FindAllStringSubmatch(spec, -1) {
		if v, err := strconv.Atoi(m[1]); err == nil && v >= confusionMajorMin && v < 1900 {
			sc.addDep(f, n, ruleDepConfusion, High, l, fmt.Sprintf("asks for version %d or so: dependency-confusion packages publish absurd versions to win over private ones", v))
			return
		}
	}
}

// packageName checks a package name against the popular and malicious
// lists of its registry.
func (sc *skillScan) packageName(f *fileState, n int, l, kind, name string) {
	e := ecosystems()[kind]
	norm := e.normalize(name)
	if e.popular[norm] {
		return
	}
	if e.malicious[norm] {
		sc.addDep(f, n, ruleDepTyposquat, Critical, l, fmt.Sprintf("%s is the name of published %s malware", name, e.name))
		return
	}
	if target := lookalike(norm, e); target != "" {
		sc.addDep(f, n, ruleDepTyposquat, High, l, fmt.Sprintf("%s looks like the popular %s package %s (a typosquat?)", name, e.name, target))
		return
	}
	if kind == "npm" && internalName().MatchString(norm) {
		sc.addDep(f, n, ruleDepConfusion, Medium, l, fmt.Sprintf("%s looks like a private package name; from the public registry it can be anyone's (dependency confusion)", name))
	}
}

var internalName = lazyRE(`^[a-z0-9]+-(?:internal|private|corp|intranet)(?:-|$)|(?:^|-)(?:internal|private|intranet)-`)

// lookalike returns the popular name that name imitates, or "": one edit
// (insert, delete, substitute, swap) away, the same without separators, or
// the same after undoing look-alike letters (0/o, 1/l, rn/m, vv/w).
func lookalike(name string, e *ecosystem) string {
	squash := separators.Replace
	sq, gl := squash(name), glyphs.Replace(name)
	for _, p := range e.list {
		if len(p) < 5 || abs(len(p)-len(name)) > 1 && squash(p) != sq {
			continue
		}
		if osaDistance(name, p) == 1 || squash(p) == sq || gl != name && gl == p {
			return p
		}
	}
	return ""
}

// The replacers lookalike uses, built once: building one costs more than
// using it, and lookalike squashes each popular name it compares.
var (
	separators = strings.NewReplacer("-", "", "_", "", ".", "")
	glyphs     = strings.NewReplacer("0", "o", "1", "l", "rn", "m", "vv", "w", "3", "e", "5", "s")
)

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// osaDistance is the optimal string alignment distance (Levenshtein with
// adjacent swaps), on bytes: package names are ASCII.
func osaDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// packageJSON checks a package.json: dependency names and specs, and
// install hooks.
func (sc *skillScan) packageJSON(f *fileState, text string) {
	var pkg struct {
		Dependencies         map[string]string `json:"dependencies"`
		DevDependencies      map[string]string `json:"devDependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
		PeerDependencies     map[string]string `json:"peerDependencies"`
		Scripts              map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(text), &pkg); err != nil {
		return // the lines were scanned as text; a package.json npm cannot read installs nothing
	}
	for _, deps := range []map[string]string{pkg.Dependencies, pkg.DevDependencies, pkg.OptionalDependencies, pkg.PeerDependencies} {
		for _, name := range sortedKeys(deps) {
			sc.npmDependency(f, lineOf(text, strconv.Quote(name)), name, deps[name])
		}
	}
	for _, hook := range []string{"preinstall", "install", "postinstall", "prepare", "preuninstall", "postuninstall"} {
		if cmd, ok := pkg.Scripts[hook]; ok {
			sc.addDep(f, lineOf(text, strconv.Quote(hook)), ruleInstallHook, Medium, hook+": "+cmd,
				fmt.Sprintf("runs %q when the package is installed", cmd))
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// splitNpmSpec splits "name@version" (and "@scope/name@version").
func splitNpmSpec(spec string) (name, version string) {
	at := strings.LastIndex(spec, "@")
	if at <= 0 {
		return spec, ""
	}
	return spec[:at], spec[at+1:]
}

// npmDependency checks one npm dependency and its version spec.
func (sc *skillScan) npmDependency(f *fileState, n int, name, spec string) {
	shown := name
	if spec != "" {
		shown += ": " + spec
	}
	s := strings.ToLower(strings.TrimSpace(spec))
	switch {
	case strings.HasPrefix(s, "npm:"):
		target, version := splitNpmSpec(strings.TrimPrefix(s, "npm:"))
		if !strings.HasPrefix(name, "@") {
			sc.packageName(f, n, shown, "npm", name)
		}
		if !strings.HasPrefix(target, "@") {
			sc.packageName(f, n, shown, "npm", target)
		}
		sc.highVersion(f, n, shown, version)
		return
	case strings.HasPrefix(s, "file:"), strings.HasPrefix(s, "link:"):
		// npm resolves a file: path from the folder of the package.json
		// that names it.
		p := strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(s, "file:"), "link:"), `\`, "/")
		rooted := strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || len(p) >= 2 && p[1] == ':'
		if _, err := skill.CleanRelPath(path.Join(path.Dir(f.path), p)); rooted || err != nil {
			sc.addDep(f, n, ruleDepURL, High, shown, "installs a package from outside the skill folder")
		}
		return
	case strings.Contains(s, "://"), strings.HasPrefix(s, "git"), strings.HasPrefix(s, "github:"), strings.HasPrefix(s, "gitlab:"),
		strings.HasPrefix(s, "bitbucket:"), strings.Contains(s, "/") && !strings.HasPrefix(s, "@"):
		sc.urlDependency(f, n, shown, s)
	default:
		sc.highVersion(f, n, shown, s)
	}
	if !strings.HasPrefix(name, "@") {
		sc.packageName(f, n, shown, "npm", name)
	}
}
