package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/skill"
)

// ErrModified is wrapped by [*ModifiedError]: a skill's files differ from
// the fingerprint its record holds, the one a person or the trust policy
// approved.
var ErrModified = errors.New("registry: the skill's files differ from what was approved")

// FileChange is one difference between a skill's approved files and its
// files now.
type FileChange struct {
	Path   string `json:"path"`   // slash path inside the skill folder
	Change string `json:"change"` // "changed", "added" or "removed"
}

// String is "PATH CHANGE".
func (c FileChange) String() string { return c.Path + " " + c.Change }

// ModifiedError says that a skill's files are not the approved ones, and
// which differ (SKILL_MODIFIED).
type ModifiedError struct {
	Skill    string
	Approved string // the fingerprint of the record
	Current  string // the fingerprint of the files now
	// Files are the differences, sorted by path. Empty when the approved
	// list of files is not known (the skill was changed before the first
	// check kept it).
	Files []FileChange
}

// maxNamedFiles bounds the files an error message names.
const maxNamedFiles = 10

// Error names the skill, the code and the files that differ.
func (e *ModifiedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "skill %s was modified since it was approved (%s)", e.Skill, diagnostics.SkillModified)
	for i, f := range e.Files {
		switch {
		case i == maxNamedFiles:
			fmt.Fprintf(&b, ", and %d more", len(e.Files)-maxNamedFiles)
		case i > maxNamedFiles:
			continue
		case i == 0:
			b.WriteString(": " + f.String())
		default:
			b.WriteString(", " + f.String())
		}
	}
	if len(e.Files) == 0 {
		fmt.Fprintf(&b, ": its files have the fingerprint %s, not the approved %s", e.Current, e.Approved)
	}
	b.WriteString("; nothing of it runs and it gets no secret until its current files are approved")
	return b.String()
}

// Is makes the error match [ErrModified].
func (e *ModifiedError) Is(target error) bool { return target == ErrModified }

// Verifier checks, before a skill's code runs or its secrets are handed
// out, that its files still have the fingerprint its record holds: what a
// person or the trust policy approved. A skill without a record (placed by
// hand) or whose record holds no fingerprint in the [FingerprintPrefix]
// scheme is not compared, and passes.
//
// The first check of a skill hashes every file; later ones stat the files
// and hash only those whose size, mode, modification or change time or
// inode differ from what the last check saw (a file modified within the
// last two seconds is always hashed again, as its time may not have
// ticked). The verdict never rests on the stat cache alone: the files
// the cache covers are those whose digests were proved, in this process,
// to make up the record's fingerprint.
//
// With ManifestDir set, the list of approved files (path, kind, size,
// digest) is kept there as NAME.json, so a later process can name the
// files that changed; it serves only to name them, never to approve.
// A Verifier is safe for concurrent use; its zero value with Store set is
// ready.
type Verifier struct {
	Store       Store
	ManifestDir string

	mu    sync.Mutex
	known map[string]*approvedFiles // by skill name
	now   func() time.Time          // for tests; nil means time.Now
	// rehashed counts the files scan read again (for tests).
	rehashed atomic.Int64
}

// approvedFiles are the files of one skill folder proved to have the
// fingerprint its record holds.
type approvedFiles struct {
	dir         string
	fingerprint string
	files       map[string]fileState
}

// fileState is one file's digest and what stat said of it when it was
// hashed; stat is zero when it must be hashed again next time.
type fileState struct {
	sum  string // hex SHA-256 of the entry's framing and content
	stat statKey
}

// racyWindow: a file modified this recently is hashed again at the next
// check, since a change within the same clock tick keeps its times.
const racyWindow = 2 * time.Second

// Verify checks the skill name, whose folder is dir, against its record:
// nil when it has no record or its files have the recorded fingerprint,
// else a [*ModifiedError]. Other errors are the store's or the file
// system's.
func (v *Verifier) Verify(ctx context.Context, name, dir string) error {
	rec, err := v.Store.Get(ctx, name)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !strings.HasPrefix(rec.Fingerprint, FingerprintPrefix) {
		return nil
	}
	v.mu.Lock()
	prev := v.known[name]
	v.mu.Unlock()
	if prev != nil && prev.dir == dir && prev.fingerprint == rec.Fingerprint {
		files, err := v.scan(ctx, dir, prev.files)
		if err != nil {
			return err
		}
		if changes := diffFiles(prev.files, files); len(changes) > 0 {
			me := &ModifiedError{Skill: name, Approved: rec.Fingerprint, Files: changes}
			if me.Current, _, err = v.fingerprint(ctx, dir); err != nil {
				return err
			}
			return me
		}
		v.keep(name, &approvedFiles{dir: dir, fingerprint: rec.Fingerprint, files: files})
		return nil
	}
	fp, files, err := v.fingerprint(ctx, dir)
	if err != nil {
		return err
	}
	if fp != rec.Fingerprint {
		me := &ModifiedError{Skill: name, Approved: rec.Fingerprint, Current: fp}
		if m, err := v.readManifest(name); err == nil && m.Fingerprint == rec.Fingerprint {
			me.Files = diffFiles(m.files(), files)
		}
		return me
	}
	v.keep(name, &approvedFiles{dir: dir, fingerprint: fp, files: files})
	return v.writeManifest(name, fp, files)
}

// Changes returns how the files of name in dir differ from the approved
// list the Verifier kept, in this process or in ManifestDir, and the
// fingerprint of the files now. changes is nil with known false when no
// list for the recorded fingerprint is known.
func (v *Verifier) Changes(ctx context.Context, name, dir string) (changes []FileChange, known bool, current string, err error) {
	fp, files, err := v.fingerprint(ctx, dir)
	if err != nil {
		return nil, false, "", err
	}
	rec, err := v.Store.Get(ctx, name)
	if err != nil && !isNotFound(err) {
		return nil, false, fp, err
	}
	v.mu.Lock()
	prev := v.known[name]
	v.mu.Unlock()
	switch {
	case err != nil:
	case prev != nil && prev.dir == dir && prev.fingerprint == rec.Fingerprint:
		return diffFiles(prev.files, files), true, fp, nil
	default:
		if m, merr := v.readManifest(name); merr == nil && m.Fingerprint == rec.Fingerprint {
			return diffFiles(m.files(), files), true, fp, nil
		}
	}
	return nil, false, fp, nil
}

// Forget drops what the Verifier kept of name, so the next check hashes
// every file.
func (v *Verifier) Forget(name string) {
	v.mu.Lock()
	delete(v.known, name)
	v.mu.Unlock()
}

func (v *Verifier) keep(name string, a *approvedFiles) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.known == nil {
		v.known = map[string]*approvedFiles{}
	}
	v.known[name] = a
}

func (v *Verifier) clock() time.Time {
	if v.now != nil {
		return v.now()
	}
	return time.Now()
}

// fingerprint hashes every file of dir: the fingerprint, and each file's
// digest with what stat said of it before it was read.
func (v *Verifier) fingerprint(ctx context.Context, dir string) (string, map[string]fileState, error) {
	fsys := os.DirFS(dir)
	entries, err := fingerprintEntries(ctx, fsys, ".")
	if err != nil {
		return "", nil, err
	}
	h := sha256.New()
	buf := make([]byte, 64<<10)
	files := make(map[string]fileState, len(entries))
	for _, e := range entries {
		st := v.statOf(filepath.Join(dir, filepath.FromSlash(e.rel)))
		one := sha256.New()
		if err := hashEntry(ctx, h, fsys, e, buf, one); err != nil {
			return "", nil, fmt.Errorf("registry: fingerprint of %s: %w", dir, err)
		}
		files[e.rel] = fileState{sum: hex.EncodeToString(one.Sum(nil)), stat: st}
	}
	return FingerprintPrefix + hex.EncodeToString(h.Sum(nil)), files, nil
}

// scan lists dir's files now: the digest of each file whose stat matches
// the one in prev is taken from it, every other file is hashed.
func (v *Verifier) scan(ctx context.Context, dir string, prev map[string]fileState) (map[string]fileState, error) {
	fsys := os.DirFS(dir)
	entries, err := fingerprintEntries(ctx, fsys, ".")
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 64<<10)
	files := make(map[string]fileState, len(entries))
	for _, e := range entries {
		st := v.statOf(filepath.Join(dir, filepath.FromSlash(e.rel)))
		if old, ok := prev[e.rel]; ok && st != (statKey{}) && old.stat == st {
			files[e.rel] = old
			continue
		}
		v.rehashed.Add(1)
		one := sha256.New()
		if err := hashEntry(ctx, sha256.New(), fsys, e, buf, one); err != nil {
			return nil, fmt.Errorf("registry: checking %s: %w", dir, err)
		}
		files[e.rel] = fileState{sum: hex.EncodeToString(one.Sum(nil)), stat: st}
	}
	return files, nil
}

// statOf returns what the cache compares of the file at p, zero when it
// cannot be stat'ed or was modified within racyWindow.
func (v *Verifier) statOf(p string) statKey {
	fi, err := os.Lstat(p)
	if err != nil || v.clock().Sub(fi.ModTime()) < racyWindow {
		return statKey{}
	}
	return statKeyOf(fi)
}

// diffFiles lists how now differs from approved, sorted by path.
func diffFiles(approved, now map[string]fileState) []FileChange {
	var out []FileChange
	for rel, a := range approved {
		n, ok := now[rel]
		switch {
		case !ok:
			out = append(out, FileChange{rel, "removed"})
		case n.sum != a.sum:
			out = append(out, FileChange{rel, "changed"})
		}
	}
	for rel := range now {
		if _, ok := approved[rel]; !ok {
			out = append(out, FileChange{rel, "added"})
		}
	}
	slices.SortFunc(out, func(a, b FileChange) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// manifest is the file ManifestDir keeps per skill.
type manifest struct {
	Version     int               `json:"version"`
	Fingerprint string            `json:"fingerprint"`
	Files       map[string]string `json:"files"` // path → hex digest
}

func (m *manifest) files() map[string]fileState {
	out := make(map[string]fileState, len(m.Files))
	for rel, sum := range m.Files {
		out[rel] = fileState{sum: sum}
	}
	return out
}

// maxManifestBytes bounds a manifest read back.
const maxManifestBytes = 16 << 20

func (v *Verifier) manifestPath(name string) (string, error) {
	if err := skill.ValidateKey(name); err != nil {
		return "", err
	}
	return filepath.Join(v.ManifestDir, name+".json"), nil
}

func (v *Verifier) readManifest(name string) (*manifest, error) {
	if v.ManifestDir == "" {
		return nil, fs.ErrNotExist
	}
	p, err := v.manifestPath(name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var m manifest
	dec := json.NewDecoder(&limitedReader{f, maxManifestBytes})
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrCorrupt, p, err)
	}
	if m.Version != 1 {
		return nil, fmt.Errorf("%w: %s: version %d", ErrCorrupt, p, m.Version)
	}
	return &m, nil
}

// writeManifest keeps the approved list of files unless it holds that
// fingerprint already.
func (v *Verifier) writeManifest(name, fp string, files map[string]fileState) error {
	if v.ManifestDir == "" {
		return nil
	}
	if m, err := v.readManifest(name); err == nil && m.Fingerprint == fp {
		return nil
	}
	p, err := v.manifestPath(name)
	if err != nil {
		return err
	}
	m := manifest{Version: 1, Fingerprint: fp, Files: make(map[string]string, len(files))}
	for rel, f := range files {
		m.Files[rel] = f.sum
	}
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(v.ManifestDir, 0o755); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	if err := atomicfile.WritePath(p, data, 0o644); err != nil {
		return fmt.Errorf("registry: keeping the approved files of %s: %w", name, err)
	}
	return nil
}

// limitedReader fails once more than n bytes were read.
type limitedReader struct {
	f *os.File
	n int64
}

func (r *limitedReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errors.New("the file is too large")
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	n, err := r.f.Read(p)
	r.n -= int64(n)
	return n, err
}
