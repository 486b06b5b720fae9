package archive

import (
	"errors"

	"github.com/skillkit-go/skillkit/skill"
)

// Default limits; see the package documentation for what each bounds.
const (
	// DefaultMaxArchiveBytes bounds the size of a ZIP archive (issue 7).
	DefaultMaxArchiveBytes = 50 << 20
	// DefaultMaxFileBytes bounds one file (issue 7).
	DefaultMaxFileBytes = 1 << 20
	// DefaultMaxTotalBytes bounds all files together: four times the
	// largest archive, what text (which deflates 3-5:1) fills when a
	// 50 MiB archive is full of it.
	DefaultMaxTotalBytes = 200 << 20
	// DefaultMaxEntries bounds the entries of an archive or folder. It is
	// the number of attached files the loader lists per skill
	// (skill.DefaultMaxFiles), so nothing installed is invisible to it.
	DefaultMaxEntries = 10_000
	// DefaultMaxRatio bounds how many times a file, and the whole archive,
	// may expand. Text rarely passes 20:1; deflate's maximum is about
	// 1032:1, which bombs use.
	DefaultMaxRatio = 100
)

// Fixed limits, not tunable.
const (
	// RatioFloor is the size up to which a file or an archive is never
	// refused for its compression ratio.
	RatioFloor = 64 << 10
	// MaxPathBytes bounds the length of an entry's name (the rule of
	// skill.CheckPath).
	MaxPathBytes = skill.MaxPathBytes
	// MaxElementBytes bounds one element of an entry's name, the limit of
	// common file systems.
	MaxElementBytes = skill.MaxPathElementBytes
)

// Limits tune the checks. A nil *Limits, or a zero or negative field, means
// the default; no value means "unlimited".
type Limits struct {
	MaxArchiveBytes int64 // default DefaultMaxArchiveBytes
	MaxFileBytes    int64 // default DefaultMaxFileBytes
	MaxTotalBytes   int64 // default DefaultMaxTotalBytes
	MaxEntries      int   // default DefaultMaxEntries
	MaxRatio        int   // default DefaultMaxRatio
}

// MaxArchive returns the largest archive the limits accept:
// MaxArchiveBytes, or its default.
func (l *Limits) MaxArchive() int64 { return l.resolve().MaxArchiveBytes }

// resolve returns the limits in force, defaults filled in.
func (l *Limits) resolve() Limits {
	r := Limits{DefaultMaxArchiveBytes, DefaultMaxFileBytes, DefaultMaxTotalBytes, DefaultMaxEntries, DefaultMaxRatio}
	if l == nil {
		return r
	}
	if l.MaxArchiveBytes > 0 {
		r.MaxArchiveBytes = l.MaxArchiveBytes
	}
	if l.MaxFileBytes > 0 {
		r.MaxFileBytes = l.MaxFileBytes
	}
	if l.MaxTotalBytes > 0 {
		r.MaxTotalBytes = l.MaxTotalBytes
	}
	if l.MaxEntries > 0 {
		r.MaxEntries = l.MaxEntries
	}
	if l.MaxRatio > 0 {
		r.MaxRatio = l.MaxRatio
	}
	return r
}

// Errors. Each refusal wraps one of them; the ones that say a limit was
// passed also wrap ErrLimit.
var (
	// ErrUnsafePath: a name that skill.CheckPath refuses (absolute, leaving
	// the folder, a backslash, a drive letter, a character Windows file
	// names cannot hold, a control character or NUL, not clean). It is
	// skill.ErrUnsafePath.
	ErrUnsafePath = skill.ErrUnsafePath
	// ErrLink: a symbolic or hard link.
	ErrLink = errors.New("link")
	// ErrNotRegular: a device, pipe, socket or unknown kind of file.
	ErrNotRegular = errors.New("not a regular file or folder")
	// ErrCollision: a duplicate, a case-fold collision or a file/folder
	// conflict.
	ErrCollision = errors.New("name collision")
	// ErrReservedName: an entry in .git or .skillhub.
	ErrReservedName = errors.New("reserved name")
	// ErrMalformed: an entry whose header contradicts itself or another.
	ErrMalformed = errors.New("malformed entry")
	// ErrUnsupported: encryption or a compression method other than store
	// and deflate.
	ErrUnsupported = errors.New("unsupported entry")
	// ErrSizeMismatch: data longer or shorter than its declared size, or a
	// folder's file replaced by another between the check and the copy.
	ErrSizeMismatch = errors.New("size differs from the declared size")
	// ErrCorrupt: data that does not decompress or fails its checksum.
	ErrCorrupt = errors.New("corrupt data")
	// ErrNotZip: the input is not a ZIP archive archive/zip can read.
	ErrNotZip = errors.New("not a ZIP archive")
	// ErrNoSkillFile: no SKILL.md at the skill root.
	ErrNoSkillFile = errors.New("no SKILL.md")
	// ErrDestination: the destination is not an existing, empty folder.
	ErrDestination = errors.New("bad destination")

	// ErrLimit: errors.Is(err, ErrLimit) holds for each of the errors
	// below, and so for every refusal because of a limit.
	ErrLimit = errors.New("limit exceeded")
	// ErrArchiveTooLarge: the archive is over MaxArchiveBytes.
	ErrArchiveTooLarge = wrapLimit("archive too large")
	// ErrTooManyEntries: more than MaxEntries entries.
	ErrTooManyEntries = wrapLimit("too many entries")
	// ErrFileTooLarge: a file over MaxFileBytes.
	ErrFileTooLarge = wrapLimit("file too large")
	// ErrTotalTooLarge: all files together over MaxTotalBytes.
	ErrTotalTooLarge = wrapLimit("total size too large")
	// ErrRatio: a file or the archive expands more than MaxRatio times.
	ErrRatio = wrapLimit("compression ratio too high")
)

// limitError is a sentinel that also matches ErrLimit.
type limitError struct{ msg string }

func wrapLimit(msg string) error           { return &limitError{msg} }
func (e *limitError) Error() string        { return e.msg }
func (e *limitError) Is(target error) bool { return target == ErrLimit }
