package deps

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValidateNpmPackage(t *testing.T) {
	good := []string{"pptxgenjs", "left-pad", "@scope/pkg", "@types/node@20.1.0", "lodash@^4.17.21", "a@>=1.0.0<2", "x@latest", "react-dom@18.x", "a.b_c", "0x"}
	bad := []string{
		"", "a;b", "a b", "-a", "--registry=http://evil", "https://example.com/x.tgz", "http://x", "git+https://github.com/a/b",
		"github:a/b", "a/b", "../x", "./x", "/abs/x", "..", ".hidden", "_x", "file:x", "Upper", "@scope/-x", "@-s/x", "@scope/../x",
		"a@1.0.0;rm", "a@1 || 2", "a@$(id)", "a\nb", "a@1.0.0 ", "@/x", "@scope/", strings.Repeat("a", MaxPackageNameLength+1),
	}
	for _, p := range good {
		if err := ValidateNpmPackage(p); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
	for _, p := range bad {
		if err := ValidateNpmPackage(p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q accepted (err %v)", p, err)
		}
	}
}

func TestValidatePythonRequirement(t *testing.T) {
	good := []string{"requests", "httpx>=0.27", "Pillow", "pkg[extra]==1.0", "pkg[a,b]~=2.1", "a===1", "numpy!=1.0", "zope.interface", "x_y-z<3"}
	bad := []string{
		"", "a;b", "a; python_version<'3.8'", "a b", "-r other.txt", "--index-url=http://evil", "-e .", "http://x/y.whl",
		"git+https://github.com/a/b", "./pkg", "/abs/pkg", "../pkg", "a==1 ; x", "a>=1,<2", "a @ https://x", ".x", "_x", "a\n", "a==$(id)",
		strings.Repeat("a", MaxPackageNameLength+1),
	}
	for _, p := range good {
		if err := ValidatePythonRequirement(p); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
	for _, p := range bad {
		if err := ValidatePythonRequirement(p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q accepted (err %v)", p, err)
		}
	}
}

func TestParseRequirements(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	got, err := ParseRequirements([]byte("\uFEFF# comment\r\nrequests==2.31  # pinned\n\n  httpx>=0.27\nnumpy --hash=sha256:" + hash + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"requests==2.31", "httpx>=0.27", "numpy --hash=sha256:" + hash}
	for _, digits := range []int{32, 128} {
		line := "numpy --hash=sha512:" + strings.Repeat("0", digits)
		if got, err := ParseRequirements([]byte(line)); err != nil || len(got) != 1 || got[0] != line {
			t.Errorf("a hash of %d digits: %q, %v", digits, got, err)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, text := range []string{
		"-r other.txt\n", "--index-url http://evil\n", "--extra-index-url=http://evil\n", "-e git+https://x\n", "--trusted-host evil\n",
		"https://example.com/x.whl\n", "./local/pkg\n", "pkg ; sys_platform == 'linux'\n", "pkg \\\n  >=1\n", "pkg --hash=md5:abc\n",
		"pkg --hash=sha256:" + strings.Repeat("0", 31) + "\n", "pkg --hash=sha256:" + strings.Repeat("0", 129) + "\n", "pkg --hash=sha256:" + strings.Repeat("A", 64) + "\n",
		"pkg --no-deps\n", "pkg==1#x\n", "\xff\n", strings.Repeat("a\n", MaxRequirements+1), strings.Repeat("#", MaxRequirementsBytes+1),
	} {
		if _, err := ParseRequirements([]byte(text)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%.40q accepted (err %v)", text, err)
		}
	}
}

func TestSplitCheckCommand(t *testing.T) {
	for in, want := range map[string][]string{
		"ffmpeg -version":             {"ffmpeg", "-version"},
		"  soffice\t--version ":       {"soffice", "--version"},
		"bash /opt/x.sh":              {"bash", "/opt/x.sh"},
		"python3 -m pip --version":    {"python3", "-m", "pip", "--version"},
		"tool --format=json a,b+c@d%": {"tool", "--format=json", "a,b+c@d%"},
	} {
		got, err := SplitCheckCommand(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: got %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", "   ", "ffmpeg; rm -rf /", "a | b", "a && b", "a || b", "$(id)", "`id`", "a > /tmp/x", "a < x", "'a'", `"a"`, `a\ b`,
		"a\nb", "a\rb", "-x", "--version", "echo ~", "ls *", "a?", "a[1]", "a{b}", "(a)", "a #c", "!a", "a\x00", "ffmpeg -version\u00a0x",
		"é", strings.Repeat("a ", MaxCheckCommandArgs+1), strings.Repeat("a", MaxCheckCommandLength+1),
		"/usr/bin/convert -version", "./check.sh", "scripts/check.sh --ok", "../x", "C:tool", "tools/bin/x",
	} {
		if got, err := SplitCheckCommand(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q accepted as %q (err %v)", in, got, err)
		}
	}
}

// shellMeta are the characters a check command must never carry into an
// argument; npm packages and Python requirements may use a few of them in
// their version part (< > | * ~ ^ = !), never the rest (argMeta).
const (
	shellMeta = ";|&$<>`'\"\\*?[]{}()~#!\n\r\t\x00 "
	argMeta   = ";&$`'\"\\?{}()#\n\r\t\x00 :"
)

func FuzzValidateNpmPackage(f *testing.F) {
	for _, s := range []string{"pptxgenjs", "@scope/pkg@1.2.3", "-a", "a;b", "https://x/y.tgz", "../x", "@s/x@^1 || 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidateNpmPackage(s) != nil {
			return
		}
		if strings.ContainsAny(s, argMeta+"[]!") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, ".") {
			t.Fatalf("accepted %q", s)
		}
		// The name (before the version) is a name, never a path.
		name := s
		if strings.HasPrefix(name, "@") {
			_, name, _ = strings.Cut(name, "/")
		}
		name, _, _ = strings.Cut(name, "@")
		if name == "" || strings.ContainsAny(name, "/<>|*~^=") || name[0] == '.' || name[0] == '-' || name[0] == '_' {
			t.Fatalf("accepted %q with name %q", s, name)
		}
		if len(s) > MaxPackageNameLength || s != strings.ToLower(s) {
			t.Fatalf("accepted %q", s)
		}
	})
}

func FuzzValidatePythonRequirement(f *testing.F) {
	for _, s := range []string{"httpx>=0.27", "pkg[a,b]==1", "-r x", "a; b", "git+https://x", "./p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidatePythonRequirement(s) != nil {
			return
		}
		if strings.ContainsAny(s, argMeta+"/@|") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, ".") || len(s) > MaxPackageNameLength {
			t.Fatalf("accepted %q", s)
		}
		// What pip reads as a requirement line is exactly what was checked.
		got, err := ParseRequirements([]byte(s + "\n"))
		if err != nil || len(got) != 1 || got[0] != s {
			t.Fatalf("%q valid alone but read from a file as %q, %v", s, got, err)
		}
	})
}

func FuzzParseRequirements(f *testing.F) {
	for _, s := range []string{"requests\n# c\nhttpx>=1 --hash=sha256:" + strings.Repeat("0", 64) + "\n", "-r x\n", "a \\\nb\n", "a #x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseRequirements(data)
		if err != nil {
			return
		}
		for _, l := range lines {
			words := strings.Fields(l)
			if len(words) == 0 || ValidatePythonRequirement(words[0]) != nil {
				t.Fatalf("line %q: not a valid requirement", l)
			}
			for _, w := range words[1:] {
				if !strings.HasPrefix(w, "--hash=") {
					t.Fatalf("line %q carries %q", l, w)
				}
			}
		}
	})
}

func FuzzSplitCheckCommand(f *testing.F) {
	for _, s := range []string{"ffmpeg -version", "a; b", "$(id)", "soffice --version", "-x", "a\tb  c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv, err := SplitCheckCommand(s)
		if err != nil {
			return
		}
		if len(argv) == 0 || len(argv) > MaxCheckCommandArgs || strings.HasPrefix(argv[0], "-") || strings.ContainsAny(argv[0], `/\:`) || !utf8.ValidString(s) {
			t.Fatalf("%q split into %q", s, argv)
		}
		for _, a := range argv {
			if a == "" || strings.ContainsAny(a, shellMeta) {
				t.Fatalf("%q: argument %q holds a shell character", s, a)
			}
		}
		// The words are the command's, nothing added or lost.
		if strings.Join(argv, " ") != strings.Join(strings.Fields(s), " ") {
			t.Fatalf("%q split into %q", s, argv)
		}
	})
}
