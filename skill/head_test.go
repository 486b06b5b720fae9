package skill

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// chunkFile is an fs.File that returns at most n bytes per Read.
type chunkFile struct {
	r    *bytes.Reader
	n    int
	size int64
}

func (f *chunkFile) Stat() (fs.FileInfo, error) { return chunkInfo{f.size}, nil }
func (f *chunkFile) Close() error               { return nil }
func (f *chunkFile) Read(p []byte) (int, error) {
	if len(p) > f.n {
		p = p[:f.n]
	}
	return f.r.Read(p)
}

type chunkInfo struct{ size int64 }

func (i chunkInfo) Name() string       { return "SKILL.md" }
func (i chunkInfo) Size() int64        { return i.size }
func (i chunkInfo) Mode() fs.FileMode  { return 0o644 }
func (i chunkInfo) ModTime() time.Time { return time.Time{} }
func (i chunkInfo) IsDir() bool        { return false }
func (i chunkInfo) Sys() any           { return nil }

// checkHead asserts that splitting what readHead read gives the frontmatter
// and error that splitting the whole file gives.
func checkHead(t *testing.T, data []byte, chunk int) {
	t.Helper()
	head, _, err := readHead(&chunkFile{r: bytes.NewReader(data), n: chunk, size: int64(len(data))}, 1<<20, nil)
	if err != nil {
		t.Fatalf("readHead: %v", err)
	}
	if !bytes.HasPrefix(data, head) {
		t.Fatalf("head is not a prefix of the file")
	}
	wantFM, _, wantErr := SplitFrontmatter(data)
	gotFM, _, gotErr := SplitFrontmatter(head)
	if !bytes.Equal(gotFM, wantFM) || !errors.Is(gotErr, wantErr) && gotErr != wantErr {
		t.Fatalf("chunk %d, %q:\nhead %q\ngot %q %v\nwant %q %v", chunk, data, head, gotFM, gotErr, wantFM, wantErr)
	}
}

func TestReadHeadDecidesAsTheWholeFile(t *testing.T) {
	long := strings.Repeat("body line\n", 2000)
	cases := []string{
		"---\nname: a\n---\n" + long,
		"---\nname: a\n---", // closes at the end of the file
		"---\nname: a\n---x\n---\n" + long,
		"---\nname: a\n----\n" + long, // never closes
		"\xef\xbb\xbf---\r\nname: a\r\n---  \r\nbody",
		"no frontmatter\n" + long,
		"--",
		"",
		"---\ndescription: \"" + strings.Repeat("x", 10000) + "\"\n---\n" + long,
	}
	for _, c := range cases {
		for _, chunk := range []int{1, 3, 4096, 1 << 20} {
			checkHead(t, []byte(c), chunk)
		}
	}
	// The body of a long file is not read.
	data := []byte("---\nname: a\n---\n" + long)
	head, _, _ := readHead(&chunkFile{r: bytes.NewReader(data), n: 1 << 20, size: int64(len(data))}, 1<<20, nil)
	if len(head) > headChunk {
		t.Errorf("read %d bytes of %d", len(head), len(data))
	}
	// Over the limit by its size, with a head that fits: read, and the
	// size says so.
	if head, size, err := readHead(&chunkFile{r: bytes.NewReader(data), n: 10, size: int64(len(data))}, 100, nil); err != nil || size != int64(len(data)) || string(head[:16]) != "---\nname: a\n---\n" {
		t.Errorf("limit: %q %d %v", head, size, err)
	}
	// A head that does not fit is refused.
	bigHead := []byte("---\nname: a\ndescription: " + strings.Repeat("x", 200) + "\n---\n")
	if _, _, err := readHead(&chunkFile{r: bytes.NewReader(bigHead), n: 10, size: int64(len(bigHead))}, 100, nil); !errors.Is(err, errTooLarge) {
		t.Errorf("limit: %v", err)
	}
}

func FuzzReadHead(f *testing.F) {
	f.Add([]byte("---\nname: a\n---\nbody"), 3)
	f.Add([]byte("---\r\nx: 1\r\n---\r\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		if chunk <= 0 || chunk > 1<<16 {
			chunk = 1 + len(data)
		}
		checkHead(t, data, chunk)
	})
}
