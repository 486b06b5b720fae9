package inittrace

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// ErrNoReport means the output held no init line: the program ran without
// GODEBUG=inittrace=1, or did not start.
var ErrNoReport = errors.New("inittrace: no init lines (was GODEBUG=inittrace=1 set?)")

// Package is the initialisation cost of one package.
type Package struct {
	Name    string
	ClockMS float64 // wall time of its init functions
	Bytes   int64   // heap bytes they allocated
	Allocs  int64   // heap allocations they made
}

// Parse reads the init lines of a program's standard error, in the order
// the runtime ran them.
func Parse(stderr []byte) ([]Package, error) {
	var out []Package
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("init ")) {
			continue
		}
		var p Package
		var at float64
		if _, err := fmt.Sscanf(string(line), "init %s @%g ms, %g ms clock, %d bytes, %d allocs",
			&p.Name, &at, &p.ClockMS, &p.Bytes, &p.Allocs); err != nil {
			return nil, fmt.Errorf("inittrace: unexpected line %q: %w", line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("inittrace: %w", err)
	}
	if len(out) == 0 {
		return nil, ErrNoReport
	}
	return out, nil
}

// Sum adds up the packages' costs; its Name is empty.
func Sum(pkgs []Package) Package {
	var total Package
	for _, p := range pkgs {
		total.ClockMS += p.ClockMS
		total.Bytes += p.Bytes
		total.Allocs += p.Allocs
	}
	return total
}

// Costliest returns the n packages that allocated the most bytes, most
// first (ties in the runtime's order).
func Costliest(pkgs []Package, n int) []Package {
	sorted := slices.Clone(pkgs)
	slices.SortStableFunc(sorted, func(a, b Package) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return sorted[:min(n, len(sorted))]
}
