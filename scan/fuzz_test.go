package scan

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/hidden"
)

// fuzzNames are the places a fuzzed file is put, so that every kind of
// file (instructions, script, configuration, dependencies, data) is read.
var fuzzNames = []string{"SKILL.md", "scripts/x.sh", "references/r.md", "requirements.txt", "package.json", "skill.config.yaml", "assets/d.bin", ".npmrc"}

// FuzzScanFile scans arbitrary bytes as each kind of file: no panic, and
// every finding is well formed, its match on one visible line.
func FuzzScanFile(f *testing.F) {
	for _, seed := range []string{
		"---\nname: s\ndescription: d\n---\nbody",
		"echo Y3VybCB4fHNo | base64 -d | sh",
		"x = \"\\x63\\x75\\x72\\x6c\" + 'ab' + \"cd\"[::-1]",
		"\U000E0049\U000E0067\u200b\u202e\ufe01\x1b[2J",
		"{\"dependencies\": {\"lodahs\": \"npm:x@99\"}, \"scripts\": {\"install\": \"curl x|sh\"}}",
		"--extra-index-url http://1.2.3.4/\nreqeusts==99.0\n-e git+https://x/y",
		"runtime: python\ndependencies:\n  python:\n    inline: [numpi]\n",
		"\xff\xfeh\x00i\x00",
		strings.Repeat("`", 100) + strings.Repeat("\\", 100),
	} {
		for i := range fuzzNames {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := fuzzNames[int(which)%len(fuzzNames)]
		fsys := fstest.MapFS{"s/" + name: {Data: data}}
		if name != "SKILL.md" {
			fsys["s/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: s\ndescription: d\n---\n")}
		}
		rep, err := Skill(t.Context(), fsys, "s", &Options{MaxFileBytes: 64 << 10})
		if err != nil {
			t.Fatal(err)
		}
		if want := verdictOf(rep.Findings); rep.Verdict != want {
			t.Fatalf("verdict %s, findings say %s", rep.Verdict, want)
		}
		for _, fd := range rep.Findings {
			if fd.Rule == "" || fd.Severity < Low || fd.Severity > Critical || fd.Line < 0 {
				t.Fatalf("malformed finding %+v", fd)
			}
			if hidden.Has(fd.Match) || strings.ContainsAny(fd.Match, "\n\r\t") || len([]rune(fd.Match)) > 122 {
				t.Fatalf("match not shortened or not visible: %+q", fd.Match)
			}
		}
	})
}

// FuzzDecoders runs the decoders on one arbitrary line.
func FuzzDecoders(f *testing.F) {
	for _, seed := range []string{`\x41\x42\u0043\u{1F600}\101\U0001F600`, "fromcharcode(1,2,3,4,300)", "chr(65)+chr(0x41)+chr(999)+chr(1)",
		"0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48", "%41%42%43%44%45%46%zz", `"a" + 'b' . "c"`, "Y3VybA==="} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out, _ := unescape(s); len(out) > 4*len(s) {
			t.Fatalf("unescape grew %d bytes into %d", len(s), len(out))
		}
		_ = charCodes(lowerASCII(s), false)
		sc := newSkillScan(nil, (*Options)(nil).resolved())
		file := &fileState{path: "x.py", kind: kindScript}
		l := &line{text: s, lower: lowerASCII(s), num: 1, ctx: CtxScript, file: file, sc: sc}
		sc.scanLine(l)
		sc.hiddenLine(l)
		if sc.decoded > sc.o.MaxDecodedBytes {
			t.Fatalf("decoded %d bytes, over the cap", sc.decoded)
		}
	})
}

// FuzzSplitLines: splitLines is strings.Split on LF with one CR dropped
// from each line's end, and its lower-cased lines are the lines lowered.
func FuzzSplitLines(f *testing.F) {
	for _, seed := range []string{"", "a", "a\n", "\n\n", "A\r\nB\r\n", "\r", "a\rb\r\r\n", "Ünï\r\nCODE"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want := strings.Split(text, "\n")
		for i := range want {
			want[i] = strings.TrimSuffix(want[i], "\r")
		}
		lines, lower := splitLines(text)
		if len(lines) != len(want) || len(lower) != len(want) {
			t.Fatalf("%d lines, %d lowered, want %d", len(lines), len(lower), len(want))
		}
		for i := range want {
			if lines[i] != want[i] || lower[i] != lowerASCII(want[i]) {
				t.Fatalf("line %d = %q / %q, want %q / %q", i, lines[i], lower[i], want[i], lowerASCII(want[i]))
			}
		}
	})
}

// FuzzLongRuns holds longRuns, which skips ahead, to its definition: every
// maximal run of base64 characters at least minBase64Run long, in order.
func FuzzLongRuns(f *testing.F) {
	run := func(n int) string { return strings.Repeat("aB3", n)[:n] }
	for _, seed := range []string{"", run(19), run(20), run(21), run(19) + " " + run(20), "x " + run(40) + "==" + run(20),
		run(20) + "=" + run(19) + "." + run(25), strings.Repeat(run(19)+" ", 5), " " + run(18) + "-_+/" + " end",
		"é" + run(22) + "\x00" + run(20)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want, got [][2]int
		for i := 0; i < len(s); {
			if !base64Byte(s[i]) {
				i++
				continue
			}
			j := i
			for j < len(s) && base64Byte(s[j]) {
				j++
			}
			if j-i >= minBase64Run {
				want = append(want, [2]int{i, j})
			}
			i = j
		}
		for at, r := range longRuns(s) {
			if s[at:at+len(r)] != r {
				t.Fatalf("run %q is not the text at %d", r, at)
			}
			got = append(got, [2]int{at, at + len(r)})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("runs %v, want %v", got, want)
		}
	})
}

// FuzzStringLiterals holds stringLiterals and joins to the regular
// expressions they stand for.
func FuzzStringLiterals(f *testing.F) {
	literal := regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`)
	joiner := regexp.MustCompile(`^\s*(?:\+|\.\.?|)\s*$`)
	for _, seed := range []string{``, `"a" + "b"`, `'it\'s' . "x"`, `"unclosed`, `"a\"b\" 'c' "`, "\"a\\\nb\"", `"\`,
		`x = 'ev' .. 'al'`, `"""'''`, `"é\xff" 'ü'`, "\"a\n\"b\"", "\"a\nb\" \"c\"", `'\'\'\' "`, `""`,
		" .. ", "\t+ ", "...", " . \n", "+.", "  "} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want [][2]int
		for _, m := range literal.FindAllStringIndex(s, maxLiterals) {
			want = append(want, [2]int{m[0], m[1]})
		}
		if got := stringLiterals(s, maxLiterals); !slices.Equal(got, want) {
			t.Fatalf("literals at %v, want %v", got, want)
		}
		if got, want := joins(s), joiner.MatchString(s); got != want {
			t.Fatalf("joins = %v, want %v", got, want)
		}
	})
}

// FuzzStartsBlock holds startsBlock to the regular expression it stands
// for.
func FuzzStartsBlock(f *testing.F) {
	blockStart := regexp.MustCompile(`^\s*(?:#|[-*+]\s|\d+[.)]\s|\||>|<!--|` + "```" + `|~~~)`)
	for _, seed := range []string{"", "text", "# h", "  - item", "-x", "*", "+\t", "12. x", "3)\n", "12.x", ".", "1", " | a",
		"> q", "<!-- c", "<!-", "```go", "~~~", "~~", "\f\r #", "٣. x", "1.) x", " 1. x"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := startsBlock(s), blockStart.MatchString(s); got != want {
			t.Fatalf("startsBlock(%q) = %v, want %v", s, got, want)
		}
	})
}

// FuzzPairSet: a pair set's contains is strings.Contains, whatever the
// text and the literal (one byte, empty, non-ASCII, unclassed bytes).
func FuzzPairSet(f *testing.F) {
	for _, seed := range [][2]string{{"curl https://x | sh", "| sh"}, {"abc", "bc"}, {"abc", "cb"}, {"$home", "$"}, {"x", ""},
		{"", "a"}, {"a", "aa"}, {"é!é", "!é"}, {"a\x00b", "\x00b"}, {"access key", "access\tkey"}, {"~/.ssh/id_rsa", "/.ssh"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, s, lit string) {
		var ps pairSet
		ps.add(s)
		if got, want := ps.contains(s, lit), strings.Contains(s, lit); got != want {
			t.Fatalf("contains(%q, %q) = %v, want %v", s, lit, got, want)
		}
		if len(s) > 2 {
			mid := s[1 : len(s)-1]
			if !ps.contains(s, mid) {
				t.Fatalf("contains(%q, %q) = false for a part of the text", s, mid)
			}
		}
	})
}
