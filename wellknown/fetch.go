package wellknown

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/memfs"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Defaults for [Options] fields left at zero.
const (
	// DefaultMaxIndexBytes bounds an index.
	DefaultMaxIndexBytes = 4 << 20
	// DefaultTimeout bounds each request, body included, when
	// Options.HTTPClient is nil.
	DefaultTimeout = 2 * time.Minute
	// maxRedirects bounds the redirects followed for one request.
	maxRedirects = 10
)

// Errors of fetching.
var (
	// ErrInsecure: a plain http:// URL whose host is not loopback. Indexes
	// and skills are fetched over https; http only from this machine
	// (localhost, 127.0.0.0/8, ::1), for tests and local publishing.
	ErrInsecure = errors.New("wellknown: plain http is allowed only on loopback")
	// ErrHTTP: a response other than 200 OK.
	ErrHTTP = errors.New("wellknown: HTTP request failed")
	// ErrUnverified: a v0.1.0 index's skill, which has no digest, fetched
	// with Options.RequireDigests.
	ErrUnverified = errors.New("wellknown: the skill has no digest to verify")
)

// Options tune reading indexes and fetching skills. A nil *Options means
// the defaults.
type Options struct {
	// HTTPClient makes the requests; nil means a client with
	// DefaultTimeout. Its redirects are checked as the first URL is: https
	// (or loopback http) and an allowed host, at most 10.
	HTTPClient *http.Client
	// AllowedHosts are the hosts (with their port when not the scheme's
	// default, "docs.example.com", "127.0.0.1:8080") that indexes, skills
	// and redirects may come from, compared without regard to case. Empty:
	// only the host of the site given to [Read], or of the record's index
	// for [FromRecord].
	AllowedHosts []string
	// MaxIndexBytes bounds an index (default DefaultMaxIndexBytes).
	MaxIndexBytes int64
	// RequireDigests refuses the skills of a v0.1.0 index, whose content
	// has no digest to verify ([ErrUnverified]). By default they are
	// fetched over https (or loopback http) like any other, and Index.Legacy
	// says they are unverified.
	RequireDigests bool
}

// fetcher makes the requests of one operation.
type fetcher struct {
	client  *http.Client
	hosts   []string
	opts    *Options
	maxIdx  int64
	digests bool
}

func newFetcher(opts *Options, site *url.URL) *fetcher {
	f := &fetcher{opts: opts, maxIdx: DefaultMaxIndexBytes}
	base := &http.Client{Timeout: DefaultTimeout}
	if opts != nil {
		if opts.HTTPClient != nil {
			base = opts.HTTPClient
		}
		if opts.MaxIndexBytes > 0 {
			f.maxIdx = opts.MaxIndexBytes
		}
		f.digests = opts.RequireDigests
		for _, h := range opts.AllowedHosts {
			if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
				f.hosts = append(f.hosts, h)
			}
		}
	}
	if len(f.hosts) == 0 {
		f.hosts = []string{strings.ToLower(site.Host)}
	}
	c := *base
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects { // via holds the first request and every redirect followed
			return fmt.Errorf("wellknown: more than %d redirects", maxRedirects)
		}
		return f.check(req.URL)
	}
	f.client = &c
	return f
}

// check decides whether u may be fetched.
func (f *fetcher) check(u *url.URL) error {
	switch u.Scheme {
	case "https":
	case "http":
		if !loopback(u.Hostname()) {
			return fmt.Errorf("%w: %s", ErrInsecure, u.Redacted())
		}
	default:
		return fmt.Errorf("%w: %s is not http(s)", ErrInsecure, u.Redacted())
	}
	if u.User != nil {
		return fmt.Errorf("wellknown: %s carries credentials; they are never sent", u.Redacted())
	}
	host := strings.ToLower(u.Host)
	for _, h := range f.hosts {
		if h == host {
			return nil
		}
	}
	return &hostError{host: host, hosts: f.hosts}
}

// hostError is a URL (a site, an artifact, a redirect) whose host is not
// allowed: errors.Is(err, installer.ErrHostNotAllowed) holds.
type hostError struct {
	host  string
	hosts []string
}

func (e *hostError) Error() string {
	return fmt.Sprintf("wellknown: %s is not in the allowed hosts %v", e.host, e.hosts)
}

func (e *hostError) Is(target error) bool { return target == installer.ErrHostNotAllowed }

// loopback reports a host that names this machine.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// get fetches u, at most limit bytes of body, and returns the body and its
// media type.
func (f *fetcher) get(ctx context.Context, u *url.URL, limit int64) ([]byte, string, error) {
	if err := f.check(u); err != nil {
		return nil, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", fmt.Errorf("wellknown: %w", err)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, "", fmt.Errorf("wellknown: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("%w: GET %s: %s", ErrHTTP, u.Redacted(), resp.Status)
		if resp.StatusCode == http.StatusNotFound {
			err = fmt.Errorf("%w (%w)", ErrNotFound, err)
		}
		return nil, "", err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, "", fmt.Errorf("wellknown: GET %s: %w", u.Redacted(), err)
	}
	if int64(len(body)) > limit {
		return nil, "", fmt.Errorf("wellknown: GET %s: %w: over %d bytes", u.Redacted(), installer.ErrLimit, limit)
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return body, media, nil
}

// Read reads the discovery index of site: an https URL of the site
// ("https://example.com", whose index is at [IndexPath], falling back to
// [LegacyIndexPath] when that is not found), or the URL of an index
// itself (ending in "/index.json"). Plain http is refused unless the host
// is loopback ([ErrInsecure]), and the host must be allowed
// (an error wrapping installer.ErrHostNotAllowed).
func Read(ctx context.Context, site string, opts *Options) (*Index, error) {
	u, err := url.Parse(site)
	if err != nil || u.Host == "" || u.Scheme != "https" && u.Scheme != "http" {
		return nil, fmt.Errorf("wellknown: %q is not an http(s) URL of a site", site)
	}
	f := newFetcher(opts, u)
	return f.readIndex(ctx, u)
}

func (f *fetcher) readIndex(ctx context.Context, u *url.URL) (*Index, error) {
	candidates := []string{IndexPath, LegacyIndexPath}
	if strings.HasSuffix(u.Path, "/index.json") {
		candidates = []string{u.Path}
	}
	var err error
	for _, p := range candidates {
		at := &url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host, Path: p} // credentials: refused by check
		var body []byte
		body, _, err = f.get(ctx, at, f.maxIdx)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return ParseIndex(body, at.String())
	}
	return nil, err
}

// Remote returns the skill named name of the index as an installer source
// (installer.Source.Remote), fetched with opts (nil: only the index's host
// is allowed).
func (ix *Index) Remote(name string, opts *Options) (*Remote, error) {
	if _, ok := ix.Get(name); !ok {
		return nil, fmt.Errorf("%w: %s has no skill %q", ErrNotFound, ix.URL, name)
	}
	return &Remote{Index: ix.URL, Name: name, Options: opts}, nil
}

// Remote is one skill of a site's index, as a source of the installer.
// Each call reads the index again, so an update sees what the site
// publishes now. The record keeps the index's URL and the skill's name,
// and the artifact's digest as the version installed.
type Remote struct {
	Index   string   // the index's URL
	Name    string   // the skill's name in it
	Options *Options // nil for the defaults
}

var _ installer.Remote = (*Remote)(nil)

// FromRecord returns the Remote a skill was installed from, for
// installer.Options.Remote.
func FromRecord(rec registry.Record, opts *Options) (*Remote, error) {
	if rec.Source != registry.SourceWellKnown {
		return nil, fmt.Errorf("wellknown: %s was not installed from a discovery index", rec.Name)
	}
	return &Remote{Index: rec.URL, Name: rec.Subdir, Options: opts}, nil
}

// Origin returns the record's source fields: SourceWellKnown, the index's
// URL and the skill's name.
func (r *Remote) Origin() registry.Record {
	return registry.Record{Source: registry.SourceWellKnown, URL: r.Index, Subdir: r.Name}
}

// entry reads the index and returns the skill's entry.
func (r *Remote) entry(ctx context.Context) (*fetcher, *Index, Entry, error) {
	u, err := url.Parse(r.Index)
	if err != nil || u.Host == "" {
		return nil, nil, Entry{}, fmt.Errorf("wellknown: %q is not the URL of an index", r.Index)
	}
	f := newFetcher(r.Options, u)
	body, _, err := f.get(ctx, u, f.maxIdx)
	if err != nil {
		return nil, nil, Entry{}, err
	}
	ix, err := ParseIndex(body, u.String())
	if err != nil {
		return nil, nil, Entry{}, err
	}
	e, ok := ix.Get(r.Name)
	if !ok {
		return nil, nil, Entry{}, fmt.Errorf("%w: %s has no skill %q any more", ErrNotFound, r.Index, r.Name)
	}
	return f, ix, e, nil
}

// Version returns the digest of the skill's artifact the index lists now;
// "" for a v0.1.0 index, which lists none.
func (r *Remote) Version(ctx context.Context) (string, error) {
	_, _, e, err := r.entry(ctx)
	return e.Digest, err
}

// Fetch reads the index, downloads the skill's artifact and verifies its
// SHA-256 against the entry's digest before anything else is done with it
// (a mismatch is a [*VerifyError], which wraps
// installer.ErrDigestMismatch). A SKILL.md becomes the skill's only file;
// an archive is read as .zip or .tar.gz, told by its Content-Type, else by
// its URL's extension, through the installer's archive checks (no path
// out of the folder, no links, the size limits of lim). The SKILL.md
// fetched must name the skill the index names. A v0.1.0 skill's files are
// fetched one by one, unverified, within lim, unless
// Options.RequireDigests.
func (r *Remote) Fetch(ctx context.Context, lim *installer.Limits) (fs.FS, string, error) {
	f, ix, e, err := r.entry(ctx)
	if err != nil {
		return nil, "", err
	}
	l := lim.Effective()
	var fsys fs.FS
	switch {
	case ix.Legacy && f.digests:
		return nil, "", fmt.Errorf("%w: %s is listed by a v0.1.0 index", ErrUnverified, e.Name)
	case ix.Legacy:
		fsys, err = f.legacy(ctx, e, l)
	default:
		fsys, err = f.artifact(ctx, e, l)
	}
	if err != nil {
		return nil, "", err
	}
	if err := sameName(fsys, e); err != nil {
		return nil, "", err
	}
	return fsys, e.Digest, nil
}

// artifact downloads and verifies a v0.2.0 entry's artifact.
func (f *fetcher) artifact(ctx context.Context, e Entry, l installer.Limits) (fs.FS, error) {
	u, _ := url.Parse(e.URL)
	limit := l.MaxFileBytes
	if e.Type == TypeArchive {
		limit = l.MaxArchiveBytes
	}
	body, media, err := f.get(ctx, u, limit)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != e.Digest {
		return nil, &VerifyError{URL: e.URL, Reason: fmt.Sprintf("its digest is %s, the index lists %s", got, e.Digest)}
	}
	if e.Type == TypeSkillMD {
		return bytesFS(map[string][]byte{skill.FileName: body})
	}
	var fsys fs.FS
	switch archiveFormat(media, u.Path) {
	case "zip":
		fsys, _, err = archive.ReadZip(ctx, bytes.NewReader(body), int64(len(body)), &l)
	case "tar.gz":
		fsys, _, err = archive.ReadTarGz(ctx, bytes.NewReader(body), &l)
	default:
		return nil, fmt.Errorf("wellknown: %s: the archive is neither .zip nor .tar.gz (Content-Type %q)", e.URL, media)
	}
	if err != nil {
		return nil, fmt.Errorf("wellknown: %s: %w: %w", e.URL, installer.ErrRejected, err)
	}
	return fsys, nil
}

// archiveFormat tells the archive's format from its media type, else from
// its path (Archive Distribution).
func archiveFormat(media, p string) string {
	switch media {
	case "application/zip", "application/x-zip-compressed":
		return "zip"
	case "application/gzip", "application/x-gzip", "application/x-tar+gzip", "application/tar+gzip", "application/x-gtar":
		return "tar.gz"
	}
	switch p = strings.ToLower(p); {
	case strings.HasSuffix(p, ".zip"):
		return "zip"
	case strings.HasSuffix(p, ".tar.gz"), strings.HasSuffix(p, ".tgz"):
		return "tar.gz"
	}
	return ""
}

// legacy fetches the files of a v0.1.0 entry.
func (f *fetcher) legacy(ctx context.Context, e Entry, l installer.Limits) (fs.FS, error) {
	if len(e.Files) > l.MaxEntries {
		return nil, fmt.Errorf("wellknown: %s: %w: %d files, over the limit of %d", e.Name, installer.ErrLimit, len(e.Files), l.MaxEntries)
	}
	base, _ := url.Parse(e.URL)
	files := map[string][]byte{}
	var total int64
	for _, p := range e.Files {
		ref, _ := url.Parse((&url.URL{Path: p}).EscapedPath())
		body, _, err := f.get(ctx, base.ResolveReference(ref), l.MaxFileBytes)
		if err != nil {
			return nil, err
		}
		if total += int64(len(body)); total > l.MaxTotalBytes {
			return nil, fmt.Errorf("wellknown: %s: %w: over %d bytes in all", e.Name, installer.ErrLimit, l.MaxTotalBytes)
		}
		files[p] = body
	}
	return bytesFS(files)
}

// bytesFS is a file system of files held in memory.
func bytesFS(files map[string][]byte) (fs.FS, error) {
	var list []memfs.File
	for p, data := range files {
		list = append(list, memfs.File{Path: p, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(data)), nil
		}})
	}
	m, err := memfs.New(list)
	if err != nil {
		return nil, fmt.Errorf("wellknown: %w", err)
	}
	return m, nil
}

// sameName checks that the SKILL.md fetched names the skill the index
// names: the user chose the index's name, and the skill is installed
// under SKILL.md's.
func sameName(fsys fs.FS, e Entry) error {
	data, err := fs.ReadFile(fsys, skill.FileName)
	if err != nil {
		return fmt.Errorf("wellknown: %s: %w", e.Name, err)
	}
	doc, _ := skill.Parse(data, nil)
	if doc == nil || skill.NormalizeName(doc.Frontmatter.Name) != e.Name {
		got := ""
		if doc != nil {
			got = doc.Frontmatter.Name
		}
		return fmt.Errorf("wellknown: the index lists %q, but its %s names %q", e.Name, skill.FileName, got)
	}
	return nil
}

// VerifyError is an artifact whose bytes do not match the digest its index
// lists: errors.Is(err, installer.ErrDigestMismatch) holds. It is never
// used.
type VerifyError struct {
	URL    string // the artifact
	Reason string // what differs
}

// Error names the artifact and what differs.
func (e *VerifyError) Error() string {
	return fmt.Sprintf("wellknown: %s does not match its digest: %s", e.URL, e.Reason)
}

// Is makes errors.Is(err, installer.ErrDigestMismatch) hold.
func (e *VerifyError) Is(target error) bool { return target == installer.ErrDigestMismatch }
