package skill

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// infraFiles and infraDirs are the infrastructure names, lower case; they
// are never written.
var (
	infraFiles = [...]string{ConfigFileName, "requirements.txt", "package.json", "package-lock.json", "tsconfig.json", ".env"}
	infraDirs  = [...]string{".venv", "node_modules", ".git", "__pycache__", ".skillhub"}
)

// InfraFiles returns the names of the files a skill folder may hold for its
// own machinery: skill.config.yaml, requirements.txt, package.json,
// package-lock.json, tsconfig.json and .env. They are not attached files, so
// the model is never pointed at them.
func InfraFiles() []string { return slices.Clone(infraFiles[:]) }

// InfraDirs returns the names of the folders never listed, searched or
// fingerprinted inside a skill: per-skill dependencies (.venv,
// node_modules, __pycache__), version control (.git) and skillkit's own
// bookkeeping (.skillhub).
func InfraDirs() []string { return slices.Clone(infraDirs[:]) }

// IsInfraDir reports whether name is one of [InfraDirs].
func IsInfraDir(name string) bool { return slices.Contains(infraDirs[:], name) }

// IsInfraFile reports whether name is one of [InfraFiles].
func IsInfraFile(name string) bool { return slices.Contains(infraFiles[:], name) }

// IsInfra reports whether a slash path relative to a skill folder is
// infrastructure, which is never listed as an attached file nor served to a
// model: anything inside (or naming) one of [InfraDirs], or a file named as
// one of [InfraFiles] at any depth (a .env in a subfolder holds secrets as
// much as one at the top), or the skill file (any spelling of SKILL.md) at
// the top. Names are compared without regard to case, since case-insensitive
// file systems (macOS, Windows) open .ENV as .env. A caller that reads a
// file checks the path it resolves to, after symbolic links
// ([Skill.Resolve]), not the path it was asked for.
func IsInfra(rel string) bool {
	last, top := rel, true
	for p := range strings.SplitSeq(rel, "/") {
		if IsInfraDir(strings.ToLower(p)) { // the names are lower case
			return true
		}
		last, top = p, p == rel
	}
	return IsInfraFile(strings.ToLower(last)) || top && IsSkillFileName(last)
}

// ErrUnsafePath is wrapped by the errors of [CheckPath] and [CleanRelPath].
var ErrUnsafePath = errors.New("skill: unsafe path")

// The limits of [CheckPath].
const (
	// MaxPathBytes bounds a path inside a skill folder.
	MaxPathBytes = 1024
	// MaxPathElementBytes bounds one element of it, the limit of most file
	// systems.
	MaxPathElementBytes = 255
)

// CheckPath decides whether p is safe as the path of a file or folder inside
// a skill folder. It is the one rule for the names of archive entries and
// folder items being installed, the files an agent writes, and the paths a
// model asks to read (after [CleanRelPath]). p is a slash path relative to
// the skill folder, in clean form. It is refused, with an error wrapping
// [ErrUnsafePath] that says why, when it:
//
//   - is empty, holds a NUL byte, is not valid UTF-8, or holds a control
//     character (C0, DEL, C1) or a format character (Unicode category Cf:
//     the bidirectional-text controls such as U+202E RIGHT-TO-LEFT
//     OVERRIDE, zero-width characters, the byte order mark), which make
//     one name display as another or as nothing;
//   - is absolute ("/etc/x", "\\server\x"), starts with a drive letter
//     ("C:x"), or holds a backslash (a separator on Windows) or one of
//     : * ? " < > | (which Windows file names cannot hold);
//   - has an empty, "." or ".." element ("a//b", "./a", "a/../b");
//   - is longer than MaxPathBytes, or has an element longer than
//     MaxPathElementBytes.
//
// Whether a path that passes is infrastructure ([IsInfra]) or reserved, and
// which folders an agent may write to, are separate rules the callers add:
// an agent's write is CheckPath plus its folder rules.
func CheckPath(p string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrUnsafePath, fmt.Sprintf(format, args...))
	}
	switch {
	case p == "":
		return bad("the path is empty")
	case strings.IndexByte(p, 0) >= 0:
		return bad("the path holds a NUL byte")
	case !utf8.ValidString(p):
		return bad("the path is not valid UTF-8")
	}
	for _, r := range p {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return bad("the path holds the control or format character %U", r)
		}
	}
	switch {
	case p[0] == '/' || p[0] == '\\':
		return bad("the path is absolute")
	case len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z'):
		return bad("the path starts with the drive letter %s", p[:2])
	case strings.ContainsRune(p, '\\'):
		return bad("the path holds a backslash, a path separator on Windows")
	case len(p) > MaxPathBytes:
		return bad("the path is %d bytes, over the limit of %d", len(p), MaxPathBytes)
	}
	if i := strings.IndexAny(p, `:*?"<>|`); i >= 0 {
		return bad("the path holds %q, which Windows file names cannot hold", p[i])
	}
	for elem := range strings.SplitSeq(p, "/") {
		switch {
		case elem == "":
			return bad("the path has an empty element")
		case elem == ".":
			return bad("the path has a \".\" element")
		case elem == "..":
			return bad("the path has a \"..\" element, which would leave the skill folder")
		case len(elem) > MaxPathElementBytes:
			return bad("an element of the path is %d bytes, over the limit of %d", len(elem), MaxPathElementBytes)
		}
	}
	return nil
}

// CleanRelPath cleans a path that must name something inside a skill
// folder, as a skill's config or a model may write it: backslashes are read
// as separators, and "." elements, doubled slashes and a ".." that stays
// inside ("a/../b") are cleaned away. The clean form must then pass
// [CheckPath]; the error wraps [ErrUnsafePath]. It returns the
// slash-separated clean form.
func CleanRelPath(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q holds a NUL byte", ErrUnsafePath, p)
	}
	s := strings.ReplaceAll(p, "\\", "/")
	if strings.HasPrefix(s, "/") || len(s) >= 2 && s[1] == ':' {
		return "", fmt.Errorf("%w: %q is absolute; give a path relative to the skill folder", ErrUnsafePath, p)
	}
	clean := path.Clean(s)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%w: %q leaves the skill folder", ErrUnsafePath, p)
	}
	if clean == "." {
		return "", fmt.Errorf("%w: %q names the skill folder itself, not a file in it", ErrUnsafePath, p)
	}
	if err := CheckPath(clean); err != nil {
		return "", err
	}
	return clean, nil
}

// maxLinks bounds the symbolic links resolve follows for one path, as the
// kernel's 40.
const maxLinks = 40

// resolve cleans rel and follows every symbolic link on its way inside
// fsys, the skill folder; see [Skill.Resolve].
func resolve(fsys fs.FS, rel string) (string, error) {
	clean, err := CleanRelPath(rel)
	if err != nil {
		return "", err
	}
	escapes := func(why string) error { return fmt.Errorf("%w: %q %s", ErrUnsafePath, rel, why) }
	todo := strings.Split(clean, "/")
	var done []string
	for links := 0; len(todo) > 0; {
		elem := todo[0]
		todo = todo[1:]
		switch elem {
		case "", ".":
			continue
		case "..": // only from a link's target
			if len(done) == 0 {
				return "", escapes("points outside the skill folder")
			}
			done = done[:len(done)-1]
			continue
		}
		cur := path.Join(path.Join(done...), elem)
		info, err := fs.Lstat(fsys, cur)
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			done = append(done, elem)
			continue
		}
		if links++; links > maxLinks {
			return "", escapes(fmt.Sprintf("passes more than %d symbolic links (a loop?)", maxLinks))
		}
		target, err := fs.ReadLink(fsys, cur)
		if err != nil {
			return "", err
		}
		if target == "" || strings.HasPrefix(target, "/") || filepath.IsAbs(target) || filepath.VolumeName(target) != "" {
			return "", escapes("points outside the skill folder (a link to an absolute path)")
		}
		// The target is read from the folder holding the link.
		todo = append(strings.Split(target, "/"), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return path.Join(done...), nil
}

// MaxFolderDepth is how many levels of folders below a skill's folder are
// listed, and scanned (package scan): opening a file resolves every level
// of its path, so a chain of thousands of nested folders would cost the
// square of its depth. Deeper folders are reported (LIMIT_REACHED, and a
// scan-limit finding), not read.
const MaxFolderDepth = 64

// listFiles walks a skill folder and returns its attached files: every
// regular file, as a slash path relative to the folder, sorted, except
// SKILL.md and infrastructure. It stops after max files and reports whether
// it did, and skips folders more than MaxFolderDepth levels down (deep
// names the first).
func listFiles(fsys fs.FS, dir string, max int) (files []string, truncated bool, deep string, err error) {
	// Depth first, entries in sorted order, as fs.WalkDir goes; links are
	// not followed. An unreadable folder inside the skill is simply not
	// listed (what it did list still is).
	var walk func(full, rel string) error
	walk = func(full, rel string) error {
		entries, err := fs.ReadDir(fsys, full)
		if err != nil && rel == "" {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			if e.IsDir() {
				if IsInfraDir(name) {
					continue
				}
				if strings.Count(r, "/")+1 > MaxFolderDepth {
					if deep == "" {
						deep = r
					}
					continue
				}
				sub := r
				if dir != "." {
					sub = dir + "/" + r
				}
				if err := walk(sub, r); err != nil {
					return err
				}
				continue
			}
			if !e.Type().IsRegular() || IsInfra(r) {
				continue
			}
			if len(files) >= max {
				truncated = true
				return fs.SkipAll
			}
			files = append(files, r)
		}
		return nil
	}
	if err := walk(dir, ""); err != nil && err != fs.SkipAll {
		return nil, false, "", err
	}
	slices.Sort(files)
	return files, truncated, deep, nil
}
