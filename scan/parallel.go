package scan

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"runtime"
	"sync"

	"golang.org/x/sync/semaphore"
)

// A skill's files are scanned on several goroutines and their results
// merged in the order a scan of one goroutine would take them, so that the
// report is the same whatever the scheduling: one goroutine reads the files
// in order under the byte budget and hands them over in batches, workers
// scan them, each file into a scan of its own (forFile), and the caller
// merges them in order.
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

// Bounds of the pipeline.
const (
	// maxScanWorkers bounds the goroutines scanning one skill's files.
	maxScanWorkers = 4
	// Workers take consecutive files in batches, so that a skill of many
	// small files costs a hand-over per batch, not per file (they were a
	// quarter of scanning 1,000 small files): at most maxBatchFiles files
	// or maxBatchBytes bytes, and small enough that each worker gets
	// batchesPerWorker batches or more, so a skill of few files is still
	// shared out.
	maxBatchFiles    = 16
	maxBatchBytes    = 256 << 10
	batchesPerWorker = 8
	// maxReadAhead bounds the bytes read and not yet merged, each file
	// counted at least fileCost: what a scan holds stays bounded however
	// slow one file is to scan.
	maxReadAhead = 8 << 20
	fileCost     = 4 << 10
)

// fileScan is one file of a scan: its bytes as read (or why not), and
// what scanning it found.
type fileScan struct {
	data      []byte
	truncated bool
	skipped   bool // past the scan's byte budget: not read
	err       error
	cost      int64      // of the read-ahead bound, released at the merge
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
	return &skillScan{s: sc.s, o: o, rules: sc.rules, attackDocs: sc.attackDocs, declared: sc.declared, runs: sc.runs, docHosts: map[string]bool{},
		proseHosts: map[string]bool{}}
}

// merge adds the scan of one file to sc.
func (sc *skillScan) merge(f *skillScan) {
	for _, d := range f.documented {
		d.finding += len(sc.findings)
		sc.documented = append(sc.documented, d)
	}
	sc.findings = append(sc.findings, f.findings...)
	sc.files = append(sc.files, f.files...)
	maps.Copy(sc.docHosts, f.docHosts)
	maps.Copy(sc.proseHosts, f.proseHosts)
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
	batchFiles := min(max(len(files)/(workers*batchesPerWorker), 1), maxBatchFiles)
	scans := make([]fileScan, len(files))
	for i := range scans {
		scans[i].done = make(chan struct{})
	}
	held := semaphore.NewWeighted(maxReadAhead)
	jobs := make(chan [2]int) // a batch: files lo to hi-1
	wg.Go(func() {
		defer close(jobs)
		sc.readAhead(ctx, fsys, files, scans, held, batchFiles, jobs)
	})
	for range workers {
		wg.Go(func() {
			for b := range jobs {
				for i := b[0]; i < b[1]; i++ {
					if f := &scans[i]; !f.skipped && f.err == nil {
						f.scan = sc.forFile(o.MaxDecodedBytes)
						f.scan.scanFile(files[i], f.data, f.truncated)
					}
					close(scans[i].done)
				}
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
		held.Release(f.cost)
		*f = fileScan{}
	}
	return skipped, nil
}

// readAhead reads files in order, under the scan's byte budget, into
// scans, and sends them to jobs in batches (files lo to hi-1) of at most
// batchFiles files or maxBatchBytes bytes. Each file's cost is held in held
// until its merge releases it; a batch is sent before waiting for room,
// since its files are merged only once scanned. It returns when every file
// is sent or ctx is done.
func (sc *skillScan) readAhead(ctx context.Context, fsys fs.FS, files []string, scans []fileScan, held *semaphore.Weighted, batchFiles int, jobs chan<- [2]int) {
	o := sc.o
	send := func(lo, hi int) bool {
		select {
		case jobs <- [2]int{lo, hi}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	var total int64
	lo, batchBytes := 0, 0
	for i, p := range files {
		if ctx.Err() != nil {
			return
		}
		f := &scans[i]
		if total >= o.MaxTotalBytes {
			f.skipped = true
		} else {
			f.data, f.truncated, f.err = readFile(fsys, p, min(o.MaxFileBytes, o.MaxTotalBytes-total))
			total += int64(len(f.data))
			batchBytes += len(f.data)
		}
		f.cost = min(max(int64(len(f.data)), fileCost), maxReadAhead)
		// Files waiting in a batch not yet sent are not merged: send it
		// before waiting for room, which only merges make.
		if !held.TryAcquire(f.cost) {
			if i > lo && !send(lo, i) {
				return
			}
			lo, batchBytes = i, len(f.data)
			if held.Acquire(ctx, f.cost) != nil {
				return
			}
		}
		if i+1-lo < batchFiles && batchBytes < maxBatchBytes && i+1 < len(files) {
			continue
		}
		if !send(lo, i+1) {
			return
		}
		lo, batchBytes = i+1, 0
	}
}
