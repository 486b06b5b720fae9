package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/inittrace"
)

// maxInitBytes bounds what package initialisation may allocate before
// main runs. Every command pays it: it was 2.8 MB (a JSON Schema library
// compiling meta-schemas, 1.7 MB; the scanner's regular expressions, 0.7 MB)
// before docs/decisions.md "CLI start-up", and about 0.17 MB since. Sigstore
// bundle verification (sigstore-go, for ZIP archives' bundles) brought 1.75
// MB back: its dependencies' init (govalidator's regular expressions 0.95
// MB, go-openapi/strfmt, protobuf descriptors), 1.92 MB in all
// (BENCHMARKS.md "Sigstore bundles: binary size and start-up"). The bound
// leaves 0.4 MB over that, so either of the two earlier costs coming back
// still fails it. Allocations, unlike time, do not depend on the machine's
// load.
const maxInitBytes = 2304 << 10

// TestStartupAllocatesLittle builds the skillkit command and runs commands
// that validate nothing with GODEBUG=inittrace=1: the packages' init
// functions together allocate under maxInitBytes.
func TestStartupAllocatesLittle(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the go command is not on PATH")
		}
		t.Skip("needs the go command to build skillkit")
	}
	bin := filepath.Join(t.TempDir(), "skillkit")
	build := exec.CommandContext(t.Context(), goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"help"}, {"version"}} {
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("skillkit %s: %v\n%s", args, err, stderr.String())
		}
		pkgs, err := inittrace.Parse([]byte(stderr.String()))
		if err != nil {
			t.Fatal(err)
		}
		if total := inittrace.Sum(pkgs); total.Bytes > maxInitBytes {
			var top []string
			for _, p := range inittrace.Costliest(pkgs, 5) {
				top = append(top, fmt.Sprintf("%s %d bytes in %d allocations", p.Name, p.Bytes, p.Allocs))
			}
			t.Errorf("skillkit %s: package initialisation allocated %d bytes in %d allocations, over %d; the most:\n%s",
				args, total.Bytes, total.Allocs, maxInitBytes, strings.Join(top, "\n"))
		}
	}
}
