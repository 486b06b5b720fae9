package scan

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"runtime"
	"sync"
)

// A skill's files are scanned on several goroutines and their results
// merged in the order a scan of one goroutine would take them, so that the
// report is the same whatever the scheduling: one goroutine reads the files
// in order under the byte budget, workers scan them, each into a scan of
// its own (forFile), and the caller merges them in order.
//
// Files do not depend on each other while they are scanned: the hosts the
// documents name and the file states are read only by finish, after every
// file is merged. The one exception is the budget of decoded bytes, shared
// by the skill's files in order. A worker scans with the whole budget; when
// the file decoded more than the budget the files before it left, the
// merge scans it again with what was left. That gives the same result as
// scanning in order: a decode accepted under the smaller budget is
// accepted under the larger, so the two runs differ only when the file
// decoded more than the smaller allows.

// readAheadFiles is how many files may be read and not yet merged, besides
// those the workers hold: with files of at most MaxFileBytes, what a scan
// holds is bounded.
const readAheadFiles = 8

// maxScanWorkers bounds the goroutines scanning one skill's files.
const maxScanWorkers = 4

// fileScan is one file of a scan: its bytes as read (or why not), and
// what scanning it found.
type fileScan struct {
	data      []byte
	truncated bool
	skipped   bool // past the scan's byte budget: not read
	err       error
	scan      *skillScan // nil when the file was not read
	done      chan struct{}
}

// forFile returns a scan of one file that shares sc's context (the skill,
// its declarations, the rules, the options) and keeps its own findings,
// file state, document hosts and decoded bytes, with budget decoded bytes
// to spend.
func (sc *skillScan) forFile(budget int) *skillScan {
	o := sc.o
	o.MaxDecodedBytes = budget
	return &skillScan{s: sc.s, o: o, rules: sc.rules, attackDocs: sc.attackDocs, declared: sc.declared, runs: sc.runs, docHosts: map[string]bool{}}
}

// merge adds the scan of one file to sc.
func (sc *skillScan) merge(f *skillScan) {
	sc.findings = append(sc.findings, f.findings...)
	sc.files = append(sc.files, f.files...)
	maps.Copy(sc.docHosts, f.docHosts)
	sc.decoded += f.decoded
}

// scanFiles scans files of fsys (SKILL.md first) into sc, counting what it
// read in rep, and returns the files past the byte budget, which were not
// read. When it returns, nothing reads fsys any more.
func (sc *skillScan) scanFiles(ctx context.Context, fsys fs.FS, files []string, rep *Report) (skipped []string, err error) {
	if len(files) == 0 {
		return nil, nil
	}
	o := sc.o
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	workers := min(runtime.GOMAXPROCS(0), maxScanWorkers, len(files))
	scans := make([]fileScan, len(files))
	for i := range scans {
		scans[i].done = make(chan struct{})
	}
	unmerged := make(chan struct{}, readAheadFiles+workers)
	jobs := make(chan int)
	wg.Go(func() {
		defer close(jobs)
		var total int64
		for i, p := range files {
			select {
			case unmerged <- struct{}{}:
			case <-ctx.Done():
				return
			}
			f := &scans[i]
			if total >= o.MaxTotalBytes {
				f.skipped = true
			} else {
				f.data, f.truncated, f.err = readFile(fsys, p, min(o.MaxFileBytes, o.MaxTotalBytes-total))
				total += int64(len(f.data))
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				if f := &scans[i]; !f.skipped && f.err == nil {
					f.scan = sc.forFile(o.MaxDecodedBytes)
					f.scan.scanFile(files[i], f.data, f.truncated)
				}
				close(scans[i].done)
			}
		})
	}
	for i, p := range files {
		f := &scans[i]
		select {
		case <-f.done:
		case <-ctx.Done():
			return skipped, ctx.Err()
		}
		switch {
		case f.skipped:
			skipped = append(skipped, p)
		case f.err != nil:
			sc.add(Finding{Rule: ruleReadError, Severity: Medium, File: p, Context: CtxFile,
				Message: fmt.Sprintf("cannot be read, so it was not scanned: %v", f.err)})
		default:
			rep.Files++
			rep.Bytes += int64(len(f.data))
			if left := o.MaxDecodedBytes - sc.decoded; f.scan.decoded > left {
				f.scan = sc.forFile(left)
				f.scan.scanFile(p, f.data, f.truncated)
			}
			sc.merge(f.scan)
		}
		*f = fileScan{}
		<-unmerged
	}
	return skipped, nil
}
