package archive

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillkit-go/skillkit/internal/memfs"
	"github.com/skillkit-go/skillkit/skill"
)

// Finder's metadata, omitted.
const (
	macOSMetaDir  = "__MACOSX"  // at the top of an archive
	macOSMetaFile = ".DS_Store" // anywhere
)

// infraRule says what happens to a path element that names one of
// skill.InfraDirs, compared without regard to case: "reserved" (refused),
// "omitted", or "" for any other name. A test holds it to skill.InfraDirs:
// the split between the two is this package's rule.
func infraRule(elem string) (rule, dir string) {
	for _, d := range [...]string{".git", ".skillhub"} {
		if strings.EqualFold(elem, d) {
			return "reserved", d
		}
	}
	for _, d := range [...]string{".venv", "node_modules", "__pycache__"} {
		if strings.EqualFold(elem, d) {
			return "omitted", d
		}
	}
	return "", ""
}

// entry is one member of an archive or item of a folder as the checker sees
// it. The source fills name, dir, exec, size and problem; the checker sets
// path.
type entry struct {
	name    string // as written or found; a ZIP folder keeps its trailing "/"
	dir     bool
	exec    bool
	size    int64 // declared size of a file
	problem error // what only the source can see (kind, method, ratio), or nil
	path    string
	open    func() (io.ReadCloser, error) // a file's data
}

// seenName records an accepted path for collision checks.
type seenName struct {
	path string
	dir  bool
}

// checker applies the rules of the package documentation to entries one at
// a time, then to the tree as a whole.
type checker struct {
	lim   Limits
	rep   Report
	seen  map[string]seenName // by foldKey
	files []*entry            // accepted files, in source order
	dirs  []string            // accepted folder entries
	total int64
	// checkout: the tree is a git working tree, whose top .git (the
	// repository, or the file of a linked worktree) is left out.
	checkout bool
	// folder, when set, is the slash path of the one folder of the tree
	// that holds the skill: the whole tree is checked, only what lies in
	// it is kept, relative to it.
	folder string
}

func newChecker(lim Limits) *checker {
	return &checker{lim: lim, seen: make(map[string]seenName)}
}

func (c *checker) invalid(e *entry, err error) bool {
	c.rep.Invalid = append(c.rep.Invalid, FileError{Path: e.name, Err: err})
	return false
}

// add checks one entry and reports whether it was accepted. A folder that is
// not accepted should not be descended into.
func (c *checker) add(e *entry) bool {
	p, err := cleanName(e.name, e.dir)
	if err != nil {
		return c.invalid(e, err)
	}
	e.path = p
	if c.checkout && strings.EqualFold(p, ".git") {
		c.rep.Omitted = append(c.rep.Omitted, FileError{Path: e.name, Err: errors.New("omitted: .git is the checkout's history, never installed")})
		return false
	}
	if err := reserved(p); err != nil {
		return c.invalid(e, err)
	}
	if why := omitted(p); why != "" {
		c.rep.Omitted = append(c.rep.Omitted, FileError{Path: e.name, Err: fmt.Errorf("omitted: %s", why)})
		return false
	}
	if e.problem != nil {
		return c.invalid(e, e.problem)
	}
	if err := c.collide(p, e.dir, true); err != nil {
		return c.invalid(e, err)
	}
	if e.dir {
		c.dirs = append(c.dirs, p)
		return true
	}
	if e.size > c.lim.MaxFileBytes {
		return c.invalid(e, fmt.Errorf("%w: %d bytes, over the limit of %d per file", ErrFileTooLarge, e.size, c.lim.MaxFileBytes))
	}
	c.files = append(c.files, e)
	c.total += e.size
	if c.total > c.lim.MaxTotalBytes && c.rep.SizeError == nil {
		c.rep.SizeError = fmt.Errorf("%w: the files add up to more than %d bytes", ErrTotalTooLarge, c.lim.MaxTotalBytes)
	}
	return true
}

// cleanName checks a name against skill.CheckPath and returns it without a
// folder's trailing slash.
func cleanName(name string, dir bool) (string, error) {
	p := name
	if dir {
		p = strings.TrimSuffix(p, "/")
	}
	if err := skill.CheckPath(p); err != nil {
		return "", err
	}
	return p, nil
}

// reserved refuses paths in (or naming) .git and .skillhub.
func reserved(p string) error {
	for elem := range strings.SplitSeq(p, "/") {
		if rule, d := infraRule(elem); rule == "reserved" {
			return fmt.Errorf("%w: %s is never installed", ErrReservedName, d)
		}
	}
	return nil
}

// omitted says why a path is skipped on purpose, or "".
func omitted(p string) string {
	elems := strings.Split(p, "/")
	for _, elem := range elems {
		if rule, d := infraRule(elem); rule == "omitted" {
			return d + " is rebuilt by the installer, never taken from a source"
		}
	}
	if elems[0] == macOSMetaDir {
		return macOSMetaDir + " holds Finder metadata"
	}
	if elems[len(elems)-1] == macOSMetaFile {
		return macOSMetaFile + " is Finder metadata"
	}
	return ""
}

// collide registers an accepted path and its parent folders, refusing
// duplicates, case-fold collisions and file/folder conflicts. self is false
// for the parents.
func (c *checker) collide(p string, dir, self bool) error {
	key := foldKey(p)
	if o, ok := c.seen[key]; ok {
		switch {
		case o.path != p && self:
			return fmt.Errorf("%w: the name differs only in letter case or Unicode form from %q", ErrCollision, o.path)
		case o.path != p:
			return fmt.Errorf("%w: its folder %q differs only in letter case or Unicode form from %q", ErrCollision, p, o.path)
		case o.dir != dir && self && dir:
			return fmt.Errorf("%w: the name is a folder and also a file", ErrCollision)
		case o.dir != dir && self:
			return fmt.Errorf("%w: the name is a file and also a folder", ErrCollision)
		case o.dir != dir:
			return fmt.Errorf("%w: its folder %q is also a file", ErrCollision, p)
		case !dir:
			return fmt.Errorf("%w: the file appears more than once", ErrCollision)
		}
		return nil // a folder seen before, and so its parents
	}
	c.seen[key] = seenName{path: p, dir: dir}
	if parent := path.Dir(p); parent != "." {
		return c.collide(parent, true, false)
	}
	return nil
}

// foldKey maps paths that one file system could confuse to one key: NFC
// normalization (macOS) and simple case folding (macOS, Windows).
func foldKey(p string) string {
	ascii := true
	for i := 0; i < len(p); i++ {
		if c := p[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			ascii = false
			break
		}
	}
	if ascii {
		return p
	}
	var b strings.Builder
	for _, r := range norm.NFC.String(p) {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune returns one rune for r's whole case-folding orbit: the smallest,
// except that A-Z become a-z, so that lower-case ASCII folds to itself (the
// fast path of foldKey).
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	if 'A' <= least && least <= 'Z' {
		least += 'a' - 'A'
	}
	return least
}

// finish applies the layout rules and fills in Valid, Dirs, Unwrapped,
// Bytes and LayoutError.
func (c *checker) finish() {
	c.rep.Bytes = c.total
	prefix := c.unwrap()
	if c.folder != "" {
		prefix = c.folder + "/"
		c.files = slices.DeleteFunc(c.files, func(f *entry) bool { return !strings.HasPrefix(f.path, prefix) })
		c.dirs = slices.DeleteFunc(c.dirs, func(d string) bool { return !strings.HasPrefix(d+"/", prefix) })
	} else if prefix != "" {
		c.rep.Unwrapped = strings.TrimSuffix(prefix, "/")
	}
	dirs := make(map[string]bool)
	addParents := func(p string) {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, d := range c.dirs {
		if rel := strings.TrimPrefix(d+"/", prefix); rel != "" {
			rel = strings.TrimSuffix(rel, "/")
			dirs[rel] = true
			addParents(rel)
		}
	}
	hasSkillFile := false
	for _, f := range c.files {
		f.path = strings.TrimPrefix(f.path, prefix)
		c.rep.Valid = append(c.rep.Valid, f.path)
		addParents(f.path)
		hasSkillFile = hasSkillFile || isSkillFile(f.path)
	}
	for d := range dirs {
		c.rep.Dirs = append(c.rep.Dirs, d)
	}
	slices.Sort(c.rep.Valid)
	slices.Sort(c.rep.Dirs)
	if !hasSkillFile {
		c.rep.LayoutError = c.noSkillFile()
	}
}

func isSkillFile(p string) bool { return !strings.Contains(p, "/") && skill.IsSkillFileName(p) }

// topFolder returns the one top-level folder every accepted entry lies in,
// or "" when there is no such folder.
func (c *checker) topFolder() string {
	top := ""
	for _, p := range c.dirs {
		first, _, _ := strings.Cut(p, "/")
		if top != "" && first != top {
			return ""
		}
		top = first
	}
	for _, f := range c.files {
		first, _, nested := strings.Cut(f.path, "/")
		if !nested || top != "" && first != top {
			return ""
		}
		top = first
	}
	return top
}

// unwrap returns "X/" when the rules say to unwrap the top-level folder X.
func (c *checker) unwrap() string {
	top := c.topFolder()
	if top == "" {
		return ""
	}
	for _, f := range c.files {
		if rel, ok := strings.CutPrefix(f.path, top+"/"); ok && isSkillFile(rel) {
			return top + "/"
		}
	}
	return ""
}

func (c *checker) noSkillFile() error {
	if c.folder != "" {
		return fmt.Errorf("%w: no %s in the folder %q", ErrNoSkillFile, skill.FileName, c.folder)
	}
	if top := c.topFolder(); top != "" {
		return fmt.Errorf("%w: no %s at the top of the tree, nor in its only folder %q", ErrNoSkillFile, skill.FileName, top)
	}
	return fmt.Errorf("%w: no %s at the top of the tree", ErrNoSkillFile, skill.FileName)
}

// tree is the accepted files, after the layout rules, as a file system
// that reads each file's data when it is read.
func (c *checker) tree() (fs.FS, error) {
	files := make([]memfs.File, len(c.files))
	for i, f := range c.files {
		files[i] = memfs.File{Path: f.path, Size: f.size, Exec: f.exec, Open: f.open}
	}
	return memfs.New(files)
}
