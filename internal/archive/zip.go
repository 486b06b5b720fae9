package archive

import (
	"archive/zip"
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
)

// CheckZip checks the ZIP archive of size bytes that r reads against the
// rules of the package documentation, without decompressing anything. The
// report is filled in as far as the check got; the error is its Err, or
// [ErrNotZip] (wrapping archive/zip's error) when r is not a ZIP archive, or
// ctx's error.
func CheckZip(ctx context.Context, r io.ReaderAt, size int64, lim *Limits) (Report, error) {
	c, err := checkZip(ctx, r, size, lim.resolve())
	return c.rep, err
}

// CheckZipFile is [CheckZip] for the archive in a file.
func CheckZipFile(ctx context.Context, name string, lim *Limits) (Report, error) {
	var rep Report
	err := WithFile(name, func(f *os.File, size int64) (err error) {
		rep, err = CheckZip(ctx, f, size, lim)
		return err
	})
	return rep, err
}

// ExtractZip checks the ZIP archive of size bytes that r reads and, when the
// check passes, writes the skill it holds into dst, an existing empty folder,
// through an [os.Root]. Entries are written relative to the skill root (see
// Layout in the package documentation). On any error dst is left empty:
// nothing was written, or what was written has been removed. The report is
// the check's; the error is its Err, or the first problem met while writing.
func ExtractZip(ctx context.Context, r io.ReaderAt, size int64, dst string, lim *Limits) (Report, error) {
	return ExtractZipFolder(ctx, r, size, "", dst, lim)
}

// ExtractZipFolder is [ExtractZip] for the skill in folder, a clean slash
// path inside an archive that may hold several: the whole archive is
// checked, and only what lies in folder is written, relative to it (no
// other unwrapping). "" is ExtractZip.
func ExtractZipFolder(ctx context.Context, r io.ReaderAt, size int64, folder, dst string, lim *Limits) (Report, error) {
	return ExtractZipFolderHeld(ctx, r, size, folder, dst, lim, nil)
}

// ExtractZipFolderHeld is [ExtractZipFolder] that also hands what it writes
// to held (nil: nothing is held).
func ExtractZipFolderHeld(ctx context.Context, r io.ReaderAt, size int64, folder, dst string, lim *Limits, held *Held) (Report, error) {
	c := newChecker(lim.resolve())
	c.folder = folder
	err := c.readZip(ctx, r, size)
	if err != nil {
		return c.rep, err
	}
	return c.rep, writeTree(ctx, dst, c.rep.Dirs, c.files, true, held)
}

// ExtractZipFile is [ExtractZip] for the archive in a file.
func ExtractZipFile(ctx context.Context, name, dst string, lim *Limits) (Report, error) {
	return ExtractZipFileFolder(ctx, name, "", dst, lim)
}

// ExtractZipFileFolder is [ExtractZipFolder] for the archive in a file.
func ExtractZipFileFolder(ctx context.Context, name, folder, dst string, lim *Limits) (Report, error) {
	return ExtractZipFileFolderHeld(ctx, name, folder, dst, lim, nil)
}

// ExtractZipFileFolderHeld is [ExtractZipFolderHeld] for the archive in a
// file.
func ExtractZipFileFolderHeld(ctx context.Context, name, folder, dst string, lim *Limits, held *Held) (Report, error) {
	var rep Report
	err := WithFile(name, func(f *os.File, size int64) (err error) {
		rep, err = ExtractZipFolderHeld(ctx, f, size, folder, dst, lim, held)
		return err
	})
	return rep, err
}

// WithFile opens the archive in file name, which must be a regular file
// (else [ErrNotZip]), and calls do with it and its size.
func WithFile(name string, do func(*os.File, int64) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file", ErrNotZip, name)
	}
	return do(f, st.Size())
}

func checkZip(ctx context.Context, r io.ReaderAt, size int64, l Limits) (*checker, error) {
	c := newChecker(l)
	return c, c.readZip(ctx, r, size)
}

// readZip feeds every entry of the archive to c, then finishes the check.
func (c *checker) readZip(ctx context.Context, r io.ReaderAt, size int64) error {
	l := c.lim
	if size < 0 {
		return fmt.Errorf("%w: a negative size (%d)", ErrNotZip, size)
	}
	if size > l.MaxArchiveBytes {
		c.rep.SizeError = fmt.Errorf("%w: %d bytes, over the limit of %d", ErrArchiveTooLarge, size, l.MaxArchiveBytes)
		return c.rep.Err()
	}
	if n := countCentralHeaders(r, size, l.MaxEntries+1); n > l.MaxEntries {
		c.rep.SizeError = fmt.Errorf("%w: more than %d entries", ErrTooManyEntries, l.MaxEntries)
		return c.rep.Err()
	}
	z, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // insecure paths are ours to judge
		return fmt.Errorf("%w: %w", ErrNotZip, err)
	}
	if len(z.File) > l.MaxEntries {
		c.rep.SizeError = fmt.Errorf("%w: %d entries, over the limit of %d", ErrTooManyEntries, len(z.File), l.MaxEntries)
		return c.rep.Err()
	}
	layout := dataLayout(z.File, size)
	for i, f := range z.File {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e := &entry{name: f.Name, dir: strings.HasSuffix(f.Name, "/"), exec: f.Mode().Perm()&0o111 != 0}
		e.size = int64(min(f.UncompressedSize64, math.MaxInt64))
		e.problem = cmp.Or(zipProblem(f, l), layout[i])
		e.open = func() (io.ReadCloser, error) { return openZipData(f) }
		c.add(e)
	}
	if c.total > RatioFloor && c.total/int64(l.MaxRatio) > size {
		c.rep.SizeError = cmp.Or(c.rep.SizeError, fmt.Errorf("%w: the archive expands %d:1 (%d bytes from %d), over the limit of %d:1",
			ErrRatio, c.total/max(size, 1), c.total, size, l.MaxRatio))
	}
	c.finish()
	return c.rep.Err()
}

// Unix file types in the high bits of a ZIP's external attributes.
const (
	unixTypeMask = 0o170000
	unixRegular  = 0o100000
	unixDir      = 0o040000
)

// zipProblem finds what is wrong with an entry that only its header shows.
func zipProblem(f *zip.File, l Limits) error {
	dir := strings.HasSuffix(f.Name, "/")
	mode := f.Mode()
	creator := f.CreatorVersion >> 8
	unix := creator == 3 || creator == 19 // Unix, macOS: modes in the high bits
	utype := f.ExternalAttrs >> 16 & unixTypeMask
	if f.Flags&0x1 != 0 {
		return fmt.Errorf("%w: the entry is encrypted", ErrUnsupported)
	}
	if err := kindProblem(mode); err != nil {
		return err
	}
	switch {
	case hardLink(f.Extra):
		return fmt.Errorf("%w: the entry is a hard link (its Unix extra field names a link target)", ErrLink)
	case unix && utype != 0 && utype != unixRegular && utype != unixDir:
		return fmt.Errorf("%w: the entry has the unknown Unix file type %#o", ErrNotRegular, utype)
	case mode.IsDir() != dir:
		return fmt.Errorf("%w: the entry's mode says folder but its name does not end in /", ErrMalformed)
	case dir && (f.UncompressedSize64 > 0 || f.CompressedSize64 > 0):
		return fmt.Errorf("%w: the folder entry carries data", ErrMalformed)
	case dir:
		return nil
	case f.Method == zip.Store && f.CompressedSize64 != f.UncompressedSize64:
		return fmt.Errorf("%w: the entry is stored, yet declares %d bytes compressed and %d uncompressed", ErrMalformed, f.CompressedSize64, f.UncompressedSize64)
	case f.Method != zip.Store && f.Method != zip.Deflate:
		return fmt.Errorf("%w: the entry uses compression method %d; only store (0) and deflate (8) are read", ErrUnsupported, f.Method)
	case f.UncompressedSize64 > RatioFloor && f.UncompressedSize64/uint64(l.MaxRatio) > f.CompressedSize64:
		return fmt.Errorf("%w: the entry expands %d:1 (%d bytes from %d), over the limit of %d:1",
			ErrRatio, f.UncompressedSize64/max(f.CompressedSize64, 1), f.UncompressedSize64, f.CompressedSize64, l.MaxRatio)
	}
	return nil
}

// kindProblem refuses links, devices, pipes and sockets by their mode bits.
func kindProblem(mode fs.FileMode) error {
	switch {
	case mode&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: the entry is a symbolic link", ErrLink)
	case mode&fs.ModeDevice != 0:
		return fmt.Errorf("%w: the entry is a device", ErrNotRegular)
	case mode&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%w: the entry is a named pipe", ErrNotRegular)
	case mode&fs.ModeSocket != 0:
		return fmt.Errorf("%w: the entry is a socket", ErrNotRegular)
	}
	return nil
}

// hardLink reports whether extra holds a PKWARE Unix extra field (0x000d)
// with link data after its 12 fixed bytes (APPNOTE 4.5.7).
func hardLink(extra []byte) bool {
	for len(extra) >= 4 {
		tag, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		extra = extra[4:]
		if n > len(extra) {
			return false
		}
		if tag == 0x000d && n > 12 {
			return true
		}
		extra = extra[n:]
	}
	return false
}

// dataLayout finds, for each entry, data that runs past the end of the
// archive or overlaps another entry's data (the overlapping-entry bomb,
// where many headers share one compressed kernel). Folder entries and
// empty files have no data.
func dataLayout(files []*zip.File, size int64) []error {
	type span struct {
		i          int
		start, end uint64
	}
	problems := make([]error, len(files))
	var spans []span
	for i, f := range files {
		if f.CompressedSize64 == 0 || strings.HasSuffix(f.Name, "/") {
			continue
		}
		off, err := f.DataOffset()
		if err != nil {
			problems[i] = fmt.Errorf("%w: the entry's local header is unreadable: %w", ErrMalformed, err)
			continue
		}
		end := uint64(off) + f.CompressedSize64
		if off < 0 || end < uint64(off) || end > uint64(size) {
			problems[i] = fmt.Errorf("%w: the entry's data runs past the end of the archive", ErrMalformed)
			continue
		}
		spans = append(spans, span{i, uint64(off), end})
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	for k := 1; k < len(spans); k++ {
		prev := spans[k-1]
		if spans[k].start < prev.end {
			later := max(prev.i, spans[k].i)
			problems[later] = fmt.Errorf("%w: the entry's data overlaps that of %q, a zip-bomb technique", ErrMalformed, files[min(prev.i, spans[k].i)].Name)
			if spans[k].end < prev.end {
				spans[k].end = prev.end // keep the farthest end for the next comparison
			}
		}
	}
	return problems
}

// zipData reads an entry's data and says precisely what went wrong.
type zipData struct {
	rc       io.ReadCloser
	declared uint64
}

func openZipData(f *zip.File) (io.ReadCloser, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return &zipData{rc, f.UncompressedSize64}, nil
}

func (z *zipData) Read(p []byte) (int, error) {
	n, err := z.rc.Read(p)
	switch {
	case err == nil || err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return n, err
	case errors.Is(err, zip.ErrFormat): // archive/zip's word for more data than declared
		return n, fmt.Errorf("%w: the data is longer than the %d bytes declared", ErrSizeMismatch, z.declared)
	}
	return n, fmt.Errorf("%w: %w", ErrCorrupt, err)
}

func (z *zipData) Close() error { return z.rc.Close() }

// ZIP record signatures and sizes (APPNOTE 4.3).
const (
	sigCentral     = 0x02014b50
	sigEnd         = 0x06054b50
	sigEnd64       = 0x06064b50
	sigLocator64   = 0x07064b50
	centralLen     = 46
	endLen         = 22
	locator64Len   = 20
	end64Len       = 56
	maxCommentLen  = 0xffff
	dirScanBufSize = 64 << 10
)

// countCentralHeaders counts the central-directory headers archive/zip
// would parse, without keeping any, and stops counting at limit. It locates
// the directory as archive/zip does (both of its guesses at the base offset
// are tried); anything it cannot read counts as 0 and is left to archive/zip
// to report. It exists because archive/zip keeps every header in memory
// before its count can be checked: 250 MB for a 43 MB archive of a million
// empty headers.
func countCentralHeaders(r io.ReaderAt, size int64, limit int) int {
	tailLen := min(size, maxCommentLen+endLen)
	tail := make([]byte, tailLen)
	if _, err := r.ReadAt(tail, size-tailLen); err != nil && err != io.EOF {
		return 0
	}
	p := -1
	for i := len(tail) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == sigEnd && i+endLen+int(binary.LittleEndian.Uint16(tail[i+20:])) <= len(tail) {
			p = i
			break
		}
	}
	if p < 0 {
		return 0
	}
	endOff := size - tailLen + int64(p)
	records := uint64(binary.LittleEndian.Uint16(tail[p+10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(tail[p+12:]))
	dirOff := uint64(binary.LittleEndian.Uint32(tail[p+16:]))
	if records == 0xffff || dirSize == 0xffff || dirOff == 0xffffffff {
		if off, s, o, ok := readEnd64(r, endOff); ok {
			endOff, dirSize, dirOff = off, s, o
		}
	}
	if dirSize > math.MaxInt64 || dirOff > math.MaxInt64 {
		return 0
	}
	n := scanCentral(r, size, int64(dirOff), limit)
	if base := endOff - int64(dirSize) - int64(dirOff); base != 0 {
		n = max(n, scanCentral(r, size, base+int64(dirOff), limit))
	}
	return n
}

// readEnd64 reads the ZIP64 end record that the locator before endOff
// points to.
func readEnd64(r io.ReaderAt, endOff int64) (off int64, dirSize, dirOff uint64, ok bool) {
	loc := make([]byte, locator64Len)
	if endOff < locator64Len {
		return 0, 0, 0, false
	}
	if _, err := r.ReadAt(loc, endOff-locator64Len); err != nil || binary.LittleEndian.Uint32(loc) != sigLocator64 {
		return 0, 0, 0, false
	}
	p := binary.LittleEndian.Uint64(loc[8:])
	if p > math.MaxInt64 {
		return 0, 0, 0, false
	}
	end := make([]byte, end64Len)
	if _, err := r.ReadAt(end, int64(p)); err != nil || binary.LittleEndian.Uint32(end) != sigEnd64 {
		return 0, 0, 0, false
	}
	return int64(p), binary.LittleEndian.Uint64(end[40:]), binary.LittleEndian.Uint64(end[48:]), true
}

// scanCentral counts consecutive central-directory headers from start.
func scanCentral(r io.ReaderAt, size, start int64, limit int) int {
	if start < 0 || start >= size {
		return 0
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r, start, size-start), dirScanBufSize)
	var h [centralLen]byte
	n := 0
	for n < limit {
		if _, err := io.ReadFull(br, h[:]); err != nil || binary.LittleEndian.Uint32(h[:]) != sigCentral {
			break
		}
		skip := int(binary.LittleEndian.Uint16(h[28:])) + int(binary.LittleEndian.Uint16(h[30:])) + int(binary.LittleEndian.Uint16(h[32:]))
		if _, err := br.Discard(skip); err != nil {
			break
		}
		n++
	}
	return n
}

// ReadZip checks the ZIP archive of size bytes that r reads as [CheckZip]
// does and, when the check passes, returns the skill it holds as a
// read-only file system over r (see Layout in the package documentation):
// nothing is written, each file is decompressed when it is read, and a file
// whose data is not its declared size fails its read. r must stay readable
// while the file system is used. The report is the check's; the error is
// its Err.
func ReadZip(ctx context.Context, r io.ReaderAt, size int64, lim *Limits) (fs.FS, Report, error) {
	c, err := checkZip(ctx, r, size, lim.resolve())
	if err != nil {
		return nil, c.rep, err
	}
	fsys, err := c.tree()
	return fsys, c.rep, err
}
