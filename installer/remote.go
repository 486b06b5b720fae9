package installer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/skillkit-go/skillkit/registry"
)

// Remote is a skill served through a protocol that another package speaks:
// a site's Agent Skills discovery index (package wellknown) or an MCP
// server that declares the Skills extension (package mcpskills). The
// installer asks it for the skill's files and installs them as it installs
// a folder: every file passes the archive checks, SKILL.md is validated,
// the tree fingerprinted, scanned and swapped in. Implementations are safe
// for concurrent use.
type Remote interface {
	// Origin is what the record keeps of where the skill comes from: Source
	// (registry.SourceWellKnown or registry.SourceMCP), URL and Subdir.
	// Other fields are ignored.
	Origin() registry.Record
	// Version returns the version the remote serves now, as cheaply as the
	// protocol allows (a digest from an index or a manifest), without
	// fetching the skill's files; "" when the remote cannot tell without
	// fetching them.
	Version(ctx context.Context) (string, error)
	// Fetch returns the skill's files, rooted at the skill's folder, and
	// their version. Every file read from the returned file system matches
	// what the remote published of it (its digest and size); a read that
	// does not is an error wrapping [ErrDigestMismatch], and fails the
	// install. lim bounds what the remote may hand over (nil: defaults).
	Fetch(ctx context.Context, lim *Limits) (fs.FS, string, error)
}

// ErrDigestMismatch: a remote source served content that does not match
// the digest or size it published for it (a discovery index entry, an MCP
// skill's manifest). Such content is never used.
var ErrDigestMismatch = errors.New("installer: content does not match its published digest")

// remoteOrigin checks a Remote's origin.
func remoteOrigin(r Remote) (registry.Record, error) {
	o := r.Origin()
	if o.Source != registry.SourceWellKnown && o.Source != registry.SourceMCP {
		return registry.Record{}, fmt.Errorf("%w: a Remote's origin must be %s or %s, not %q", ErrInvalidSource, registry.SourceWellKnown, registry.SourceMCP, o.Source)
	}
	if o.URL == "" || o.Subdir == "" {
		return registry.Record{}, fmt.Errorf("%w: a Remote's origin needs a URL and a Subdir", ErrInvalidSource)
	}
	return registry.Record{Source: o.Source, URL: o.URL, Subdir: o.Subdir}, nil
}

// isRemote reports whether rec was installed from a Remote.
func isRemote(rec registry.Record) bool {
	return rec.Source == registry.SourceWellKnown || rec.Source == registry.SourceMCP
}
