package archive

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/skill"
)

// packRatio is the compression ratio past which Pack stores a file
// instead of deflating it, far under any ratio limit a host would set, so
// that what Pack writes passes the ratio checks of [ExtractZip].
const packRatio = 10

// packTime is the modification time of every entry Pack writes (the
// earliest a ZIP can hold): the same files give the same bytes.
var packTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// ErrPackLink is wrapped by [Pack] for an entry it cannot put in an
// archive that [ExtractZip] accepts: a symbolic link or another kind that
// is not a regular file or folder.
var ErrPackLink = errors.New("archive: only regular files and folders can be packed")

// Pack writes the skill folder dir to w as a ZIP archive that [ExtractZip]
// accepts and writes back as the same tree, with the same fingerprint
// (registry.Fingerprint): folders and regular files in byte order of their
// paths, files 0644 or 0755 (any x bit), one fixed time, so the same files
// give the same bytes. The folders skill.IsInfraDir names (.venv,
// node_modules, .git, .skillhub, ...) are left out at any depth, as the
// fingerprint leaves them out. Files are deflated, except those that would
// expand more than 10:1, which are stored, so the archive passes any ratio
// limit over 10. A symbolic link or another kind
// of file is an error wrapping [ErrPackLink]. Pack does not apply
// [Limits]: the reader does.
func Pack(ctx context.Context, w io.Writer, dir string) error {
	return PackLevel(ctx, w, dir, flate.DefaultCompression)
}

// PackLevel is [Pack] deflating at level (compress/flate's levels):
// flate.BestSpeed packs the installer's 1,000-file test skill about three
// times faster than the default for an archive some 15% larger, which is
// what a skill's history wants for the versions it keeps.
func PackLevel(ctx context.Context, w io.Writer, dir string, level int) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	defer root.Close()
	type item struct {
		path string
		dir  bool
		exec bool
	}
	var items []item
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		switch t := d.Type(); {
		case p == ".":
		case d.IsDir():
			if skill.IsInfraDir(d.Name()) {
				return fs.SkipDir
			}
			items = append(items, item{path: p, dir: true})
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			items = append(items, item{path: p, exec: info.Mode().Perm()&0o111 != 0})
		default:
			return fmt.Errorf("%w: %s in %s is a %v", ErrPackLink, p, dir, t)
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrPackLink) {
		err = fmt.Errorf("archive: packing %s: %w", dir, err)
	}
	if err != nil {
		return err
	}
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.path, b.path) })
	zw := zip.NewWriter(w)
	var deflated bytes.Buffer
	fw, err := flate.NewWriter(&deflated, level)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		if it.dir {
			h := &zip.FileHeader{Name: it.path + "/", Method: zip.Store, Modified: packTime}
			h.SetMode(fs.ModeDir | dirMode)
			if _, err := zw.CreateRaw(h); err != nil {
				return fmt.Errorf("archive: packing %s: %w", dir, err)
			}
			continue
		}
		data, err := root.ReadFile(it.path)
		if err != nil {
			return fmt.Errorf("archive: packing %s: %w", dir, err)
		}
		deflated.Reset()
		fw.Reset(&deflated)
		if _, err := fw.Write(data); err != nil {
			return err
		}
		if err := fw.Close(); err != nil {
			return err
		}
		h := &zip.FileHeader{Name: path.Clean(it.path), Method: zip.Deflate, Modified: packTime,
			CRC32: crc32.ChecksumIEEE(data), UncompressedSize64: uint64(len(data))}
		body := deflated.Bytes()
		if len(body)*packRatio < len(data) || len(body) >= len(data) {
			h.Method, body = zip.Store, data
		}
		h.CompressedSize64 = uint64(len(body))
		mode := fs.FileMode(fileMode)
		if it.exec {
			mode = execMode
		}
		h.SetMode(mode)
		fwr, err := zw.CreateRaw(h)
		if err != nil {
			return fmt.Errorf("archive: packing %s: %w", dir, err)
		}
		if _, err := fwr.Write(body); err != nil {
			return fmt.Errorf("archive: packing %s: %w", dir, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("archive: packing %s: %w", dir, err)
	}
	return nil
}
