package skillsdir

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/osfs"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// HistoryDir holds the versions of the folder's skills, one folder per
// skill: history/<name>/log.json lists its versions, history/<name>/<hex>.zip
// holds the files of one version (the hex digits of its fingerprint), once
// however often it recurs. A version whose files the shared package store
// holds (Options.Packages) has no archive here: the store is the history.
const HistoryDir = ".skillhub/history"

const (
	historyLogName = "log.json"
	historyFormat  = 1
	// maxHistoryLog bounds the log file read: a few hundred bytes a
	// version, far below it.
	maxHistoryLog = 4 << 20
)

// Actors of a version when the context names none (see [WithActor]).
const (
	ActorPerson  = "person"  // the host's call: install, update, uninstall, approve, rollback
	ActorAgent   = "agent"   // an agent's write through the authoring package
	ActorSync    = "sync"    // a replica placing what the shared registry says
	ActorUnknown = "unknown" // files found in the folder that no operation wrote (a hand edit)
)

// OpFound is the operation of a version found in the skill's folder when
// another operation replaced it: files no recorded operation wrote (edited
// by hand, or installed before the folder kept history).
const OpFound = "found"

// OpApprove is the operation of a version a person approved
// (installer.Approve): their edits became the approved files.
const OpApprove = "approve"

// Version is one version of a skill in its history: files that became the
// skill's (or, for an uninstall, that were removed) at Time.
type Version struct {
	// Seq numbers the skill's versions from 1, in the order they were
	// recorded; pruning never renumbers.
	Seq  int       `json:"seq"`
	Time time.Time `json:"time"`
	// Op is what made the version: install, update, sync, create, edit,
	// delete, uninstall, approve, rollback or found.
	Op string `json:"op"`
	// Actor is who asked: "person", "agent", "sync", "unknown", or the name
	// the host gave the context ([WithActor]).
	Actor       string `json:"actor"`
	Fingerprint string `json:"fingerprint"`
	// The origin the files came from, as the record said (a rollback
	// restores it).
	Source registry.Source `json:"source,omitempty"`
	URL    string          `json:"url,omitempty"`
	Ref    string          `json:"ref,omitempty"`
	Commit string          `json:"commit,omitempty"`
	Subdir string          `json:"subdir,omitempty"`
	Tree   string          `json:"tree,omitempty"`
	// Signer is what the publisher's signature said when the files were
	// fetched.
	Signer *registry.Signer `json:"signer,omitempty"`
	// Bytes is the size of the version's archive in this folder: 0 while
	// the version is installed (the folder holds its files) or when the
	// shared package store holds them. Set by [Dir.History]; never stored.
	Bytes int64 `json:"bytes"`
	// Txn is the operation that recorded it (recovery records it once).
	Txn string `json:"txn,omitempty"`
	// Current is set by [Dir.History] on the version the skill's folder
	// holds now; never stored.
	Current bool `json:"current"`
	// Kept says the version's files can be restored: the folder holds them
	// (the current version), the history does, or the shared package
	// store. A version whose files were edited by hand in the folder
	// before another change replaced them is not kept: the edited files
	// are, as the version found then. Set by [Dir.History].
	Kept bool `json:"kept"`
}

// Origin is the record of where v's files came from, for installing them
// again.
func (v Version) Origin() registry.Record {
	return registry.Record{Source: v.Source, URL: v.URL, Ref: v.Ref, Commit: v.Commit, Subdir: v.Subdir, Tree: v.Tree, Signer: v.Signer}
}

// Retention bounds a skill's history. A version is kept while it is one of
// the skill's last Versions, or younger than Age; then, while the archives
// of the kept versions take more than Bytes in the folder, the oldest go.
// The version the skill's folder holds, the one its record names, the one
// this replica placed and the last one recorded are never pruned, whatever
// the limits. A zero field means its default; a negative Versions or Age
// means none (a limit of 0).
type Retention struct {
	Versions int           // default 10
	Age      time.Duration // default 30 days
	Bytes    int64         // default 64 MiB per skill
}

// Retention defaults.
const (
	DefaultKeepVersions = 10
	DefaultKeepAge      = 30 * 24 * time.Hour
	DefaultKeepBytes    = 64 << 20
)

func (r *Retention) resolve() Retention {
	var out Retention
	if r != nil {
		out = *r
	}
	switch {
	case out.Versions == 0:
		out.Versions = DefaultKeepVersions
	case out.Versions < 0:
		out.Versions = 0
	}
	switch {
	case out.Age == 0:
		out.Age = DefaultKeepAge
	case out.Age < 0:
		out.Age = 0
	}
	if out.Bytes <= 0 {
		out.Bytes = DefaultKeepBytes
	}
	return out
}

// actorKey carries the actor of the changes made with a context.
type actorKey struct{}

// WithActor returns a context whose changes of skills are recorded in
// their history as made by actor (a person's or an agent's name) instead
// of the operation's default.
func WithActor(ctx context.Context, actor string) context.Context {
	return context.WithValue(ctx, actorKey{}, actor)
}

// NamesActor reports whether ctx names the actor of its changes
// ([WithActor]).
func NamesActor(ctx context.Context) bool {
	a, ok := ctx.Value(actorKey{}).(string)
	return ok && strings.TrimSpace(a) != ""
}

// actorOf is who makes a change of operation op with ctx.
func actorOf(ctx context.Context, op Op) string {
	if a, ok := ctx.Value(actorKey{}).(string); ok && strings.TrimSpace(a) != "" {
		return strings.TrimSpace(a)
	}
	switch op {
	case OpCreate, OpEdit, OpDelete:
		return ActorAgent
	case OpSync:
		return ActorSync
	}
	return ActorPerson
}

// historyLog is history/<name>/log.json.
type historyLog struct {
	Format   int       `json:"format"`
	Next     int       `json:"next"` // the Seq of the next version
	Versions []Version `json:"versions"`
}

// parseHistoryLog reads a log file, refusing one skillkit did not write.
func parseHistoryLog(data []byte) (*historyLog, error) {
	var l historyLog
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("skillkit: the history log is not JSON: %w", err)
	}
	if l.Format != historyFormat {
		return nil, fmt.Errorf("skillkit: the history log has format %d, not %d", l.Format, historyFormat)
	}
	last := 0
	for _, v := range l.Versions {
		if err := registry.ValidateFingerprint(v.Fingerprint); err != nil {
			return nil, fmt.Errorf("skillkit: the history log: version %d: %w", v.Seq, err)
		}
		if v.Seq <= last {
			return nil, fmt.Errorf("skillkit: the history log: version %d is out of order", v.Seq)
		}
		last = v.Seq
	}
	if l.Next <= last {
		return nil, fmt.Errorf("skillkit: the history log: next version %d is not after %d", l.Next, last)
	}
	return &l, nil
}

func historyPath(name string, elem ...string) string {
	return path.Join(append([]string{HistoryDir, name}, elem...)...)
}

// archiveName is the file of the version of fingerprint fp.
func archiveName(fp string) string {
	return strings.TrimPrefix(fp, registry.FingerprintPrefix) + ".zip"
}

// readHistory returns the log of skill name; an empty one when it has none.
func (d *Dir) readHistory(name string) (*historyLog, error) {
	data, err := d.readBounded(historyPath(name, historyLogName), maxHistoryLog)
	if errors.Is(err, fs.ErrNotExist) {
		return &historyLog{Format: historyFormat, Next: 1}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skillkit: the history of %s: %w", name, err)
	}
	l, err := parseHistoryLog(data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, historyPath(name, historyLogName))
	}
	return l, nil
}

// readBounded reads the file p (a slash path in the skills folder),
// refusing one over n bytes.
func (d *Dir) readBounded(p string, n int64) ([]byte, error) {
	f, err := d.root.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, n+1))
	if err == nil && int64(len(data)) > n {
		err = fmt.Errorf("%s is over %d bytes", p, n)
	}
	return data, err
}

// writeHistory replaces the log of skill name.
func (d *Dir) writeHistory(name string, l *historyLog) error {
	for i := range l.Versions {
		l.Versions[i].Current, l.Versions[i].Kept, l.Versions[i].Bytes = false, false, 0
	}
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	if err := d.root.MkdirAll(historyPath(name), DirPerm); err != nil {
		return fmt.Errorf("skillkit: %w", err)
	}
	if err := atomicfile.WriteFile(d.root, historyPath(name, historyLogName), data, 0o644); err != nil {
		return fmt.Errorf("skillkit: writing the history of %s: %w", name, err)
	}
	return nil
}

// keepFiles makes sure the files of tree (a slash path in the skills
// folder), of fingerprint fp, are kept as a version of skill name: in the
// shared package store when it holds them, else as history/<name>/<hex>.zip.
func (d *Dir) keepFiles(ctx context.Context, name, tree, fp string) error {
	p := historyPath(name, archiveName(fp))
	if _, err := d.root.Stat(p); err == nil {
		return nil
	}
	if stored, err := d.Stored(ctx, fp); err != nil || stored {
		return err
	}
	var buf bytes.Buffer
	// Packed fast: it runs on every update, and the archive is read only
	// by a rollback.
	if err := archive.PackLevel(ctx, &buf, d.OSPath(tree), flate.BestSpeed); err != nil {
		return fmt.Errorf("skillkit: keeping the version %s of %s: %w", fp, name, err)
	}
	if max := d.limits.Effective().MaxArchiveBytes; int64(buf.Len()) > max {
		return fmt.Errorf("%w: the version %s of %s packs into %d bytes, over the archive limit of %d, so it could not be restored", errUnkeepable, fp, name, buf.Len(), max)
	}
	if err := d.root.MkdirAll(historyPath(name), DirPerm); err != nil {
		return fmt.Errorf("skillkit: %w", err)
	}
	if err := atomicfile.WriteFile(d.root, p, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("skillkit: keeping the version %s of %s: %w", fp, name, err)
	}
	return nil
}

// errUnkeepable: files no archive can hold for a rollback (over the
// archive limit).
var errUnkeepable = errors.New("skillkit: the files cannot be kept")

// keepLeaving keeps the files in skill name's folder, about to be
// replaced or removed (or approved), and returns their fingerprint. A
// version's files are packed only when they leave the folder: while a
// version is installed, the folder holds it, and an install costs no
// archive. Files no archive can hold — a symbolic link placed by hand,
// a folder over the archive limit — are not kept (the version is listed,
// not restorable) and the change goes on: it is logged, never a reason to
// refuse an uninstall. Files that cannot even be read are not recorded
// at all: the fingerprint is "".
func (d *Dir) keepLeaving(ctx context.Context, name string) (string, error) {
	fp, err := d.Fingerprint(ctx, name)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		// Unreadable files: nothing to keep, and no reason to refuse
		// replacing or removing them.
		d.Warn(ctx, "skillkit: the history of %s cannot keep its files: %v", name, err)
		return "", nil
	}
	err = d.keepFiles(ctx, name, name, fp)
	if errors.Is(err, archive.ErrPackLink) || errors.Is(err, errUnkeepable) {
		d.Warn(ctx, "skillkit: the history of %s cannot keep the files of %s: %v", name, fp, err)
		return fp, nil
	}
	return fp, err
}

// newVersion is a version of fingerprint fp, made now by op with actor,
// from rec's origin (nil: none known).
func newVersion(fp, op, actor string, rec *registry.Record) Version {
	v := Version{Time: time.Now().UTC(), Op: op, Actor: actor, Fingerprint: fp}
	if rec != nil {
		v.Source, v.URL, v.Ref, v.Commit, v.Subdir, v.Tree, v.Signer = rec.Source, rec.URL, rec.Ref, rec.Commit, rec.Subdir, rec.Tree, rec.Signer
	}
	return v
}

// endsWith reports whether the history of skill name ends with a version
// of fingerprint fp.
func (d *Dir) endsWith(name, fp string) (bool, error) {
	l, err := d.readHistory(name)
	if err != nil {
		return false, err
	}
	n := len(l.Versions)
	return n > 0 && l.Versions[n-1].Fingerprint == fp, nil
}

// swapVersions are the versions a swap of t's staged tree in as rec
// records (in the journal, then in the history once committed): the files
// it replaces, kept, as a version of their own (op found, the record's
// origin) when the history does not end with them — edited by hand, or
// installed before the folder kept history — then the new ones.
func (d *Dir) swapVersions(ctx context.Context, t *Txn, rec registry.Record, prev *registry.Record, present bool, op Op) ([]Version, error) {
	var out []Version
	if present {
		fp, err := d.keepLeaving(ctx, rec.Name)
		if err != nil {
			return nil, err
		}
		if ok, err := d.endsWith(rec.Name, fp); err != nil {
			return nil, err
		} else if !ok && fp != "" {
			out = append(out, newVersion(fp, OpFound, ActorUnknown, prev))
		}
	}
	fp := t.fingerprint
	if fp == "" {
		var err error
		if fp, err = registry.Fingerprint(ctx, osfs.Dir(t.StagingOS(TreeName)), "."); err != nil {
			return nil, fmt.Errorf("skillkit: fingerprinting %s: %w", rec.Name, err)
		}
	}
	return append(out, newVersion(fp, string(op), actorOf(ctx, op), &rec)), nil
}

// removeVersion is the version a removal of skill name records: the files
// it removes, kept so that they can be restored.
func (d *Dir) removeVersion(ctx context.Context, name string, prev *registry.Record, op Op) ([]Version, error) {
	fp, err := d.keepLeaving(ctx, name)
	if err != nil || fp == "" {
		return nil, err
	}
	return []Version{newVersion(fp, string(op), actorOf(ctx, op), prev)}, nil
}

// RecordHeld records the files of skill name, whose lock the caller holds,
// as a version made by op (OpApprove: a person approved their edits),
// unless the history already ends with them. rec is the skill's record.
// The files are kept at once: a person vouched for them, and they may be
// edited again in place before another change replaces them.
func (d *Dir) RecordHeld(ctx context.Context, name, op string, rec *registry.Record) error {
	fp, err := d.keepLeaving(ctx, name)
	if err != nil || fp == "" {
		return err
	}
	if ok, err := d.endsWith(name, fp); err != nil || ok {
		return err
	}
	return d.appendVersions(ctx, name, "", []Version{newVersion(fp, op, actorOf(ctx, Op(op)), rec)}, fp)
}

// appendVersions adds vs to the history of skill name, whose lock the
// caller holds, as recorded by operation txn ("" none) — once: recovery may
// try again — then prunes the history. live is the fingerprint of the
// files in the skill's folder when the caller knows it ("": it is read).
func (d *Dir) appendVersions(ctx context.Context, name, txn string, vs []Version, live string) error {
	l, err := d.readHistory(name)
	if err != nil {
		return err
	}
	if txn != "" && slices.ContainsFunc(l.Versions, func(v Version) bool { return v.Txn == txn }) {
		return nil
	}
	for _, v := range vs {
		v.Seq, v.Txn, v.Current = l.Next, txn, false
		l.Next++
		l.Versions = append(l.Versions, v)
	}
	protect, err := d.protected(ctx, name, live)
	if err != nil {
		return err
	}
	sizes, err := d.archiveSizes(name)
	if err != nil {
		return err
	}
	for i := range l.Versions {
		l.Versions[i].Bytes = sizes[l.Versions[i].Fingerprint]
	}
	l.Versions = d.retention.prune(l.Versions, protect, time.Now())
	if err := d.writeHistory(name, l); err != nil {
		return err
	}
	return d.removeUnkept(name, l)
}

// protected are the fingerprints of skill name that pruning keeps: the
// files in its folder (live, when not ""), its record's and the one this
// replica placed.
func (d *Dir) protected(ctx context.Context, name, live string) (map[string]bool, error) {
	if live == "" {
		ok, err := d.HasSkill(name)
		if err != nil {
			return nil, fmt.Errorf("skillkit: %w", err)
		}
		if ok {
			if live, err = d.Fingerprint(ctx, name); err != nil {
				return nil, err
			}
		}
	}
	out := map[string]bool{live: live != ""}
	rec, err := d.Record(ctx, name)
	if err != nil {
		return nil, err
	}
	if rec != nil && rec.Fingerprint != "" {
		out[rec.Fingerprint] = true
	}
	placed, err := d.Placed(name)
	if err != nil {
		return nil, err
	}
	if placed != "" {
		out[placed] = true
	}
	return out, nil
}

// prune returns the versions of vs (oldest first) that r keeps at now:
// see [Retention]. The last version and those whose fingerprint protect
// names are always kept.
func (r Retention) prune(vs []Version, protect map[string]bool, now time.Time) []Version {
	keep := make([]bool, len(vs))
	pinned := make([]bool, len(vs))
	for i, v := range vs {
		pinned[i] = i == len(vs)-1 || protect[v.Fingerprint]
		keep[i] = pinned[i] || i >= len(vs)-r.Versions || now.Sub(v.Time) < r.Age
	}
	for i := 0; i < len(vs) && keptBytes(vs, keep) > r.Bytes; i++ {
		if keep[i] && !pinned[i] {
			keep[i] = false
		}
	}
	var out []Version
	for i, v := range vs {
		if keep[i] {
			out = append(out, v)
		}
	}
	return out
}

// keptBytes is what the archives of the kept versions take, each
// fingerprint once.
func keptBytes(vs []Version, keep []bool) int64 {
	seen := map[string]bool{}
	var n int64
	for i, v := range vs {
		if keep[i] && !seen[v.Fingerprint] {
			seen[v.Fingerprint] = true
			n += v.Bytes
		}
	}
	return n
}

// archiveSizes returns the size of each archive in skill name's history
// folder, by fingerprint.
func (d *Dir) archiveSizes(name string) (map[string]int64, error) {
	entries, err := fs.ReadDir(d.root.FS(), historyPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	sizes := map[string]int64{}
	for _, e := range entries {
		hexPart, ok := strings.CutSuffix(e.Name(), ".zip")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil {
			sizes[registry.FingerprintPrefix+hexPart] = info.Size()
		}
	}
	return sizes, nil
}

// removeUnkept removes the archives of skill name that no version of l
// names any more (pruned, or kept by an operation that did not commit),
// and the temporary files of killed writes.
func (d *Dir) removeUnkept(name string, l *historyLog) error {
	named := map[string]bool{}
	for _, v := range l.Versions {
		named[archiveName(v.Fingerprint)] = true
	}
	entries, err := fs.ReadDir(d.root.FS(), historyPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("skillkit: %w", err)
	}
	var errs []error
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".zip") && !named[n] && e.Type().IsRegular() {
			if err := d.root.Remove(historyPath(name, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	if _, err := atomicfile.RemoveStale(d.root, historyPath(name), staleTempAge); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// History returns the versions of skill name kept in its history, oldest
// first, the one its folder holds now marked Current (the last such). A
// skill without history has none. It reads without the skill's lock: the
// log is replaced atomically.
func (d *Dir) History(ctx context.Context, name string) ([]Version, error) {
	if err := skill.ValidateKey(name); err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	l, err := d.readHistory(name)
	if err != nil || len(l.Versions) == 0 {
		return nil, err
	}
	live := ""
	if ok, err := d.HasSkill(name); err != nil {
		return nil, fmt.Errorf("skillkit: %w", err)
	} else if ok {
		if live, err = d.Fingerprint(ctx, name); err != nil {
			return nil, err
		}
	}
	sizes, err := d.archiveSizes(name)
	if err != nil {
		return nil, err
	}
	kept := map[string]bool{live: live != ""}
	marked := false
	for i := len(l.Versions) - 1; i >= 0; i-- {
		v := &l.Versions[i]
		if v.Fingerprint == live && !marked {
			v.Current, marked = true, true
		}
		v.Bytes = sizes[v.Fingerprint]
		if _, seen := kept[v.Fingerprint]; !seen {
			_, local := sizes[v.Fingerprint]
			stored, err := d.Stored(ctx, v.Fingerprint)
			if err != nil {
				return nil, err
			}
			kept[v.Fingerprint] = local || stored
		}
		v.Kept = kept[v.Fingerprint]
	}
	return l.Versions, nil
}

// ErrNoVersion: the history holds no version that matches what was asked.
var ErrNoVersion = errors.New("skillkit: no such version in the history")

// PickVersion finds in vs (from [Dir.History]) the version which: its
// Seq ("3"), or its fingerprint or a prefix of its hex digits of at least
// 7 ("sha256:4f2a..." or "4f2a9c1"). "" picks the version before the
// current one: the newest whose files are not the current ones (for a
// skill without a current version, an uninstalled one, the newest). The
// error wraps ErrNoVersion.
func PickVersion(vs []Version, which string) (Version, error) {
	current := ""
	for _, v := range vs {
		if v.Current {
			current = v.Fingerprint
		}
	}
	if which == "" {
		for i := len(vs) - 1; i >= 0; i-- {
			if vs[i].Fingerprint != current {
				return vs[i], nil
			}
		}
		return Version{}, fmt.Errorf("%w: the history holds no version other than the current one", ErrNoVersion)
	}
	if seq, err := strconv.Atoi(which); err == nil {
		for _, v := range vs {
			if v.Seq == seq {
				return v, nil
			}
		}
		return Version{}, fmt.Errorf("%w: version %d is not kept", ErrNoVersion, seq)
	}
	prefix := strings.ToLower(strings.TrimPrefix(which, registry.FingerprintPrefix))
	if len(prefix) < 7 || !isHex(prefix) {
		return Version{}, fmt.Errorf("%w: %q is neither a version number nor a fingerprint (7 hex digits at least)", ErrNoVersion, which)
	}
	var found *Version
	for i := len(vs) - 1; i >= 0; i-- {
		v := vs[i]
		if !strings.HasPrefix(strings.TrimPrefix(v.Fingerprint, registry.FingerprintPrefix), prefix) {
			continue
		}
		if found != nil && found.Fingerprint != v.Fingerprint {
			return Version{}, fmt.Errorf("%w: %q names several versions; give more digits", ErrNoVersion, which)
		}
		if found == nil {
			found = &vs[i]
		}
	}
	if found == nil {
		return Version{}, fmt.Errorf("%w: no version has the fingerprint %s", ErrNoVersion, which)
	}
	return *found, nil
}

// VersionArchive returns the archive of the version of skill name with
// fingerprint fp: its file in the history, else the shared package
// store's. The caller must check the files are fp's: neither is checked.
func (d *Dir) VersionArchive(ctx context.Context, name, fp string) ([]byte, error) {
	if err := registry.ValidateFingerprint(fp); err != nil {
		return nil, err
	}
	data, err := d.readBounded(historyPath(name, archiveName(fp)), d.limits.Effective().MaxArchiveBytes)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("skillkit: the kept version %s of %s: %w", fp, name, err)
	}
	if d.packages == nil {
		return nil, fmt.Errorf("%w: the files of version %s of %s are not kept any more", ErrNoVersion, fp, name)
	}
	data, err = d.FetchPackage(ctx, fp)
	if errors.Is(err, registry.ErrNotFound) {
		return nil, fmt.Errorf("%w: neither this folder nor the shared package store holds the files of version %s of %s", ErrNoVersion, fp, name)
	}
	return data, err
}
