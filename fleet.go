package skillkit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

// ReplicaFile holds, in the skills folder, the replica's identity when
// Options.Replica does not give one: made at the first sync.
const ReplicaFile = ".skillhub/replica"

// SyncOptions tune [Kit.Sync]. A nil *SyncOptions means the zero value.
type SyncOptions struct {
	// Force replaces skill folders this replica did not place from the
	// registry, or edited since it placed them, discarding them; see
	// [installer.SyncOptions].
	Force bool
	// InstallDeps installs the missing dependencies (.venv, node_modules,
	// dotnet restore, system checks; never a setup script) of every skill
	// the replica holds from the registry — placed by this sync or an
	// earlier one — as InstallDeps would; a failure is the skill's result
	// (SyncFailed). Without it, a sync rebuilds
	// only what the replica had built for the version it replaced and that
	// the new version makes stale (as Update does), and the rest is in the
	// result's Notes.
	InstallDeps bool
	// Concurrency bounds how many skills the sync fetches and swaps at
	// once; zero or negative means 4.
	Concurrency int
}

// Sync brings this replica's skills folder to what the shared registry
// records (Options.Packages, Registry and Secrets on one database): it
// fetches from the package store every enabled skill the folder lacks or
// holds at another version, checks each exactly as an install does (the
// archive checks, validation, the fingerprint, which must be the recorded
// one, the scan and the trust policy), swaps it in atomically, and removes
// the skills it placed that were uninstalled elsewhere; see
// [installer.Installer.Sync]. Then it rebuilds the dependencies the new
// versions make stale (see [SyncOptions]), rescans, and records in the
// package store, when it keeps replicas, what this replica holds now and
// what failed, for Doctor on any replica to report replicas that lag.
// Per-skill failures are in the report (report.Err); the error is
// installer.ErrNoPackages, ctx's, or a failure to read the registry.
func (k *Kit) Sync(ctx context.Context, opts *SyncOptions) (*installer.SyncReport, error) {
	var o SyncOptions
	if opts != nil {
		o = *opts
	}
	var mu sync.Mutex
	before := map[string]deps.State{}
	rep, err := k.installer.Sync(ctx, &installer.SyncOptions{Force: o.Force, Concurrency: o.Concurrency, BeforeReplace: func(ctx context.Context, name string) {
		st, _ := k.deps.State(ctx, name)
		mu.Lock()
		before[name] = st
		mu.Unlock()
	}})
	if rep == nil {
		return nil, err
	}
	listed := map[string]bool{}
	for i, r := range rep.Results {
		listed[r.Name] = true
		if r.Result != nil && (r.Action == installer.SyncInstalled || r.Action == installer.SyncUpdated) {
			rep.Results[i].Result.Notes = k.depsNotes(ctx, r.Name, before[r.Name], o.InstallDeps)
		}
	}
	if o.InstallDeps {
		k.syncHeldDeps(ctx, rep, listed)
	}
	if rerr := k.reportReplica(ctx, rep, err); err == nil {
		err = rerr
	}
	return rep, k.rescanAfter(ctx, err)
}

// syncHeldDeps installs the missing dependencies of the skills the replica
// holds that this sync did not list (placed by an earlier sync); a failure
// becomes the skill's SyncFailed result.
func (k *Kit) syncHeldDeps(ctx context.Context, rep *installer.SyncReport, listed map[string]bool) {
	for _, name := range slices.Sorted(maps.Keys(rep.Placed)) {
		if listed[name] {
			continue
		}
		if st, err := k.deps.State(ctx, name); err != nil || len(st.Missing()) == 0 {
			continue
		}
		if _, err := k.InstallDeps(ctx, name, nil); err != nil {
			rep.Results = append(rep.Results, installer.SyncResult{Name: name, Action: installer.SyncFailed, Fingerprint: rep.Placed[name],
				Err: fmt.Errorf("installing the dependencies of %s: %w", name, err)})
		}
	}
	slices.SortFunc(rep.Results, func(a, b installer.SyncResult) int { return strings.Compare(a.Name, b.Name) })
}

// KeepSyncedOptions tune [Kit.KeepSynced].
type KeepSyncedOptions struct {
	// Interval is the time between two syncs; zero or negative means one
	// minute.
	Interval time.Duration
	// Wake, when set, starts a sync at once each time it delivers: a host
	// feeds it from a PostgreSQL LISTEN on sqlstore.NotifyChannel
	// (docs/fleet.md). Values arriving while a sync runs make one more
	// sync, not one each.
	Wake <-chan struct{}
	// Sync tunes every sync.
	Sync *SyncOptions
	// OnSync, when set, gets every sync's report and error (the report is
	// nil when the sync could not start).
	OnSync func(*installer.SyncReport, error)
}

// KeepSynced syncs now, then every Interval and whenever Wake delivers,
// until ctx is done, and returns ctx's error. Failures do not stop it:
// they go to OnSync, to the Logger, and into the replica's record that
// Doctor reads. Run it in a goroutine of the host's.
func (k *Kit) KeepSynced(ctx context.Context, opts *KeepSyncedOptions) error {
	var o KeepSyncedOptions
	if opts != nil {
		o = *opts
	}
	if o.Interval <= 0 {
		o.Interval = time.Minute
	}
	tick := time.NewTicker(o.Interval)
	defer tick.Stop()
	for {
		rep, err := k.Sync(ctx, o.Sync)
		if err == nil && rep != nil {
			err = rep.Err()
		}
		if err != nil && ctx.Err() == nil && k.opts.Logger != nil {
			k.opts.Logger.WarnContext(ctx, "skillkit: sync failed", "error", err)
		}
		if o.OnSync != nil {
			o.OnSync(rep, err)
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-tick.C:
		case <-o.Wake:
		}
	}
}

// reportReplica records in the package store, when it keeps replicas,
// what this replica holds after a sync and what went wrong.
func (k *Kit) reportReplica(ctx context.Context, rep *installer.SyncReport, syncErr error) error {
	rs, ok := k.opts.Packages.(registry.ReplicaStore)
	if !ok {
		return nil
	}
	id, err := k.replicaID()
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	r := registry.Replica{ID: id, Host: host, Dir: k.dir.Path(), SyncedAt: time.Now().UTC(), Skills: rep.Placed}
	if err := errors.Join(syncErr, rep.Err()); err != nil {
		r.Error = err.Error()
	}
	return rs.PutReplica(context.WithoutCancel(ctx), r)
}

// replicaID returns Options.Replica, else the identity kept in the skills
// folder, made on first use.
func (k *Kit) replicaID() (string, error) {
	if k.opts.Replica != "" {
		return k.opts.Replica, nil
	}
	root := k.dir.Root()
	data, err := root.ReadFile(ReplicaFile)
	if err == nil {
		id := strings.TrimSpace(string(data))
		if err := registry.ValidateReplicaID(id); err != nil {
			return "", fmt.Errorf("skillkit: %s: %w", ReplicaFile, err)
		}
		return id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("skillkit: %w", err)
	}
	id := strings.ToLower(registry.NewInstallID())
	if err := root.MkdirAll(".skillhub", skillsdir.DirPerm); err != nil {
		return "", fmt.Errorf("skillkit: %w", err)
	}
	if err := atomicfile.WriteFile(root, ReplicaFile, []byte(id+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("skillkit: writing the replica's identity: %w", err)
	}
	return id, nil
}

// knownReplicaID is the replica's identity if it has one yet (it is made
// at the first sync), else "".
func (k *Kit) knownReplicaID() string {
	if k.opts.Replica != "" {
		return k.opts.Replica
	}
	data, err := k.dir.Root().ReadFile(ReplicaFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// placedNow reads from the skills folder what this replica holds from the
// registry: skill name to the fingerprint of the version it placed.
func (k *Kit) placedNow() (map[string]string, error) {
	names, err := k.dir.PlacedNames()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, name := range names {
		present, err := k.dir.Exists(name)
		if err != nil {
			return nil, fmt.Errorf("skillkit: %w", err)
		}
		fp, err := k.dir.Placed(name)
		if err != nil {
			return nil, err
		}
		if present && fp != "" {
			out[name] = fp
		}
	}
	return out, nil
}

// replicaDiagnostics reports, from the replicas' last syncs, every replica
// that does not hold what the registry records: REPLICA_BEHIND, one per
// replica, sorted by replica.
func (k *Kit) replicaDiagnostics(ctx context.Context) (diagnostics.List, error) {
	rs, ok := k.opts.Packages.(registry.ReplicaStore)
	if !ok {
		return nil, nil
	}
	replicas, err := rs.Replicas(ctx)
	if err != nil {
		return nil, err
	}
	// This replica's own state is on its disk, fresher than its last sync's
	// record: installs and uninstalls here change it at once.
	if id := k.knownReplicaID(); id != "" {
		own, err := k.placedNow()
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(replicas, func(r registry.Replica) bool { return r.ID == id })
		if i < 0 {
			host, _ := os.Hostname()
			replicas = append(replicas, registry.Replica{ID: id, Host: host, Dir: k.dir.Path()})
			i = len(replicas) - 1
		}
		replicas[i].Skills = own
	}
	recs, err := k.registry.List(ctx)
	if err != nil {
		return nil, err
	}
	want := map[string]string{}
	recorded := map[string]bool{}
	for _, rec := range recs {
		recorded[rec.Name] = true
		if rec.Enabled && strings.HasPrefix(rec.Fingerprint, registry.FingerprintPrefix) {
			want[rec.Name] = rec.Fingerprint
		}
	}
	var out diagnostics.List
	for _, r := range replicas {
		var missing, stale, removed []string
		for name, fp := range want {
			switch held, ok := r.Skills[name]; {
			case !ok:
				missing = append(missing, name)
			case held != fp:
				stale = append(stale, name)
			}
		}
		for name := range r.Skills {
			if !recorded[name] {
				removed = append(removed, name)
			}
		}
		if len(missing)+len(stale)+len(removed) == 0 && r.Error == "" {
			continue
		}
		slices.Sort(missing)
		slices.Sort(stale)
		slices.Sort(removed)
		var parts []string
		for _, p := range []struct {
			what  string
			names []string
		}{{"lacks", missing}, {"holds another version of", stale}, {"still holds, uninstalled elsewhere,", removed}} {
			if len(p.names) > 0 {
				parts = append(parts, p.what+" "+listNames(p.names))
			}
		}
		if r.Error != "" {
			parts = append(parts, "its last sync failed: "+firstLine(r.Error))
		}
		out = append(out, diagnostics.New(diagnostics.ReplicaBehind, "", r.Dir, "replica %s (%s) %s; last synced %s",
			r.ID, r.Host, strings.Join(parts, "; "), r.SyncedAt.Format(time.RFC3339)).
			With("replica", r.ID).With("host", r.Host).With("dir", r.Dir).With("synced_at", r.SyncedAt).
			With("missing", missing).With("stale", stale).With("removed", removed).With("error", r.Error))
	}
	return out, nil
}

// listNames names at most five names: "a, b and 4 more".
func listNames(names []string) string {
	const most = 5
	if len(names) > most {
		return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
	}
	return strings.Join(names, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// placedRecords is the registry as this replica's fingerprint check sees
// it: a skill's fingerprint is the version this replica placed, which lags
// the fleet's record until its next sync, and follows what a setup script
// wrote on this replica alone.
type placedRecords struct {
	registry.Store
	dir *skillsdir.Dir
}

// Get returns the record with the fingerprint of the version placed.
func (p placedRecords) Get(ctx context.Context, name string) (registry.Record, error) {
	rec, err := p.Store.Get(ctx, name)
	if err != nil {
		return rec, err
	}
	if fp, _ := p.dir.Placed(name); fp != "" {
		rec.Fingerprint = fp
	}
	return rec, nil
}
