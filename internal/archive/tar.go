package archive

import (
	"archive/tar"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// ErrNotTarGz: the input is not a gzip-compressed tar archive that
// archive/tar and compress/gzip can read.
var ErrNotTarGz = errors.New("not a gzip-compressed tar archive")

// ReadTarGz reads the gzip-compressed tar archive r, checking it against the
// rules of the package documentation as [CheckZip] checks a ZIP archive, and
// returns the skill it holds as a read-only file system held in memory (see
// Layout). A tar archive has no directory to check first, so the archive is
// read once, front to back: at most MaxArchiveBytes of compressed input,
// MaxEntries entries and MaxTotalBytes of file data (plus the tar headers)
// are read, and the archive as a whole expands at most MaxRatio times. What is specific to
// tar:
//
//   - A leading "./" of an entry's name is dropped, and the entry that names
//     the root itself ("./") is skipped: "tar -C dir ." writes them.
//   - Symbolic links and hard links (type 2 and 1) are refused as links;
//     character and block devices, FIFOs and other types as not regular.
//     PAX global headers carry no file and are skipped.
//   - An entry is executable when any x bit of its mode is set.
//
// The report is the check's; the error is its Err, [ErrNotTarGz] for input
// that is not a readable tar.gz, or ctx's error.
func ReadTarGz(ctx context.Context, r io.Reader, lim *Limits) (fs.FS, Report, error) {
	l := lim.resolve()
	c := newChecker(l)
	in := &countingReader{r: io.LimitReader(r, l.MaxArchiveBytes+1)}
	tooLarge := func() error {
		c.rep.SizeError = fmt.Errorf("%w: over the limit of %d bytes", ErrArchiveTooLarge, l.MaxArchiveBytes)
		return c.rep.Err()
	}
	gz, err := gzip.NewReader(in)
	if err != nil {
		if in.n > l.MaxArchiveBytes {
			return nil, c.rep, tooLarge()
		}
		return nil, c.rep, fmt.Errorf("%w: %w", ErrNotTarGz, err)
	}
	// The tar stream holds headers and the data of refused entries too,
	// which tar.Reader reads through to reach the next header: bound it, or
	// a small archive of one huge refused file would take minutes to skip.
	stream := &countingReader{r: io.LimitReader(gz, maxTarStream(l)+1)}
	streamEnd := func(err error) error {
		if in.n > l.MaxArchiveBytes {
			return tooLarge()
		}
		if stream.n > maxTarStream(l) {
			c.rep.SizeError = fmt.Errorf("%w: the archive expands to more than %d bytes", ErrTotalTooLarge, maxTarStream(l))
			return c.rep.Err()
		}
		return err
	}
	tr := tar.NewReader(stream)
	for count := 0; ; {
		if err := ctx.Err(); err != nil {
			return nil, c.rep, err
		}
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, c.rep, streamEnd(fmt.Errorf("%w: %w", ErrNotTarGz, err))
		}
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		name := strings.TrimPrefix(h.Name, "./")
		if name == "" {
			continue
		}
		if count++; count > l.MaxEntries {
			c.rep.SizeError = fmt.Errorf("%w: more than %d entries", ErrTooManyEntries, l.MaxEntries)
			return nil, c.rep, c.rep.Err()
		}
		e := &entry{name: name, dir: h.Typeflag == tar.TypeDir, exec: h.Mode&0o111 != 0, size: h.Size}
		switch h.Typeflag {
		case tar.TypeDir, tar.TypeReg: // archive/tar reads the old regular type as TypeReg
		case tar.TypeSymlink:
			e.problem = fmt.Errorf("%w: the entry is a symbolic link to %q", ErrLink, h.Linkname)
		case tar.TypeLink:
			e.problem = fmt.Errorf("%w: the entry is a hard link to %q", ErrLink, h.Linkname)
		default:
			e.problem = fmt.Errorf("%w: the entry is of tar type %q", ErrNotRegular, h.Typeflag)
		}
		if e.dir {
			e.size = 0
		}
		if !c.add(e) || e.dir {
			continue
		}
		if c.rep.SizeError != nil {
			return nil, c.rep, c.rep.Err()
		}
		data := make([]byte, e.size)
		if _, err := io.ReadFull(tr, data); err != nil {
			return nil, c.rep, streamEnd(&FileError{Path: h.Name, Err: fmt.Errorf("%w: %w", ErrCorrupt, err)})
		}
		e.open = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	}
	if c.total > RatioFloor && c.total/int64(l.MaxRatio) > in.n {
		c.rep.SizeError = cmp.Or(c.rep.SizeError, fmt.Errorf("%w: the archive expands %d:1 (%d bytes from %d), over the limit of %d:1",
			ErrRatio, c.total/max(in.n, 1), c.total, in.n, l.MaxRatio))
	}
	c.finish()
	if err := c.rep.Err(); err != nil {
		return nil, c.rep, err
	}
	fsys, err := c.tree()
	return fsys, c.rep, err
}

// maxTarStream bounds the decompressed tar stream: the file data allowed,
// plus a header block and padding per entry, plus room for long-name and
// PAX records.
func maxTarStream(l Limits) int64 {
	return l.MaxTotalBytes + int64(l.MaxEntries)*2048 + 1<<20
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
