package linediff

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// apply applies a unified diff of Unified to old, checking every kept and
// removed line against old, and returns the new version.
func apply(t testing.TB, old []byte, d string) []byte {
	t.Helper()
	if d == "" {
		return old
	}
	a := lines(old)
	body := strings.SplitAfter(d, "\n")
	if len(body) < 3 || !strings.HasPrefix(body[0], "--- ") || !strings.HasPrefix(body[1], "+++ ") {
		t.Fatalf("no headers:\n%s", d)
	}
	var out []string
	next := 0 // the next line of a not yet copied
	var last *string
	for _, l := range body[2:] {
		switch {
		case l == "":
		case strings.HasPrefix(l, "@@ -"):
			f := strings.Fields(l)
			start, _, _ := strings.Cut(strings.TrimPrefix(f[1], "-"), ",")
			n, err := strconv.Atoi(start)
			if err != nil {
				t.Fatalf("bad hunk header %q", l)
			}
			if n > 0 && !strings.HasSuffix(f[1], ",0") {
				n--
			}
			if n < next {
				t.Fatalf("hunks overlap at %q", l)
			}
			out = append(out, a[next:n]...)
			next, last = n, nil
		case l == "\\ No newline at end of file\n":
			if last == nil {
				t.Fatal("a marker after no line")
			}
			*last = strings.TrimSuffix(*last, "\n")
		default:
			text := l[1:]
			switch l[0] {
			case ' ', '-':
				if next >= len(a) || a[next] != text && a[next]+"\n" != text {
					t.Fatalf("line %d is %q in old, the diff says %q", next+1, a[min(next, len(a)-1)], text)
				}
				next++
				if l[0] == ' ' {
					out = append(out, text)
					last = &out[len(out)-1]
				} else {
					last = new(string)
				}
			case '+':
				out = append(out, text)
				last = &out[len(out)-1]
			default:
				t.Fatalf("bad line %q", l)
			}
		}
	}
	out = append(out, a[next:]...)
	return []byte(strings.Join(out, ""))
}

func TestUnified(t *testing.T) {
	for _, c := range []struct{ old, new, want string }{
		{"a\nb\nc\n", "a\nb\nc\n", ""},
		{"", "x\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"},
		{"x\n", "", "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n"},
		{"a\nb\nc\n", "a\nB\nc\n", "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"a\n", "a", "--- a\n+++ b\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\nX\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
			"--- a\n+++ b\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n"},
		{"a\x00b", "c", "Binary files a and b differ\n"},
		{"\xff\n", "x\n", "Binary files a and b differ\n"},
	} {
		if got := Unified("a", "b", []byte(c.old), []byte(c.new)); got != c.want {
			t.Errorf("%q -> %q:\n%s\nwant\n%s", c.old, c.new, got, c.want)
		}
	}
}

// randomText draws lines from a small alphabet, so versions share lines.
func randomText(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	for range n {
		fmt.Fprintf(&b, "line %c\n", 'a'+rune(r.IntN(6)))
	}
	if n > 0 && r.IntN(4) == 0 {
		b.Truncate(b.Len() - 1)
	}
	return b.Bytes()
}

// TestUnifiedAppliesWithPatch: GNU patch turns the old version into the
// new one with every diff written, and so does this package's reading of
// it, for random versions.
func TestUnifiedAppliesWithPatch(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch program")
	}
	r := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for i := range 150 {
		old, nw := randomText(r, r.IntN(30)), randomText(r, r.IntN(30))
		d := Unified("a/f", "b/f", old, nw)
		if got := apply(t, old, d); !bytes.Equal(got, nw) {
			t.Fatalf("case %d: applying gives %q, want %q\n%s", i, got, nw, d)
		}
		if d == "" {
			continue
		}
		f := filepath.Join(dir, "f")
		if err := os.WriteFile(f, old, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(patch, "-s", "-p1", "--no-backup-if-mismatch", "-d", dir)
		cmd.Stdin = strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v %s\n%s", i, err, out, d)
		}
		if got, _ := os.ReadFile(f); !bytes.Equal(got, nw) {
			t.Fatalf("case %d: patch gives %q, want %q\n%s", i, got, nw, d)
		}
	}
}

// TestUnifiedIsShortest: below MaxEdits the diff changes as few lines as
// the longest common subsequence allows.
func TestUnifiedIsShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		a, b := lines(randomText(r, r.IntN(25))), lines(randomText(r, r.IntN(25)))
		changed := 0
		for _, o := range diff(a, b) {
			if o.kind != ' ' {
				changed++
			}
		}
		if want := len(a) + len(b) - 2*lcs(a, b); changed != want {
			t.Fatalf("%d lines changed, the shortest changes %d: %q -> %q", changed, want, a, b)
		}
	}
}

func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// TestUnifiedBounded: two large files with nothing in common cost a
// bounded search and still give a diff that applies.
func TestUnifiedBounded(t *testing.T) {
	var a, b bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&a, "old %d\n", i)
		fmt.Fprintf(&b, "new %d\n", i)
	}
	d := Unified("a", "b", a.Bytes(), b.Bytes())
	if got := apply(t, a.Bytes(), d); !bytes.Equal(got, b.Bytes()) {
		t.Fatal("the bounded diff does not apply")
	}
}

func FuzzUnified(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte("a\nc\nd"))
	f.Add([]byte(""), []byte("x"))
	f.Add([]byte("\n\n\n"), []byte("\n"))
	f.Add([]byte("same\n"), []byte("same\n"))
	f.Fuzz(func(t *testing.T, old, nw []byte) {
		d := Unified("a", "b", old, nw)
		if binary(old) || binary(nw) {
			if !bytes.Equal(old, nw) && !strings.HasPrefix(d, "Binary files") {
				t.Fatalf("binary input gave %q", d)
			}
			return
		}
		if got := apply(t, old, d); !bytes.Equal(got, nw) {
			t.Fatalf("applying gives %q, want %q\n%s", got, nw, d)
		}
	})
}
