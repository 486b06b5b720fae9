package archive

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// hostile is one archive that must be refused.
type hostile struct {
	name  string
	zip   func(t testing.TB) (io.ReaderAt, int64)
	lim   *Limits
	want  error  // the sentinel errors.Is must find
	msg   string // the reason, as the error says it
	entry string // the entry the error must name, "" for archive-wide refusals
}

func fromBytes(b []byte) func(testing.TB) (io.ReaderAt, int64) {
	return func(testing.TB) (io.ReaderAt, int64) { return bytes.NewReader(b), int64(len(b)) }
}

// withSkill builds a ZIP whose first entry is a valid SKILL.md, so a refusal
// met while writing has something to clean up.
func withSkill(files ...zf) func(testing.TB) (io.ReaderAt, int64) {
	return func(t testing.TB) (io.ReaderAt, int64) {
		b := buildZip(t, append([]zf{{name: "SKILL.md", body: skillMD}}, files...)...)
		return bytes.NewReader(b), int64(len(b))
	}
}

// rawWithSkill is withSkill for raw entries.
func rawWithSkill(entries ...func(testing.TB) raw) func(testing.TB) (io.ReaderAt, int64) {
	return func(t testing.TB) (io.ReaderAt, int64) {
		all := []raw{skillRaw(t)}
		for _, e := range entries {
			all = append(all, e(t))
		}
		b := rawZip(t, all...)
		return bytes.NewReader(b), int64(len(b))
	}
}

func hostileZips() []hostile {
	return []hostile{
		{name: "zip-slip dot-dot", zip: withSkill(zf{name: "../evil.txt", body: "x"}),
			want: ErrUnsafePath, msg: `has a ".." element`, entry: "../evil.txt"},
		{name: "zip-slip nested dot-dot", zip: withSkill(zf{name: "a/../../evil.txt", body: "x"}),
			want: ErrUnsafePath, msg: `has a ".." element`, entry: "a/../../evil.txt"},
		{name: "zip-slip backslash", zip: withSkill(zf{name: `..\evil.txt`, body: "x"}),
			want: ErrUnsafePath, msg: "holds a backslash", entry: `..\evil.txt`},
		{name: "zip-slip absolute", zip: withSkill(zf{name: "/tmp/skillkit-zip-slip-evil", body: "x"}),
			want: ErrUnsafePath, msg: "the path is absolute", entry: "/tmp/skillkit-zip-slip-evil"},
		{name: "zip-slip into /etc", zip: withSkill(zf{name: "/etc/skillkit-zip-slip-evil", body: "x"}),
			want: ErrUnsafePath, msg: "the path is absolute", entry: "/etc/skillkit-zip-slip-evil"},
		{name: "zip-slip UNC", zip: withSkill(zf{name: `\\server\share\evil.txt`, body: "x"}),
			want: ErrUnsafePath, msg: "the path is absolute", entry: `\\server\share\evil.txt`},
		{name: "zip-slip drive backslash", zip: withSkill(zf{name: `C:\evil.txt`, body: "x"}),
			want: ErrUnsafePath, msg: "starts with the drive letter C:", entry: `C:\evil.txt`},
		{name: "zip-slip drive slash", zip: withSkill(zf{name: "C:/evil.txt", body: "x"}),
			want: ErrUnsafePath, msg: "starts with the drive letter C:", entry: "C:/evil.txt"},
		{name: "empty element", zip: withSkill(zf{name: "a//evil.txt", body: "x"}),
			want: ErrUnsafePath, msg: "has an empty element", entry: "a//evil.txt"},
		{name: "dot element", zip: withSkill(zf{name: "./evil.txt", body: "x"}),
			want: ErrUnsafePath, msg: `has a "." element`, entry: "./evil.txt"},
		{name: "NUL in a name", zip: withSkill(zf{name: "notes.md\x00.sh", body: "x"}),
			want: ErrUnsafePath, msg: "holds a NUL byte", entry: "notes.md\x00.sh"},
		{name: "control character", zip: withSkill(zf{name: "evil\x1b[2J.md", body: "x"}),
			want: ErrUnsafePath, msg: "character U+001B", entry: "evil\x1b[2J.md"},
		{name: "bidi override", zip: withSkill(zf{name: "evil\u202edm.sh", body: "x"}),
			want: ErrUnsafePath, msg: "character U+202E", entry: "evil\u202edm.sh"},
		{name: "Windows-reserved character", zip: withSkill(zf{name: "what?.md", body: "x"}),
			want: ErrUnsafePath, msg: `holds '?', which Windows file names cannot hold`, entry: "what?.md"},
		{name: "invalid UTF-8", zip: withSkill(zf{name: "evil\xff.md", body: "x"}),
			want: ErrUnsafePath, msg: "is not valid UTF-8", entry: "evil\xff.md"},
		{name: "name too long", zip: withSkill(zf{name: strings.Repeat("a/", 600) + "x", body: "x"}),
			want: ErrUnsafePath, msg: "over the limit of 1024", entry: strings.Repeat("a/", 600) + "x"},
		{name: "element too long", zip: withSkill(zf{name: strings.Repeat("a", 256), body: "x"}),
			want: ErrUnsafePath, msg: "an element of the path is 256 bytes", entry: strings.Repeat("a", 256)},
		{name: "symlink", zip: withSkill(zf{name: "passwd", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}),
			want: ErrLink, msg: "is a symbolic link", entry: "passwd"},
		{name: "hard link", zip: rawWithSkill(func(t testing.TB) raw {
			r := deflated(t, "shadow", nil)
			// PKWARE Unix extra field: atime, mtime, uid, gid, then the link target.
			extra := binary.LittleEndian.AppendUint16(nil, 0x000d)
			extra = binary.LittleEndian.AppendUint16(extra, uint16(12+len("/etc/shadow")))
			extra = append(extra, make([]byte, 12)...)
			r.fh.Extra = append(extra, "/etc/shadow"...)
			return r
		}), want: ErrLink, msg: "is a hard link", entry: "shadow"},
		{name: "character device", zip: withSkill(zf{name: "tty", mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}),
			want: ErrNotRegular, msg: "is a device", entry: "tty"},
		{name: "named pipe", zip: withSkill(zf{name: "fifo", mode: fs.ModeNamedPipe | 0o644}),
			want: ErrNotRegular, msg: "is a named pipe", entry: "fifo"},
		{name: "socket", zip: withSkill(zf{name: "sock", mode: fs.ModeSocket | 0o644}),
			want: ErrNotRegular, msg: "is a socket", entry: "sock"},
		{name: "unknown Unix type", zip: rawWithSkill(func(t testing.TB) raw {
			r := deflated(t, "odd", []byte("x"))
			r.fh.ExternalAttrs = 0o170644 << 16
			return r
		}), want: ErrNotRegular, msg: "unknown Unix file type 0170000", entry: "odd"},
		{name: "bomb 1 GiB at 1000:1", zip: bomb(false), want: ErrRatio, msg: "expands 10", entry: "bomb.txt"},
		{name: "bomb with a lying size", zip: bomb(true), want: ErrSizeMismatch, msg: "longer than the 1024 bytes declared", entry: "bomb.txt"},
		{name: "size lies short", zip: rawWithSkill(func(t testing.TB) raw {
			r := deflated(t, "short.md", bytes.Repeat([]byte("abc "), 500))
			r.fh.UncompressedSize64 = 4000
			return r
		}), want: ErrSizeMismatch, msg: "ends before the 4000 bytes declared", entry: "short.md"},
		{name: "overlapping entries", zip: overlapping, want: ErrMalformed, msg: `overlaps that of "a.md"`, entry: "b.md"},
		{name: "bad checksum", zip: rawWithSkill(func(t testing.TB) raw {
			r := deflated(t, "notes.md", []byte("hello, world"))
			r.fh.CRC32 ^= 1
			return r
		}), want: ErrCorrupt, msg: "checksum error", entry: "notes.md"},
		{name: "encrypted", zip: rawWithSkill(func(t testing.TB) raw {
			r := deflated(t, "secret.md", []byte("x"))
			r.fh.Flags |= 0x1
			return r
		}), want: ErrUnsupported, msg: "is encrypted", entry: "secret.md"},
		{name: "bzip2 method", zip: rawWithSkill(func(t testing.TB) raw {
			r := deflated(t, "b.md", []byte("x"))
			r.fh.Method = 12
			return r
		}), want: ErrUnsupported, msg: "compression method 12", entry: "b.md"},
		{name: "stored sizes differ", zip: rawWithSkill(func(t testing.TB) raw {
			r := raw{fh: zip.FileHeader{Name: "s.md", Method: zip.Store, CompressedSize64: 3, UncompressedSize64: 300, CRC32: crc32.ChecksumIEEE([]byte("abc"))}, data: []byte("abc")}
			r.fh.SetMode(0o644)
			return r
		}), want: ErrMalformed, msg: "declares 3 bytes compressed and 300 uncompressed", entry: "s.md"},
		{name: "folder with data", zip: rawWithSkill(func(t testing.TB) raw {
			r := raw{fh: zip.FileHeader{Name: "d/", Method: zip.Store, CompressedSize64: 3, UncompressedSize64: 3}}
			r.fh.SetMode(fs.ModeDir | 0o755)
			return r
		}), want: ErrMalformed, msg: "folder entry carries data", entry: "d/"},
		{name: "folder mode without slash", zip: withSkill(zf{name: "d", mode: fs.ModeDir | 0o755}),
			want: ErrMalformed, msg: "mode says folder", entry: "d"},
		{name: "100,000 entries", zip: manyEntries(100_000), want: ErrTooManyEntries, msg: "more than 10000 entries"},
		{name: "SKILL.md vs skill.md", zip: withSkill(zf{name: "skill.md", body: skillMD}),
			want: ErrCollision, msg: `differs only in letter case or Unicode form from "SKILL.md"`, entry: "skill.md"},
		{name: "folder case collision", zip: withSkill(zf{name: "Docs/a.md", body: "a"}, zf{name: "docs/b.md", body: "b"}),
			want: ErrCollision, msg: `its folder "docs" differs only in letter case or Unicode form from "Docs"`, entry: "docs/b.md"},
		{name: "Unicode normalization collision", zip: withSkill(zf{name: norm.NFC.String("café.md"), body: "a"}, zf{name: norm.NFD.String("café.md"), body: "b"}),
			want: ErrCollision, msg: "differs only in letter case or Unicode form", entry: norm.NFD.String("café.md")},
		{name: ".git/config", zip: withSkill(zf{name: ".git/config", body: "[core]\n\tfsmonitor = touch /tmp/pwned\n"}),
			want: ErrReservedName, msg: ".git is never installed", entry: ".git/config"},
		{name: ".GIT in another case", zip: withSkill(zf{name: "sub/.GIT/hooks/post-checkout", body: "#!/bin/sh\n", mode: 0o755}),
			want: ErrReservedName, msg: ".git is never installed", entry: "sub/.GIT/hooks/post-checkout"},
		{name: ".skillhub", zip: withSkill(zf{name: ".skillhub/lock.json", body: "{}"}),
			want: ErrReservedName, msg: ".skillhub is never installed", entry: ".skillhub/lock.json"},
		{name: "missing SKILL.md", zip: fromBytesT(func(t testing.TB) []byte { return buildZip(t, zf{name: "README.md", body: "hi"}) }),
			want: ErrNoSkillFile, msg: "no SKILL.md at the top of the tree"},
		{name: "SKILL.md two levels down", zip: fromBytesT(func(t testing.TB) []byte {
			return buildZip(t, zf{name: "repo-main/skills/demo/SKILL.md", body: skillMD})
		}), want: ErrNoSkillFile, msg: `nor in its only folder "repo-main"`},
		{name: "duplicate file", zip: withSkill(zf{name: "notes.md", body: "one"}, zf{name: "notes.md", body: "two"}),
			want: ErrCollision, msg: "the file appears more than once", entry: "notes.md"},
		{name: "file then folder", zip: withSkill(zf{name: "docs", body: "file"}, zf{name: "docs/a.md", body: "a"}),
			want: ErrCollision, msg: `its folder "docs" is also a file`, entry: "docs/a.md"},
		{name: "folder then file", zip: withSkill(zf{name: "docs/", body: ""}, zf{name: "docs", body: "file"}),
			want: ErrCollision, msg: "the name is a file and also a folder", entry: "docs"},
		{name: "file over 1 MiB", zip: withSkill(zf{name: "big.bin", body: string(noise(1<<20 + 1)), store: true}),
			want: ErrFileTooLarge, msg: "1048577 bytes, over the limit of 1048576 per file", entry: "big.bin"},
		{name: "archive over 50 MiB", zip: func(t testing.TB) (io.ReaderAt, int64) { return unreadable{t}, DefaultMaxArchiveBytes + 1 },
			want: ErrArchiveTooLarge, msg: "52428801 bytes, over the limit of 52428800"},
		{name: "archive over a custom limit", zip: withSkill(zf{name: "a.md", body: strings.Repeat("a", 2000), store: true}),
			lim: &Limits{MaxArchiveBytes: 1000}, want: ErrArchiveTooLarge, msg: "over the limit of 1000"},
		{name: "total over a custom limit", zip: withSkill(zf{name: "a.md", body: strings.Repeat("a", 600), store: true}, zf{name: "b.md", body: strings.Repeat("b", 600), store: true}),
			lim: &Limits{MaxTotalBytes: 1000}, want: ErrTotalTooLarge, msg: "add up to more than 1000 bytes"},
		{name: "files over 200 MiB in all", zip: rawWithSkill(declaredMiBFiles(201)...),
			want: ErrTotalTooLarge, msg: "add up to more than 209715200 bytes"},
		{name: "archive-wide ratio", zip: withSkill(manySmallZeros(40)...), want: ErrRatio, msg: "the archive expands"},
		{name: "not a ZIP", zip: fromBytes([]byte("this is not a zip archive, just text")), want: ErrNotZip, msg: "zip: not a valid zip file"},
	}
}

func fromBytesT(build func(testing.TB) []byte) func(testing.TB) (io.ReaderAt, int64) {
	return func(t testing.TB) (io.ReaderAt, int64) { return fromBytes(build(t))(t) }
}

// unreadable fails the test when read: limits on the size come first.
type unreadable struct{ t testing.TB }

func (u unreadable) ReadAt([]byte, int64) (int, error) {
	u.t.Error("the archive was read although its size is over the limit")
	return 0, io.EOF
}

// noise returns n incompressible bytes.
func noise(n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{1})
	r.Read(b)
	return b
}

// manySmallZeros returns files each under RatioFloor whose sum expands far
// past the archive-wide ratio.
func manySmallZeros(n int) []zf {
	files := make([]zf, n)
	for i := range files {
		files[i] = zf{name: fmt.Sprintf("zeros/%03d.txt", i), body: strings.Repeat("\x00", RatioFloor)}
	}
	return files
}

// declaredMiBFiles returns n entries that each declare DefaultMaxFileBytes
// uncompressed from just enough data to stay under DefaultMaxRatio, so only
// their sum passes a default limit (DefaultMaxTotalBytes). The data is never
// inflated: the sum is refused from the headers.
func declaredMiBFiles(n int) []func(testing.TB) raw {
	data := noise(DefaultMaxFileBytes/DefaultMaxRatio + 512)
	entries := make([]func(testing.TB) raw, n)
	for i := range entries {
		entries[i] = func(testing.TB) raw {
			fh := zip.FileHeader{Name: fmt.Sprintf("big/%03d.bin", i), Method: zip.Deflate,
				CompressedSize64: uint64(len(data)), UncompressedSize64: DefaultMaxFileBytes, CreatorVersion: 3 << 8}
			fh.SetMode(0o644)
			return raw{fh: fh, data: data}
		}
	}
	return entries
}

// manyEntries builds an archive of n empty files.
func manyEntries(n int) func(testing.TB) (io.ReaderAt, int64) {
	return func(t testing.TB) (io.ReaderAt, int64) {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		for i := range n {
			if _, err := w.CreateRaw(&zip.FileHeader{Name: fmt.Sprintf("f/%06d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return bytes.NewReader(buf.Bytes()), int64(buf.Len())
	}
}

// bomb writes, to a temporary file, an archive holding SKILL.md and 1 GiB
// of zeros deflated about 1000:1. The deflate stream is one flushed 1 MiB
// block repeated 1024 times, so nothing large is ever held in memory. With
// lie set, the header declares 1024 bytes instead of 1 GiB.
func bomb(lie bool) func(testing.TB) (io.ReaderAt, int64) {
	return func(t testing.TB) (io.ReaderAt, int64) {
		const block, blocks = 1 << 20, 1024
		zeros := make([]byte, block)
		var kernel bytes.Buffer
		fw, _ := flate.NewWriter(&kernel, flate.BestCompression)
		fw.Write(zeros)
		fw.Flush() // byte-aligned, not final: the block can be repeated
		crc := uint32(0)
		for range blocks {
			crc = crc32.Update(crc, crc32.IEEETable, zeros)
		}
		final := []byte{0x03, 0x00} // an empty final block
		fh := zip.FileHeader{Name: "bomb.txt", Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(kernel.Len()*blocks + len(final)), UncompressedSize64: block * blocks}
		if lie {
			fh.UncompressedSize64 = 1024
		}
		f, err := os.Create(filepath.Join(t.TempDir(), "bomb.zip"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		w := zip.NewWriter(f)
		s := skillRaw(t)
		sw, _ := w.CreateRaw(&s.fh)
		sw.Write(s.data)
		bw, err := w.CreateRaw(&fh)
		if err != nil {
			t.Fatal(err)
		}
		for range blocks {
			bw.Write(kernel.Bytes())
		}
		bw.Write(final)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		if ratio := int64(block*blocks) / st.Size(); ratio < 1000 {
			t.Fatalf("the bomb expands only %d:1", ratio)
		}
		return f, st.Size()
	}
}

// overlapping builds two entries whose headers point at the same data, the
// kernel of an overlapping-entry bomb: the second central header's offset is
// patched to the first's local header.
func overlapping(t testing.TB) (io.ReaderAt, int64) {
	body := bytes.Repeat([]byte("same data "), 100)
	a, b := deflated(t, "a.md", body), deflated(t, "b.md", body)
	z := rawZip(t, skillRaw(t), a, b)
	heads := centralHeaders(z)
	if len(heads) != 3 {
		t.Fatalf("found %d central headers, want 3", len(heads))
	}
	aOff := binary.LittleEndian.Uint32(z[heads[1]+42:])
	binary.LittleEndian.PutUint32(z[heads[2]+42:], aOff)
	return bytes.NewReader(z), int64(len(z))
}

func TestHostileZips(t *testing.T) {
	cases := hostileZips()
	if len(cases) < 20 {
		t.Fatalf("only %d hostile archives", len(cases))
	}
	seen := make(map[string]string)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parent, stage := staging(t)
			before := snapshot(t, parent)
			r, size := tc.zip(t)
			rep, err := ExtractZip(t.Context(), r, size, stage, tc.lim)
			if err == nil {
				t.Fatalf("extracted; report %+v", rep)
			}
			t.Logf("refused: %v", err)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %q does not wrap %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
			if tc.entry != "" {
				var fe *FileError
				if !errors.As(err, &fe) || fe.Path != tc.entry {
					t.Errorf("error %q does not name the entry %q (got %+v)", err, tc.entry, fe)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.entry)) {
					t.Errorf("error %q does not quote the entry", err)
				}
			}
			if after := snapshot(t, parent); !slices.Equal(before, after) {
				t.Errorf("the parent folder changed:\nbefore %q\nafter  %q", before, after)
			}
			if strings.HasPrefix(tc.entry, "/") {
				if _, err := os.Lstat(tc.entry); err == nil {
					t.Errorf("%s was written", tc.entry)
				}
			}
			if other, ok := seen[err.Error()]; ok {
				t.Errorf("same message as %q: %q", other, err)
			}
			seen[err.Error()] = tc.name
		})
	}
}

// TestCheckMatchesExtract: whatever CheckZip refuses, ExtractZip refuses
// with the same report, and CheckZipFile agrees for archives on disk.
func TestCheckMatchesExtract(t *testing.T) {
	for _, tc := range hostileZips() {
		t.Run(tc.name, func(t *testing.T) {
			r, size := tc.zip(t)
			rep, err := CheckZip(t.Context(), r, size, tc.lim)
			_, stage := staging(t)
			rep2, err2 := ExtractZip(t.Context(), r, size, stage, tc.lim)
			if err == nil {
				// Only what writing finds (lying sizes, bad checksums) passes the check.
				if !errors.Is(err2, ErrSizeMismatch) && !errors.Is(err2, ErrCorrupt) {
					t.Errorf("CheckZip passed, ExtractZip said %v", err2)
				}
				return
			}
			if err.Error() != err2.Error() || !slices.Equal(rep.Valid, rep2.Valid) || len(rep.Invalid) != len(rep2.Invalid) {
				t.Errorf("CheckZip: %v\nExtractZip: %v", err, err2)
			}
		})
	}
}

// TestManyHeadersCostNoMemory: a 14 MB archive of 300,000 empty central
// headers (all pointing at one local header) is refused before archive/zip
// parses it, which would allocate about 75 MB.
func TestManyHeadersCostNoMemory(t *testing.T) {
	const n = 300_000
	var buf bytes.Buffer
	buf.Write(binary.LittleEndian.AppendUint32(make([]byte, 0, 30), 0x04034b50))
	buf.Write(make([]byte, 26))
	start := buf.Len()
	head := binary.LittleEndian.AppendUint32(nil, sigCentral)
	head = append(head, make([]byte, centralLen-4)...)
	for range n {
		buf.Write(head)
	}
	end := binary.LittleEndian.AppendUint32(nil, sigEnd)
	end = binary.LittleEndian.AppendUint16(end, 0)
	end = binary.LittleEndian.AppendUint16(end, 0)
	end = binary.LittleEndian.AppendUint16(end, uint16(n%65536))
	end = binary.LittleEndian.AppendUint16(end, uint16(n%65536))
	end = binary.LittleEndian.AppendUint32(end, uint32(buf.Len()-start))
	end = binary.LittleEndian.AppendUint32(end, uint32(start))
	end = binary.LittleEndian.AppendUint16(end, 0)
	buf.Write(end)
	z := buf.Bytes()
	if got := countCentralHeaders(bytes.NewReader(z), int64(len(z)), n+1); got != n {
		t.Fatalf("counted %d headers, want %d", got, n)
	}

	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_, err := CheckZip(t.Context(), bytes.NewReader(z), int64(len(z)), nil)
	runtime.ReadMemStats(&m1)
	if !errors.Is(err, ErrTooManyEntries) {
		t.Fatalf("err = %v, want ErrTooManyEntries", err)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 4<<20 {
		t.Errorf("the check allocated %d bytes", alloc)
	}
}

// TestCancelledExtraction: a cancelled context stops the writing and leaves
// the destination empty.
func TestCancelledExtraction(t *testing.T) {
	files := []zf{{name: "SKILL.md", body: skillMD}}
	for i := range 50 {
		files = append(files, zf{name: fmt.Sprintf("refs/%02d.md", i), body: strings.Repeat("text ", 1000)})
	}
	z := buildZip(t, files...)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	parent, stage := staging(t)
	before := snapshot(t, parent)
	if _, err := ExtractZip(ctx, bytes.NewReader(z), int64(len(z)), stage, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if after := snapshot(t, parent); !slices.Equal(before, after) {
		t.Errorf("left behind: %q", after)
	}
}
