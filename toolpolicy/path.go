package toolpolicy

import (
	"path"
	"regexp"
	"strings"
)

// pathPattern is a Read/Edit/Write specifier made absolute: the glob of
// gitignore (* and ? within one folder, ** across folders), anchored at
// its base folder, or matching a name at any depth below it when it holds
// no slash.
type pathPattern struct {
	re *regexp.Regexp
}

// compilePath resolves spec: //p is the absolute /p, ~/p is below home,
// /p below root (the skill's folder), ./p or p below dir (the working
// folder).
func compilePath(spec, dir, root, home string) (pathPattern, bool) {
	var base, rel string
	switch {
	case strings.HasPrefix(spec, "//"):
		base, rel = "/", spec[2:]
	case strings.HasPrefix(spec, "~/"):
		if home == "" {
			return pathPattern{}, false
		}
		base, rel = home, spec[2:]
	case strings.HasPrefix(spec, "/"):
		if root == "" {
			return pathPattern{}, false
		}
		base, rel = root, spec[1:]
	default:
		if dir == "" {
			return pathPattern{}, false
		}
		base, rel = dir, strings.TrimPrefix(spec, "./")
	}
	if strings.HasSuffix(rel, "/") {
		rel += "**" // a folder: what it holds
	}
	anywhere := !strings.Contains(rel, "/")
	var b strings.Builder
	b.WriteString("^")
	b.WriteString(regexp.QuoteMeta(strings.TrimSuffix(path.Clean(base), "/")))
	b.WriteString("/")
	if anywhere {
		b.WriteString("(?:.*/)?")
	}
	for i := 0; i < len(rel); i++ {
		c := rel[i]
		switch {
		case c == '*' && strings.HasPrefix(rel[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case c == '*' && strings.HasPrefix(rel[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return pathPattern{}, false
	}
	return pathPattern{re: re}, true
}

// matches reports whether the cleaned absolute path p matches.
func (pp pathPattern) matches(p string) bool { return pp.re != nil && pp.re.MatchString(p) }

// absolute is p cleaned, relative to dir when it is relative.
func absolute(p, dir string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !path.IsAbs(p) {
		if dir == "" {
			return "", false
		}
		p = path.Join(dir, p)
	}
	return path.Clean(p), true
}
