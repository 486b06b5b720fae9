package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf16"
	"unsafe"

	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/skill"
)

// Defaults for [Options].
const (
	DefaultMaxFileBytes    = 1 << 20  // the part of one file that is scanned
	DefaultMaxTotalBytes   = 32 << 20 // all files of a skill together
	DefaultMaxFiles        = 10_000   // files looked at in one skill
	DefaultMaxDecodeDepth  = 3        // encodings unwrapped inside each other
	DefaultMaxDecodedBytes = 1 << 20  // decoded text scanned per skill
)

// Options tune a scan. A nil *Options, or a zero field, means the default;
// nothing is unlimited.
type Options struct {
	// MaxFileBytes is how much of each file is scanned (default 1 MiB). The
	// rest of a longer file is not, and a scan-limit finding says so.
	MaxFileBytes int64
	// MaxTotalBytes is how much of a skill's files is read in all (default
	// 32 MiB); files past it are not scanned, and a scan-limit finding says
	// how many.
	MaxTotalBytes int64
	// MaxFiles is how many files of a skill are looked at (default 10,000).
	MaxFiles int
	// MaxDecodeDepth is how many encodings inside each other are unwrapped
	// (default 3): base64 of hex of a script is depth 2.
	MaxDecodeDepth int
	// MaxDecodedBytes caps the decoded text scanned per skill (default
	// 1 MiB).
	MaxDecodedBytes int
}

func (o *Options) resolved() Options {
	var v Options
	if o != nil {
		v = *o
	}
	if v.MaxFileBytes <= 0 {
		v.MaxFileBytes = DefaultMaxFileBytes
	}
	if v.MaxTotalBytes <= 0 {
		v.MaxTotalBytes = DefaultMaxTotalBytes
	}
	if v.MaxFiles <= 0 {
		v.MaxFiles = DefaultMaxFiles
	}
	if v.MaxDecodeDepth <= 0 {
		v.MaxDecodeDepth = DefaultMaxDecodeDepth
	}
	if v.MaxDecodedBytes <= 0 {
		v.MaxDecodedBytes = DefaultMaxDecodedBytes
	}
	return v
}

// ErrNotFolder is wrapped by the error of a scan whose folder cannot be
// listed (it does not exist, or is a file).
var ErrNotFolder = errors.New("scan: not a skill folder")

// Skill scans the skill in folder dir of fsys: every file in it except the
// contents of infrastructure folders (.git, node_modules, .venv, ...),
// within the limits of opts. It loads the skill (leniently) for its name,
// description and declared environment; a skill that does not load is
// scanned all the same, under its folder's name.
//
// For a folder on disk give an [os.Root]'s FS (or use [Loaded] on a skill
// loaded from disk), so that no symbolic link swapped in during the scan
// makes it read a file outside the folder. The error is for a folder that
// cannot be listed or a context that ends; a file that cannot be read is a
// finding (read-error), so a skill cannot hide a file by making it
// unreadable.
//
// The files are read on a goroutine of the scan's, one at a time, and
// scanned on as many as there are cores; the report is the same however
// the work is spread. Nothing reads fsys after Skill returns.
func Skill(ctx context.Context, fsys fs.FS, dir string, opts *Options) (Report, error) {
	dir = path.Clean(dir)
	s, _ := skill.Load(fsys, dir, nil)
	name := path.Base(dir)
	if s != nil {
		name = s.Name
	}
	sub := fsys
	if dir != "." {
		var err error
		if sub, err = fs.Sub(fsys, dir); err != nil {
			return Report{}, fmt.Errorf("%w: %v", ErrNotFolder, err)
		}
	}
	return scanFS(ctx, sub, dir, name, s, opts)
}

// Loaded scans a loaded skill. A skill on disk (DiskDir set) is read
// through [os.Root], so no link leads the scan outside its folder.
func Loaded(ctx context.Context, s *skill.Skill, opts *Options) (Report, error) {
	if s.DiskDir != "" {
		root, err := os.OpenRoot(s.DiskDir)
		if err != nil {
			return Report{}, fmt.Errorf("%w: %v", ErrNotFolder, err)
		}
		defer root.Close()
		return scanFS(ctx, osfs.Root(root), s.DiskDir, s.Name, s, opts)
	}
	fsys, err := s.FS()
	if err != nil {
		return Report{}, fmt.Errorf("%w: %v", ErrNotFolder, err)
	}
	return scanFS(ctx, fsys, s.Dir, s.Name, s, opts)
}

// scanFS scans the skill whose folder is the root of fsys; s may be nil.
func scanFS(ctx context.Context, fsys fs.FS, display, name string, s *skill.Skill, opts *Options) (Report, error) {
	o := opts.resolved()
	rep := Report{Name: name, Path: display, Findings: []Finding{}}
	if st, err := fs.Stat(fsys, "."); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("is a file")
		}
		return rep, fmt.Errorf("%w: %s: %v", ErrNotFolder, display, err)
	}
	sc := newSkillScan(s, o)
	var files []string
	var links []string
	tooMany := false
	tooDeep := ""
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			sc.add(Finding{Rule: ruleReadError, Severity: Medium, File: p, Context: CtxFile,
				Message: fmt.Sprintf("cannot be listed, so it was not scanned: %v", err)})
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			// The loader never lists these either. What a skill ships in
			// node_modules or .venv is left out by the installer; what the
			// installer builds there is the dependencies' code.
			if skill.IsInfraDir(d.Name()) {
				return fs.SkipDir
			}
			// Opening a file resolves every level of its path: a chain of
			// thousands of nested folders would cost the square of its depth.
			if strings.Count(p, "/")+1 > skill.MaxFolderDepth {
				if tooDeep == "" {
					tooDeep = p
				}
				return fs.SkipDir
			}
			return nil
		}
		if len(files)+len(links) >= o.MaxFiles {
			tooMany = true
			return fs.SkipAll
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			links = append(links, p)
		case d.Type().IsRegular():
			files = append(files, p)
		default:
			sc.add(Finding{Rule: ruleReadError, Severity: Medium, File: p, Context: CtxFile,
				Message: "is not a regular file (a pipe, a device or a socket) and was not read"})
		}
		return nil
	})
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return rep, ctxErr
		}
		return rep, fmt.Errorf("%w: %s: %v", ErrNotFolder, display, err)
	}
	if tooMany {
		sc.add(Finding{Rule: ruleScanLimit, Severity: High, Context: CtxFile,
			Message: fmt.Sprintf("the skill has more than %d files; the rest were not scanned", o.MaxFiles)})
	}
	if tooDeep != "" {
		sc.add(Finding{Rule: ruleScanLimit, Severity: High, File: tooDeep, Context: CtxFile,
			Message: fmt.Sprintf("folders nested more than %d levels deep were not scanned", skill.MaxFolderDepth)})
	}
	for _, l := range links {
		sc.checkLink(fsys, l)
	}
	// SKILL.md first: what it says (prerequisites, declared hosts) is context
	// for the other files.
	slices.SortStableFunc(files, func(a, b string) int {
		return boolInt(!isSkillFile(b)) - boolInt(!isSkillFile(a))
	})
	skipped, err := sc.scanFiles(ctx, fsys, files, &rep)
	if err != nil {
		return rep, err
	}
	if len(skipped) > 0 {
		sc.add(Finding{Rule: ruleScanLimit, Severity: High, File: skipped[0], Context: CtxFile,
			Message: fmt.Sprintf("%d files were not scanned: the skill is over the %d-byte scan budget", len(skipped), o.MaxTotalBytes)})
	}
	sc.finish()
	rep.Findings = sortFindings(sc.findings)
	if rep.Findings == nil {
		rep.Findings = []Finding{} // [] in JSON, never null
	}
	rep.Verdict = verdictOf(rep.Findings)
	return rep, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isSkillFile(p string) bool { return !strings.Contains(p, "/") && skill.IsSkillFileName(p) }

// readFile reads at most max bytes of a file, saying whether there was more.
// The buffer is sized from the file's reported size, so a file that does not
// change while it is read is read without growing it.
func readFile(fsys fs.FS, p string, max int64) ([]byte, bool, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !st.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file")
	}
	data := make([]byte, 0, min(st.Size(), max)+1)
	for int64(len(data)) <= max {
		if len(data) == cap(data) {
			data = slices.Grow(data, int(min(int64(cap(data)), max+1-int64(len(data)))))
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	if int64(len(data)) > max {
		return data[:max], true, nil
	}
	return data, false, nil
}

// textOf returns a file's bytes as text to scan, or ok false for a binary
// file. A file is binary when its first 8 KiB hold a NUL byte, unless it
// starts with a UTF-16 byte order mark (PowerShell writes scripts that way),
// in which case it is decoded. Invalid UTF-8 is still text: a shell runs a
// script with a stray byte in a comment, so the scan must read it. The
// text may share data's memory: data must not be written after.
func textOf(data []byte) (string, bool) {
	if len(data) >= 2 && (data[0] == 0xff && data[1] == 0xfe || data[0] == 0xfe && data[1] == 0xff) {
		return decodeUTF16(data[2:], data[0] == 0xfe), true
	}
	head := data[:min(len(data), 8<<10)]
	if bytes.IndexByte(head, 0) >= 0 {
		return "", false
	}
	// Not copied: the copy was a fifth of what a scan allocated, and data
	// is the buffer readFile filled, which nothing writes after.
	s := unsafe.String(unsafe.SliceData(data), len(data))
	s = strings.TrimPrefix(s, "\uFEFF")
	return s, true
}

func decodeUTF16(b []byte, bigEndian bool) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if bigEndian {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}
