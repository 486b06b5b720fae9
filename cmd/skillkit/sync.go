//go:build !lean

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/sqlstore"
)

type syncOptions struct {
	installerFlags
	force   bool
	deps    bool
	publish bool
	watch   time.Duration
	listen  bool
}

func syncCommand() *command {
	return &command{
		name:    "sync",
		args:    "[--force] [--deps] [--publish] [--watch INTERVAL [--listen]] [--json]",
		summary: "bring this replica's skills folder to what the shared database records",
		help: `
Needs --db URL or $SKILLKIT_DB. Every enabled skill the database records
that this folder lacks, or holds at another version, is fetched from the
database's packages and checked as an install is (archive checks,
validation, fingerprint, security scan and trust policy), then swapped in;
skills this replica placed that were uninstalled elsewhere are removed.
Dependencies the new versions make stale are rebuilt; with --deps every
missing one of every skill the replica holds is installed, placed by this
sync or an earlier one (never a setup script). A folder this replica did
not place, or edited since, is replaced only with --force. --publish
stores the files of the skills this folder holds at their recorded version
that the database has no package of (installed before the database shared
packages), so the other replicas can fetch them.

Prints what changed, one line a skill; exit status 1 when a skill could not
be synced. --watch INTERVAL syncs again every INTERVAL (e.g. 1m) until
interrupted; with --listen (PostgreSQL) also as soon as another replica
changes the registry. --json prints each sync as one JSON object a line.` + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &syncOptions{}
			o.register(fs, false)
			fs.BoolVar(&o.force, "force", false, "replace folders this replica did not place or that were edited")
			fs.BoolVar(&o.deps, "deps", false, "install the missing dependencies of every skill the replica holds")
			fs.BoolVar(&o.publish, "publish", false, "store the packages the database lacks of the skills this folder holds")
			fs.DurationVar(&o.watch, "watch", 0, "sync again every `INTERVAL` until interrupted")
			fs.BoolVar(&o.listen, "listen", false, "with --watch on PostgreSQL: also sync when the registry changes")
			return o
		},
		run: runSync,
	}
}

func runSync(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*syncOptions)
	switch {
	case len(args) != 0:
		fmt.Fprintln(c.stderr, "skillkit sync: takes no arguments")
		return exitUsage
	case c.dbURL() == "":
		fmt.Fprintln(c.stderr, "skillkit sync: no database: give --db URL or set SKILLKIT_DB")
		return exitUsage
	case o.watch < 0 || o.listen && o.watch == 0:
		fmt.Fprintln(c.stderr, "skillkit sync: --listen needs --watch INTERVAL")
		return exitUsage
	}
	kit, err := o.open(ctx, c, true, nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit sync: %v\n", err)
		return exitFailure
	}
	defer kit.Close()
	so := &skillkit.SyncOptions{Force: o.force, InstallDeps: o.deps, Publish: o.publish}
	if o.watch == 0 {
		rep, err := kit.Sync(ctx, so)
		return printSync(c, o, rep, err, true)
	}
	var wake <-chan struct{}
	if o.listen {
		driver, dsn, _, err := parseDBURL(c.dbURL())
		if err != nil || driver != "pgx" {
			fmt.Fprintln(c.stderr, "skillkit sync: --listen needs a PostgreSQL database")
			return exitUsage
		}
		wake = listen(ctx, c, dsn)
	}
	err = kit.KeepSynced(ctx, &skillkit.KeepSyncedOptions{Interval: o.watch, Wake: wake, Sync: so,
		OnSync: func(rep *installer.SyncReport, err error) { printSync(c, o, rep, err, false) }})
	if errors.Is(err, context.Canceled) {
		return exitOK // interrupted: the way --watch ends
	}
	fmt.Fprintf(c.stderr, "skillkit sync: %v\n", err)
	return exitFailure
}

// printSync prints one sync's outcome and returns the exit status it
// calls for. Quiet (a watching sync) prints nothing when nothing changed
// and nothing failed.
func printSync(c *cli, o *syncOptions, rep *installer.SyncReport, err error, summary bool) int {
	code := exitOK
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit sync: %v\n", err)
		code = exitFailure
	}
	if rep == nil {
		return code
	}
	type jsonResult struct {
		installer.SyncResult
		Error string `json:"error,omitempty"`
	}
	out := struct {
		Results []jsonResult      `json:"results"`
		Placed  map[string]string `json:"placed"`
	}{Results: []jsonResult{}, Placed: rep.Placed}
	counts := map[installer.SyncAction]int{}
	// Skills that failed for one cause (a database outage fails every one)
	// are told once.
	var causes []string
	failed := map[string][]installer.SyncResult{}
	for _, r := range rep.Results {
		counts[r.Action]++
		jr := jsonResult{SyncResult: r}
		if r.Err != nil {
			code = exitFailure
			jr.Error = r.Err.Error()
		}
		out.Results = append(out.Results, jr)
		if o.json {
			continue
		}
		if r.Err != nil {
			cause := rootCause(r.Err).Error()
			if failed[cause] == nil {
				causes = append(causes, cause)
			}
			failed[cause] = append(failed[cause], r)
			continue
		}
		fmt.Fprintf(c.stdout, "%s %s (%s)\n", r.Action, safeText(r.Name), short(strings.TrimPrefix(r.Fingerprint, "sha256:")))
		if r.Result != nil {
			for _, n := range r.Result.Notes {
				fmt.Fprintf(c.stdout, "  %s\n", safeText(n))
			}
		}
	}
	for _, cause := range causes {
		first := failed[cause][0]
		fmt.Fprintf(c.stderr, "skillkit sync: %s: %s\n", safeText(first.Name), safeText(first.Err.Error()))
		if rest := failed[cause][1:]; len(rest) > 0 {
			names := make([]string, len(rest))
			for i, r := range rest {
				names[i] = r.Name
			}
			fmt.Fprintf(c.stderr, "skillkit sync: %s failed the same way\n", safeText(someNames(names)))
		}
	}
	if o.json {
		if len(rep.Results) > 0 || summary {
			if writeJSON(c, out) != nil {
				return exitFailure
			}
		}
		return code
	}
	if summary && !c.quiet {
		published := ""
		if n := counts[installer.SyncPublished]; n > 0 {
			published = fmt.Sprintf("%d published, ", n)
		}
		fmt.Fprintf(c.stderr, "%d installed, %d updated, %d removed, %s%d failed; this replica holds %d skills from the database\n",
			counts[installer.SyncInstalled], counts[installer.SyncUpdated], counts[installer.SyncRemoved], published, counts[installer.SyncFailed], len(rep.Placed))
	}
	return code
}

// rootCause is the innermost error err wraps, alone.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// someNames names at most five names: "a, b, c, d, e and 4 more".
func someNames(names []string) string {
	const most = 5
	if len(names) > most {
		return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
	}
	return strings.Join(names, ", ")
}

// listen returns a channel that delivers when another replica changes the
// registry: a PostgreSQL LISTEN on sqlstore.NotifyChannel, on a connection
// of its own, connected again after a failure. It ends with ctx.
func listen(ctx context.Context, c *cli, dsn string) <-chan struct{} {
	wake := make(chan struct{}, 1)
	go func() {
		delay := time.Second
		for reconnect := false; ctx.Err() == nil; reconnect = true {
			listening, err := waitForChanges(ctx, dsn, wake, reconnect)
			if ctx.Err() != nil {
				return
			}
			if listening {
				delay = time.Second // it worked for a while: retry soon
			}
			fmt.Fprintf(c.stderr, "skillkit sync: listening for changes: %v; trying again in %v\n", err, delay)
			select {
			case <-ctx.Done():
			case <-time.After(delay):
			}
			delay = min(2*delay, 10*time.Second)
		}
	}()
	return wake
}

// waitForChanges listens on one connection until it fails or ctx ends,
// waking the syncs on every notification, and reports whether it got to
// listen. A listener that connects again (reconnect) wakes a sync as soon
// as it listens: what changed while no one listened was announced to
// no one.
func waitForChanges(ctx context.Context, dsn string, wake chan<- struct{}, reconnect bool) (listening bool, err error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+sqlstore.NotifyChannel); err != nil {
		return false, err
	}
	if reconnect {
		wakeUp(wake)
	}
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return true, err
		}
		wakeUp(wake)
	}
}

// wakeUp asks for a sync, unless one is already due.
func wakeUp(wake chan<- struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}
