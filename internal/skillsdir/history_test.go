package skillsdir

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func fpOf(n int) string { return fmt.Sprintf("sha256:%064x", n) }

// versions makes n versions, one a day until now, each of its own files
// taking size bytes.
func versions(n int, size int64, now time.Time) []Version {
	var vs []Version
	for i := 1; i <= n; i++ {
		vs = append(vs, Version{Seq: i, Time: now.Add(-time.Duration(n-i) * 24 * time.Hour), Op: "update", Fingerprint: fpOf(i), Bytes: size})
	}
	return vs
}

func seqs(vs []Version) []int {
	var out []int
	for _, v := range vs {
		out = append(out, v.Seq)
	}
	return out
}

// The retention policy: the last N, anything younger than the age, within
// the byte budget; the last version and the protected ones always stay.
func TestRetentionPrune(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		r       Retention
		n       int
		size    int64
		protect []int
		want    []int
	}{
		{"defaults: the last ten, and those younger than 30 days", (*Retention)(nil).resolve(), 40, 1, nil, seqs(versions(40, 1, now))[10:]},
		{"the last three", Retention{Versions: 3, Age: -1, Bytes: 1 << 30}.resolved(), 6, 1, nil, []int{4, 5, 6}},
		{"younger than two days", Retention{Versions: -1, Age: 36 * time.Hour, Bytes: 1 << 30}.resolved(), 6, 1, nil, []int{5, 6}},
		{"the byte budget drops the oldest", Retention{Versions: 5, Age: -1, Bytes: 250}.resolved(), 5, 100, nil, []int{4, 5}},
		{"the last version stays over any budget", Retention{Versions: 5, Age: -1, Bytes: 1}.resolved(), 5, 100, nil, []int{5}},
		{"a protected version stays", Retention{Versions: 1, Age: -1, Bytes: 1}.resolved(), 6, 100, []int{2}, []int{2, 6}},
		{"none kept but the last", Retention{Versions: -1, Age: -1}.resolved(), 4, 1, nil, []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			protect := map[string]bool{}
			for _, p := range tc.protect {
				protect[fpOf(p)] = true
			}
			got := seqs(tc.r.prune(versions(tc.n, tc.size, now), protect, now))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("kept %v, want %v", got, tc.want)
			}
		})
	}
}

// The same files twice count once against the budget.
func TestRetentionCountsAnArchiveOnce(t *testing.T) {
	now := time.Now()
	vs := versions(3, 100, now)
	vs[0].Fingerprint = fpOf(3) // version 1 and 3: the same files (a rollback)
	got := Retention{Versions: 3, Age: -1, Bytes: 200}.resolved().prune(vs, nil, now)
	if fmt.Sprint(seqs(got)) != "[1 2 3]" {
		t.Fatalf("kept %v", seqs(got))
	}
}

// resolved is resolve on a value, for the table.
func (r Retention) resolved() Retention { return r.resolve() }

func TestPickVersion(t *testing.T) {
	vs := []Version{
		{Seq: 1, Fingerprint: "sha256:aaaaaaa1" + strings.Repeat("0", 56)},
		{Seq: 2, Fingerprint: "sha256:aaaaaaa2" + strings.Repeat("0", 56)},
		{Seq: 3, Fingerprint: "sha256:aaaaaaa1" + strings.Repeat("0", 56)},
		{Seq: 4, Fingerprint: "sha256:bbbbbbbb" + strings.Repeat("0", 56), Current: true},
	}
	for _, tc := range []struct {
		which string
		want  int // Seq; 0: ErrNoVersion
	}{
		{"", 3},
		{"2", 2},
		{"9", 0},
		{"aaaaaaa2", 2},
		{"sha256:aaaaaaa1", 3}, // the newest of the same files
		{"AAAAAAA1", 3},
		{"aaaaaaa", 0}, // several
		{"aaaa", 0},    // too short
		{"xyzxyzxyz", 0},
		{"cccccccc", 0},
	} {
		v, err := PickVersion(vs, tc.which)
		if tc.want == 0 {
			if !errors.Is(err, ErrNoVersion) {
				t.Errorf("%q: %+v, %v; want ErrNoVersion", tc.which, v, err)
			}
			continue
		}
		if err != nil || v.Seq != tc.want {
			t.Errorf("%q: version %d, %v; want %d", tc.which, v.Seq, err, tc.want)
		}
	}
	// An uninstalled skill (nothing current): the newest.
	vs[3].Current = false
	if v, err := PickVersion(vs, ""); err != nil || v.Seq != 4 {
		t.Errorf("no current version: %d, %v", v.Seq, err)
	}
	if _, err := PickVersion(vs[3:], "4"); err != nil {
		t.Error(err)
	}
	vs[3].Current = true
	if _, err := PickVersion(vs[3:], ""); !errors.Is(err, ErrNoVersion) {
		t.Errorf("only the current version: %v", err)
	}
}

// The log is read back as written; anything else is refused, never
// half-read.
func TestParseHistoryLog(t *testing.T) {
	good := fmt.Sprintf(`{"format":1,"next":3,"versions":[{"seq":1,"op":"install","fingerprint":%q,"bytes":5},{"seq":2,"op":"update","fingerprint":%q,"bytes":0}]}`, fpOf(1), fpOf(2))
	if l, err := parseHistoryLog([]byte(good)); err != nil || len(l.Versions) != 2 || l.Next != 3 {
		t.Fatalf("%+v, %v", l, err)
	}
	for _, bad := range []string{
		``, `[]`, `{"format":2,"next":1}`,
		`{"format":1,"next":2,"versions":[{"seq":1,"fingerprint":"sha256:zz"}]}`,
		fmt.Sprintf(`{"format":1,"next":3,"versions":[{"seq":2,"fingerprint":%q},{"seq":1,"fingerprint":%q}]}`, fpOf(1), fpOf(2)),
		fmt.Sprintf(`{"format":1,"next":1,"versions":[{"seq":1,"fingerprint":%q}]}`, fpOf(1)),
	} {
		if _, err := parseHistoryLog([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// FuzzParseHistoryLog: a log is untrusted input (anyone who can write the
// folder writes it); whatever it holds, the parse refuses it or returns
// versions in order with valid fingerprints, and never panics.
func FuzzParseHistoryLog(f *testing.F) {
	f.Add([]byte(fmt.Sprintf(`{"format":1,"next":2,"versions":[{"seq":1,"op":"install","fingerprint":%q}]}`, fpOf(7))))
	f.Add([]byte(`{"format":1,"next":1,"versions":null}`))
	f.Add([]byte(`{"format":1,"next":-5,"versions":[{"seq":-1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := parseHistoryLog(data)
		if err != nil {
			return
		}
		last := 0
		for _, v := range l.Versions {
			if v.Seq <= last || !strings.HasPrefix(v.Fingerprint, "sha256:") {
				t.Fatalf("accepted %+v", v)
			}
			last = v.Seq
		}
		if l.Next <= last {
			t.Fatalf("next %d after %d", l.Next, last)
		}
		if _, err := PickVersion(l.Versions, ""); err != nil && !errors.Is(err, ErrNoVersion) {
			t.Fatal(err)
		}
	})
}
