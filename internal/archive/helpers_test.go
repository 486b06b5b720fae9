package archive

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// skillMD is a minimal valid SKILL.md.
const skillMD = "---\nname: demo\ndescription: A demo skill.\n---\nDo the thing.\n"

// zf is one entry for buildZip. A zero mode is a regular 0644 file (a
// folder when the name ends in "/"); files are deflated unless store is set.
type zf struct {
	name  string
	body  string
	mode  fs.FileMode
	store bool
}

// buildZip writes entries through archive/zip.
func buildZip(t testing.TB, files ...zf) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range files {
		fh := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		if f.store || strings.HasSuffix(f.name, "/") {
			fh.Method = zip.Store
		}
		switch {
		case f.mode != 0:
			fh.SetMode(f.mode)
		case strings.HasSuffix(f.name, "/"):
			fh.SetMode(fs.ModeDir | 0o755)
		default:
			fh.SetMode(0o644)
		}
		fw, err := w.CreateHeader(fh)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(fw, f.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// raw is one entry for rawZip: the header is written as given, with data
// as the compressed bytes.
type raw struct {
	fh   zip.FileHeader
	data []byte
}

// rawZip writes headers exactly as given (CreateRaw), so they can lie.
func rawZip(t testing.TB, entries ...raw) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := range entries {
		e := &entries[i]
		fw, err := w.CreateRaw(&e.fh)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// deflated returns body compressed and a header that tells the truth
// about it; callers may then make it lie.
func deflated(t testing.TB, name string, body []byte) raw {
	t.Helper()
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(body)
	fw.Close()
	fh := zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(body),
		CompressedSize64: uint64(buf.Len()), UncompressedSize64: uint64(len(body)), CreatorVersion: 3 << 8}
	fh.SetMode(0o644)
	return raw{fh: fh, data: buf.Bytes()}
}

// skillRaw is a truthful raw entry for SKILL.md.
func skillRaw(t testing.TB) raw { return deflated(t, "SKILL.md", []byte(skillMD)) }

// centralHeaders returns the offsets of the central-directory headers.
func centralHeaders(b []byte) []int {
	var offs []int
	sig := binary.LittleEndian.AppendUint32(nil, sigCentral)
	for i := 0; ; {
		j := bytes.Index(b[i:], sig)
		if j < 0 {
			return offs
		}
		offs = append(offs, i+j)
		i += j + 4
	}
}

// snapshot lists every path under dir with its mode and size, so a test can
// prove that nothing was written or left behind.
func snapshot(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		size := int64(0)
		if info.Mode().IsRegular() {
			size = info.Size()
		}
		out = append(out, fmt.Sprintf("%s %v %d", rel, info.Mode(), size))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// staging makes parent/staging/x as the installer would and returns both.
func staging(t testing.TB) (parent, stage string) {
	t.Helper()
	parent = t.TempDir()
	stage = filepath.Join(parent, "staging", "x")
	if err := os.MkdirAll(stage, 0o755); err != nil {
		t.Fatal(err)
	}
	return parent, stage
}
