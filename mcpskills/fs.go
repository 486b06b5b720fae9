package mcpskills

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/memfs"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// FS lists the server's skills (skills/list, every page) and returns them
// as a read-only file system for a loader source (loader.Source.FS): each
// skill's files at label/SKILL-PATH/FILE, so every path names the server
// by the host's own label (specification: Skill URIs). label is one path
// element, such as "docs-server".
//
// Files are fetched when they are first read (resources/read), verified
// against the entry they were listed with (size, digest and, for SKILL.md,
// the frontmatter) and kept in memory; a read that fails verification
// fails with an error wrapping installer.ErrDigestMismatch, so the loader
// skips the skill with a READ_ERROR diagnostic. Each read is bounded by
// Options.ReadTimeout. Entries that break the specification, dynamic
// skills (they cannot be verified), skills over the extension's limits and
// a second entry at a path already taken are left out, each with a
// REMOTE_INVALID diagnostic; a skill's files never overlay another's.
//
// The listing is the one read now: a server's later changes show in a new
// file system. The client must stay open while the file system is used.
func (c *Client) FS(ctx context.Context, label string) (fs.FS, diagnostics.List, error) {
	if err := skill.CheckPath(label); err != nil || strings.Contains(label, "/") {
		return nil, nil, fmt.Errorf("mcpskills: the label %q is not one path element", label)
	}
	listed, problems, err := c.List(ctx)
	if err != nil {
		return nil, nil, err
	}
	var diags diagnostics.List
	for _, p := range problems {
		diags = append(diags, diagnostics.New(diagnostics.RemoteInvalid, "", label, "%v", p))
	}
	cache := &fileCache{data: map[string][]byte{}}
	taken := map[string]string{} // path -> URI of the skill that has it
	var files []memfs.File
	for _, s := range listed {
		e, err := checkEntry(s)
		if err != nil {
			diags = append(diags, diagnostics.New(diagnostics.RemoteInvalid, "", label, "%v", err).With("uri", s.URI))
			continue
		}
		dir := path.Join(label, e.path)
		if other := clash(taken, dir, e); other != "" {
			diags = append(diags, diagnostics.New(diagnostics.RemoteInvalid, path.Base(e.path), dir,
				"%s is left out: its files would overlay those of %s", quote(e.URI), quote(other)).With("uri", e.URI))
			continue
		}
		taken[dir] = e.URI
		for _, rel := range e.rels {
			p := path.Join(dir, rel)
			taken[p] = e.URI
			files = append(files, memfs.File{Path: p, Size: e.files[rel].Size, Open: c.opener(e, rel, p, cache)})
		}
	}
	m, err := memfs.New(files)
	if err != nil {
		return nil, nil, fmt.Errorf("mcpskills: %w", err)
	}
	return m, diags, nil
}

// Source is [Client.FS] as a loader source: named "mcp:LABEL", with
// Origin "mcp:LABEL", which the catalog and read_skill show the model for
// each of its skills (specification: Security Considerations, origin is
// visible to the model). Put it after the host's own sources
// (skillkit.Options.Sources), so that its skills never shadow theirs.
func (c *Client) Source(ctx context.Context, label string) (loader.Source, diagnostics.List, error) {
	fsys, diags, err := c.FS(ctx, label)
	if err != nil {
		return loader.Source{}, nil, err
	}
	return loader.Source{Name: "mcp:" + label, FS: fsys, Origin: "mcp:" + label}, diags, nil
}

// clash returns the URI of a skill listed before whose folder or files the
// folder dir of e, or one of its files, would land on or inside; "" when
// there is none.
func clash(taken map[string]string, dir string, e *entry) string {
	for _, rel := range append([]string{"."}, e.rels...) {
		for q := path.Join(dir, rel); q != "."; q = path.Dir(q) {
			if uri, ok := taken[q]; ok {
				return uri
			}
		}
	}
	return ""
}

// fileCache keeps the files read and verified, by path.
type fileCache struct {
	mu   sync.Mutex
	data map[string][]byte
}

// opener returns the Open function of file rel of e: from the cache, or
// read and verified.
func (c *Client) opener(e *entry, rel, p string, cache *fileCache) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		cache.mu.Lock()
		data, ok := cache.data[p]
		cache.mu.Unlock()
		if !ok {
			ctx, cancel := context.WithTimeout(context.Background(), c.opts.readTimeout())
			defer cancel()
			var err error
			if data, err = c.fetch(ctx, e, rel); err != nil {
				return nil, err
			}
			cache.mu.Lock()
			cache.data[p] = data
			cache.mu.Unlock()
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}
}

// fetch reads file rel of e and verifies it against the entry.
func (c *Client) fetch(ctx context.Context, e *entry, rel string) ([]byte, error) {
	data, err := c.Read(ctx, e.files[rel].URI)
	if err != nil {
		return nil, err
	}
	if err := e.verify(rel, data); err != nil {
		return nil, err
	}
	return data, nil
}
