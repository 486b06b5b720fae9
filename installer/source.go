package installer

import (
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
	"github.com/skillkit-go/skillkit/registry"
)

// Source says where to install a skill from. Exactly one of Git, ZipFile,
// Zip, Dir and Remote is set; Ref goes with Git, Subdir with Git, ZIP and
// Dir.
type Source struct {
	// Git is a git URL: a GitHub repository
	// (https://github.com/OWNER/REPO, optionally followed by
	// /tree/REF/PATH for one skill inside it, or /blob/REF/PATH/SKILL.md),
	// any https URL on a host of Options.AllowedHosts, or a file:// URL when
	// Options.AllowFileURLs is set.
	Git string
	// Ref is the branch or tag to clone; empty means the remote's default
	// branch. With a GitHub tree URL it must be how the URL's path after
	// /tree/ starts, which is how a ref holding "/" is told from the path.
	Ref string
	// Subdir is the skill's folder inside the repository, the ZIP archive
	// or the folder (Dir), a slash path; empty means the top. With a GitHub
	// tree URL that names a path, the two must agree. It is recorded, so
	// updates fetch the same folder again.
	Subdir string
	// ZipFile is the path of a ZIP archive.
	ZipFile string
	// Zip reads a ZIP archive of ZipSize bytes (an upload held in memory or
	// in a temporary file). Such a skill records no URL, so it cannot be
	// updated; install a new archive instead.
	Zip     io.ReaderAt
	ZipSize int64 // the size of the archive Zip reads
	// Bundle is the JSON of the Sigstore bundle published with the ZIP
	// archive (ZipFile or Zip), checked against Options.Publishers (a
	// string, so that a Source stays comparable). Empty: for ZipFile, the
	// file named like it with provenance.BundleSuffix added
	// ("skill.zip.sigstore.json"), when there is one; for Zip, none.
	Bundle string
	// Dir is a local skill folder, copied (never linked) into the skills
	// folder.
	Dir string
	// Remote is a skill fetched through another package's protocol: a
	// site's discovery index (wellknown.Index.Remote) or an MCP server
	// (mcpskills.Remote). Updates find it again through Options.Remote.
	Remote Remote
}

// String shows the source to people.
func (s Source) String() string {
	switch {
	case s.Git != "":
		out := s.Git
		if s.Ref != "" {
			out += " @" + s.Ref
		}
		return out + inFolder(s.Subdir)
	case s.ZipFile != "":
		return s.ZipFile + inFolder(s.Subdir)
	case s.Zip != nil:
		return fmt.Sprintf("ZIP archive (%d bytes)", s.ZipSize) + inFolder(s.Subdir)
	case s.Dir != "":
		return s.Dir + inFolder(s.Subdir)
	case s.Remote != nil:
		o := s.Remote.Origin()
		return fmt.Sprintf("%s (%s)", o.URL, o.Subdir)
	}
	return "no source"
}

// inFolder shows a subfolder after a source, "" for none.
func inFolder(subdir string) string {
	if subdir == "" {
		return ""
	}
	return " (" + subdir + ")"
}

// kind checks that exactly one kind is set and returns it.
func (s Source) kind() (registry.Source, error) {
	var kinds []registry.Source
	if s.Git != "" {
		kinds = append(kinds, registry.SourceGit)
	}
	if s.ZipFile != "" || s.Zip != nil {
		kinds = append(kinds, registry.SourceZip)
	}
	if s.ZipFile != "" && s.Zip != nil {
		kinds = append(kinds, registry.SourceZip)
	}
	if s.Dir != "" {
		kinds = append(kinds, registry.SourceLocal)
	}
	if s.Remote != nil {
		o, err := remoteOrigin(s.Remote)
		if err != nil {
			return "", err
		}
		kinds = append(kinds, o.Source)
	}
	switch {
	case len(kinds) == 0:
		return "", fmt.Errorf("%w: set one of Git, ZipFile, Zip, Dir and Remote", ErrInvalidSource)
	case len(kinds) > 1:
		return "", fmt.Errorf("%w: set only one of Git, ZipFile, Zip, Dir and Remote", ErrInvalidSource)
	}
	if s.Git == "" && s.Ref != "" {
		return "", fmt.Errorf("%w: Ref goes with a Git source", ErrInvalidSource)
	}
	if s.Bundle != "" && s.ZipFile == "" && s.Zip == nil {
		return "", fmt.Errorf("%w: Bundle goes with a ZIP source", ErrInvalidSource)
	}
	if s.Remote != nil && s.Subdir != "" {
		return "", fmt.Errorf("%w: Subdir goes with a Git, ZIP or Dir source", ErrInvalidSource)
	}
	if s.Zip != nil && s.ZipSize < 0 {
		return "", fmt.Errorf("%w: negative ZipSize", ErrInvalidSource)
	}
	return kinds[0], nil
}

// gitSource is a git URL taken apart and checked.
type gitSource struct {
	cloneURL string          // what git clones
	url      string          // what the record holds
	source   registry.Source // SourceGitHub for github.com, else SourceGit
	owner    string          // GitHub only
	repo     string          // GitHub only
	ref      string          // branch or tag; "" for the default branch
	subdir   string          // slash path inside the repository; "" for the top
}

// githubName is what GitHub allows in owner and repository names; the
// length is checked apart (githubNameLen), since a counted repetition
// such as {1,100} compiles to 100 copies at program start.
var githubName = lazyregexp.New(`^[A-Za-z0-9_.-]+$`)

const githubNameLen = 100

// parseGit checks a git URL with its ref and subfolder options against the
// allowed hosts. It never touches the network.
func parseGit(raw, ref, subdir string, hosts []string, allowFile bool) (gitSource, error) {
	bad := func(format string, args ...any) (gitSource, error) {
		return gitSource{}, fmt.Errorf("%w: %s", ErrInvalidSource, fmt.Sprintf(format, args...))
	}
	if !printable(raw) {
		return bad("the URL %q holds spaces or control characters", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("%v", err)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return bad("the URL %q has a query, a fragment or no // after the scheme", raw)
	}
	if !printable(u.Path) {
		return bad("the URL %q holds escaped spaces or control characters", raw)
	}
	if u.User != nil {
		return bad("the URL %q holds credentials; skillkit never sends them", redactUser(u))
	}
	var g gitSource
	switch strings.ToLower(u.Scheme) {
	case "file":
		if !allowFile {
			return gitSource{}, fmt.Errorf("%w: file:// URLs are not allowed (Options.AllowFileURLs)", ErrHostNotAllowed)
		}
		if u.Host != "" && u.Host != "localhost" {
			return bad("a file:// URL names no host, got %q", u.Host)
		}
		p := path.Clean(u.Path)
		if !path.IsAbs(p) || p == "/" {
			return bad("the file:// URL %q names no repository", raw)
		}
		g = gitSource{cloneURL: "file://" + p, url: "file://" + p, source: registry.SourceGit}
	case "https":
		host := strings.ToLower(u.Host)
		if host == "" {
			return bad("the URL %q names no host", raw)
		}
		if !hostAllowed(host, hosts) {
			return gitSource{}, fmt.Errorf("%w: %s is not in the allowed hosts %v", ErrHostNotAllowed, host, hosts)
		}
		if host == DefaultHost {
			return parseGitHub(u.Path, ref, subdir)
		}
		p := strings.TrimSuffix(path.Clean("/"+u.Path), "/")
		if p == "" || p != strings.TrimSuffix(u.Path, "/") {
			return bad("the URL %q names no repository or is not clean", raw)
		}
		g = gitSource{cloneURL: "https://" + host + p, url: "https://" + host + p, source: registry.SourceGit}
	case "http":
		return bad("plain http is not allowed; use https")
	default:
		return bad("unsupported URL scheme %q (https, or file:// when allowed)", u.Scheme)
	}
	if err := checkRef(ref); err != nil {
		return gitSource{}, err
	}
	sub, err := cleanSubdir(subdir)
	if err != nil {
		return gitSource{}, err
	}
	g.ref, g.subdir = ref, sub
	return g, nil
}

// parseGitHub takes apart the path of a github.com URL:
// /OWNER/REPO[.git][/tree/REF[/PATH]] or /OWNER/REPO/blob/REF/PATH/SKILL.md.
func parseGitHub(p, ref, subdir string) (gitSource, error) {
	bad := func(format string, args ...any) (gitSource, error) {
		return gitSource{}, fmt.Errorf("%w: %s", ErrInvalidSource, fmt.Sprintf(format, args...))
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if len(segs) < 2 {
		return bad("a GitHub URL names OWNER/REPO, got %q", p)
	}
	owner, repo := segs[0], strings.TrimSuffix(segs[1], ".git")
	for _, n := range []string{owner, repo} {
		if len(n) > githubNameLen || !githubName().MatchString(n) || n == "." || n == ".." {
			return bad("%q is not a GitHub owner or repository name", n)
		}
	}
	g := gitSource{
		url:    "https://github.com/" + owner + "/" + repo,
		source: registry.SourceGitHub,
		owner:  owner,
		repo:   repo,
		ref:    ref,
	}
	g.cloneURL = g.url + ".git"
	urlSub := ""
	if len(segs) > 2 {
		if segs[1] != repo || len(segs) < 4 || segs[2] != "tree" && segs[2] != "blob" {
			return bad("a GitHub URL goes on after OWNER/REPO only with /tree/REF/PATH, got %q", p)
		}
		rest := segs[3:]
		for _, s := range rest {
			if s == "" {
				return bad("empty element in the GitHub URL path %q", p)
			}
		}
		if ref == "" {
			g.ref, rest = rest[0], rest[1:]
		} else {
			refSegs := strings.Split(ref, "/")
			if len(rest) < len(refSegs) || strings.Join(rest[:len(refSegs)], "/") != ref {
				return bad("the URL's ref %q does not start with the Ref %q", strings.Join(rest, "/"), ref)
			}
			rest = rest[len(refSegs):]
		}
		if segs[2] == "blob" {
			if len(rest) == 0 || !strings.EqualFold(rest[len(rest)-1], "SKILL.md") {
				return bad("a GitHub /blob/ URL must name a SKILL.md, got %q", p)
			}
			rest = rest[:len(rest)-1]
		}
		urlSub = strings.Join(rest, "/")
	}
	if err := checkRef(g.ref); err != nil {
		return gitSource{}, err
	}
	sub, err := cleanSubdir(urlSub)
	if err != nil {
		return gitSource{}, err
	}
	opt, err := cleanSubdir(subdir)
	if err != nil {
		return gitSource{}, err
	}
	switch {
	case sub == "":
		sub = opt
	case opt != "" && opt != sub:
		return bad("the URL names the folder %q but Subdir is %q", sub, opt)
	}
	g.subdir = sub
	return g, nil
}

func hostAllowed(host string, hosts []string) bool {
	for _, h := range hosts {
		if h == host {
			return true
		}
	}
	return false
}

func redactUser(u *url.URL) string {
	c := *u
	c.User = url.User("REDACTED")
	return c.String()
}

// printable reports whether s is valid UTF-8 without spaces or control
// characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return false
		}
	}
	return true
}

// checkRef applies the rules of git check-ref-format that matter here, and
// refuses a leading "-" so a ref can never be read as an option.
func checkRef(ref string) error {
	if ref == "" {
		return nil
	}
	bad := func(why string) error {
		return fmt.Errorf("%w: the ref %q %s", ErrInvalidSource, ref, why)
	}
	switch {
	case len(ref) > 255:
		return bad("is too long")
	case !printable(ref):
		return bad("holds spaces or control characters")
	case strings.HasPrefix(ref, "-"):
		return bad("starts with '-'")
	case strings.ContainsAny(ref, "~^:?*[\\"):
		return bad("holds one of ~ ^ : ? * [ \\")
	case strings.Contains(ref, "..") || strings.Contains(ref, "@{") || ref == "@":
		return bad("holds '..' or '@{'")
	case strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || strings.Contains(ref, "//"):
		return bad("has an empty element")
	case strings.HasSuffix(ref, ".") || strings.HasSuffix(ref, ".lock"):
		return bad("ends with '.' or '.lock'")
	}
	for _, part := range strings.Split(ref, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return bad("has an element starting with '.' or ending with '.lock'")
		}
	}
	return nil
}

// cleanSubdir checks a folder inside a repository: a clean relative slash
// path without "..", backslashes, control characters or .git. "" and "."
// mean the top.
func cleanSubdir(p string) (string, error) {
	p = strings.TrimSuffix(p, "/")
	if p == "" || p == "." {
		return "", nil
	}
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w: the subfolder %q %s", ErrInvalidSource, p, why)
	}
	switch {
	case !printable(strings.ReplaceAll(p, " ", "x")):
		return bad("holds control characters")
	case strings.Contains(p, "\\"):
		return bad("holds a backslash")
	case path.IsAbs(p):
		return bad("is absolute")
	case path.Clean(p) != p:
		return bad("is not a clean path")
	case len(p) > 1024:
		return bad("is too long")
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || strings.EqualFold(part, ".git") {
			return bad("leaves the repository or enters .git")
		}
		if len(part) >= 2 && part[1] == ':' {
			return bad("holds a drive letter")
		}
	}
	return p, nil
}
