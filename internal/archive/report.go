package archive

import (
	"errors"
	"fmt"
	"strings"
)

// Report is the outcome of a check: every entry of the archive or folder is
// in exactly one of Valid (or Dirs), Omitted and Invalid, unless a limit on
// the whole tree stopped the check before the entries were looked at.
type Report struct {
	// Valid lists the files that will be written, as slash paths relative to
	// the skill root (after unwrapping), sorted.
	Valid []string
	// Dirs lists the folders that will be created, listed or implied by a
	// valid file, relative to the skill root, sorted (parents first).
	Dirs []string
	// Omitted lists the entries skipped on purpose, with the reason.
	Omitted []FileError
	// Invalid lists the entries refused, with the reason.
	Invalid []FileError
	// SizeError is set when a limit on the whole tree was passed: its size,
	// its entry count, its total uncompressed size or its ratio.
	SizeError error
	// LayoutError is set when the skill root holds no SKILL.md.
	LayoutError error
	// Unwrapped is the single top-level folder whose contents became the
	// skill root, or "" when nothing was unwrapped.
	Unwrapped string
	// Bytes is the total size of the valid files.
	Bytes int64
}

// Err returns nil when the tree may be installed, and otherwise every
// problem joined: SizeError, the invalid entries as a [FileErrorList], and
// LayoutError. [errors.Is] and [errors.As] see through it.
func (r Report) Err() error {
	var errs []error
	if r.SizeError != nil {
		errs = append(errs, r.SizeError)
	}
	if len(r.Invalid) > 0 {
		errs = append(errs, FileErrorList(r.Invalid))
	}
	if r.LayoutError != nil {
		errs = append(errs, r.LayoutError)
	}
	return errors.Join(errs...)
}

// FileError is a problem with one entry. Path is the entry's name as written
// in the archive or found in the folder.
type FileError struct {
	Path string
	Err  error
}

// Error quotes the path, so control characters in hostile names never reach
// a terminal.
func (e *FileError) Error() string { return fmt.Sprintf("%q: %v", e.Path, e.Err) }

// Unwrap returns the reason.
func (e *FileError) Unwrap() error { return e.Err }

// FileErrorList is the invalid entries of a [Report], one line each.
type FileErrorList []FileError

// Error lists the entries, one a line.
func (l FileErrorList) Error() string {
	lines := make([]string, len(l))
	for i := range l {
		lines[i] = l[i].Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns every entry's error, so errors.Is and errors.As find any
// of them.
func (l FileErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i := range l {
		errs[i] = &l[i]
	}
	return errs
}
