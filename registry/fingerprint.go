package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// FingerprintPrefix starts every fingerprint [Fingerprint] returns.
const FingerprintPrefix = "sha256:"

// fpEntry is one file that counts.
type fpEntry struct {
	rel  string // slash path relative to the folder
	name string // path within fsys
	link bool   // a symbolic link; else a regular file
}

// Fingerprint hashes the skill folder dir of fsys (see the package comment
// for what counts), stopping when ctx is done. Symbolic links need fsys to
// implement [fs.ReadLinkFS] (os.DirFS, fstest.MapFS and fs.Sub of them do);
// otherwise a link is an error.
func Fingerprint(ctx context.Context, fsys fs.FS, dir string) (string, error) {
	dir = path.Clean(dir)
	entries, err := fingerprintEntries(ctx, fsys, dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	buf := make([]byte, 64<<10)
	for _, e := range entries {
		if err := hashEntry(ctx, h, fsys, e, buf, nil); err != nil {
			return "", fmt.Errorf("registry: fingerprint of %s: %w", dir, err)
		}
	}
	return FingerprintPrefix + hex.EncodeToString(h.Sum(nil)), nil
}

// fingerprintEntries lists the files of dir that count, sorted by their
// slash paths in byte order (the order the hash wants).
func fingerprintEntries(ctx context.Context, fsys fs.FS, dir string) ([]fpEntry, error) {
	var entries []fpEntry
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if dir == "." {
			rel = p
		}
		switch t := d.Type(); {
		case d.IsDir():
			if skill.IsInfraDir(d.Name()) {
				return fs.SkipDir
			}
		case t&fs.ModeSymlink != 0:
			entries = append(entries, fpEntry{rel: rel, name: p, link: true})
		case t.IsRegular():
			// Its mode and size are taken from the open file, when it is
			// hashed: no stat here.
			entries = append(entries, fpEntry{rel: rel, name: p})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("registry: fingerprint of %s: %w", dir, err)
	}
	// Walk order is per folder; the hash wants the full paths in byte order.
	slices.SortFunc(entries, func(a, b fpEntry) int { return strings.Compare(a.rel, b.rel) })
	return entries, nil
}

// hashEntry writes "path NUL kind NUL size NUL content"; paths hold no NUL,
// so the framing is unambiguous. The kind and size are the open file's
// (Stat on it, which a file system that already read the file can answer
// without a system call); content longer or shorter than the size means the
// file changed while it was hashed, which is an error, as is a file that
// is no longer regular.
// buf is reused across files: copying through io.Copy would allocate a
// buffer per file, which was a quarter of the time of fingerprinting a
// skill of 1,000 small files.
//
// When one is non-nil, it receives the same bytes for this entry alone:
// the entry's own digest, which [Verifier] keeps to tell which files
// changed.
func hashEntry(ctx context.Context, h hash.Hash, fsys fs.FS, e fpEntry, buf []byte, one hash.Hash) error {
	var w io.Writer = h
	if one != nil {
		w = io.MultiWriter(h, one)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if e.link {
		target, err := fs.ReadLink(fsys, e.name)
		if err != nil {
			return err
		}
		io.WriteString(w, e.rel+"\x00l\x00"+strconv.Itoa(len(target))+"\x00"+target)
		return nil
	}
	f, err := fsys.Open(e.name)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s changed while it was hashed", e.rel)
	}
	kind, size := "f", st.Size()
	if st.Mode().Perm()&0o111 != 0 {
		kind = "x"
	}
	io.WriteString(w, e.rel+"\x00"+kind+"\x00"+strconv.FormatInt(size, 10)+"\x00")
	var n int64
	for {
		m, err := f.Read(buf)
		w.Write(buf[:m])
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if n > size {
			break
		}
	}
	if n != size {
		return fmt.Errorf("%s changed while it was hashed", e.rel)
	}
	return nil
}

// FingerprintChecker reports FINGERPRINT_CHANGED (info) for a skill whose
// files differ from the fingerprint its record holds. Skills without a
// record, records without a fingerprint, and fingerprints in another scheme
// than [FingerprintPrefix] (bare hex digests other tools wrote) are not compared. It
// implements the loader's Checker interface.
type FingerprintChecker struct {
	Store Store
}

// Check compares s with its record. A store or read error is a READ_ERROR
// diagnostic about the skill.
func (c FingerprintChecker) Check(ctx context.Context, s *skill.Skill) diagnostics.List {
	if c.Store == nil {
		return nil
	}
	rec, err := c.Store.Get(ctx, s.Name)
	if err != nil {
		if isNotFound(err) || ctx.Err() != nil {
			return nil
		}
		return diagnostics.List{diagnostics.New(diagnostics.ReadError, s.Name, s.DiskDir, "cannot read the registry record: %v", err)}
	}
	if !strings.HasPrefix(rec.Fingerprint, FingerprintPrefix) {
		return nil
	}
	fsys, err := s.FS()
	if err != nil {
		return nil
	}
	got, err := Fingerprint(ctx, fsys, ".")
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return diagnostics.List{diagnostics.New(diagnostics.ReadError, s.Name, s.DiskDir, "cannot fingerprint the skill: %v", err)}
	}
	if got == rec.Fingerprint {
		return nil
	}
	return diagnostics.List{diagnostics.New(diagnostics.FingerprintChanged, s.Name, s.DiskDir,
		"the skill's files differ from the fingerprint recorded at install; it was edited outside an update").
		With("recorded", rec.Fingerprint).With("current", got)}
}
