package prompt

import "testing"

func TestSubstituteArguments(t *testing.T) {
	for _, c := range []struct{ body, args, want string }{
		{"Fix issue $ARGUMENTS now.", "#42 in the parser", "Fix issue #42 in the parser now."},
		{"Migrate $0 from $1 to $2.", `SearchBar React "Vue 3"`, "Migrate SearchBar from React to Vue 3."},
		{"Migrate $ARGUMENTS[0] to $ARGUMENTS[1].", "a b", "Migrate a to b."},
		{"Only $0 and $3.", "one two", "Only one and $3."},
		{"Missing $ARGUMENTS[5] stays.", "x", "Missing $ARGUMENTS[5] stays."},
		{"Costs $5 and $ alone.", "a b c d e f", "Costs f and $ alone."},
		{"Costs $5.", "a", "Costs $5.\n\nARGUMENTS: a\n"},
		{"No placeholder.\n", "review main.go", "No placeholder.\n\nARGUMENTS: review main.go\n"},
		{"Raw: $ARGUMENTS", `it's "quoted"`, `Raw: it's "quoted"`},
		{"$0|$1", `'a b' c\ d`, "a b|c d"},
		{"中文 $0。", "参数", "中文 参数。"},
	} {
		if got := substituteArguments(c.body, c.args); got != c.want {
			t.Errorf("%q with %q:\n got %q\nwant %q", c.body, c.args, got, c.want)
		}
	}
}

func FuzzSubstituteArguments(f *testing.F) {
	f.Add("Fix $ARGUMENTS[0] and $1 $ARGUMENTS", `a "b c" d`)
	f.Fuzz(func(t *testing.T, body, args string) {
		if args == "" {
			return
		}
		out := substituteArguments(body, args)
		if len(out) > len(body)*(len(args)+1)+len(args)+16 {
			t.Fatalf("output of %d bytes from %d and %d", len(out), len(body), len(args))
		}
	})
}
