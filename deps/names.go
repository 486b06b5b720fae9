package deps

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// Limits of the dependency declarations [Installer.Install] reads.
const (
	// MaxPackageNameLength bounds one npm package or Python requirement,
	// version included (npm's own limit for a name is 214).
	MaxPackageNameLength = 214
	// MaxCheckCommandLength bounds a system dependency's check command.
	MaxCheckCommandLength = 512
	// MaxCheckCommandArgs bounds the words of a check command.
	MaxCheckCommandArgs = 32
	// MaxRequirementsBytes bounds a requirements file.
	MaxRequirementsBytes = 256 << 10
	// MaxRequirements bounds the requirements (or npm packages) of one
	// skill.
	MaxRequirements = 500
)

// The install-name patterns (after OpenClaw's): an npm package with
// an optional scope and version, and a Python requirement with optional
// extras and one version clause.
var (
	npmPackageRE = lazyregexp.New(`^(@[a-z0-9._-]+/)?[a-z0-9._-]+(@[a-z0-9^~>=<.*|-]+)?$`)
	pyRequireRE  = lazyregexp.New(`(?i)^[a-z0-9][a-z0-9._-]*(\[[a-z0-9,._-]+\])?(([><=!~]=?|===?)[a-z0-9.*_-]+)?$`)
	pipHashRE    = lazyregexp.New(`^--hash=(?:sha256|sha384|sha512):([0-9a-f]+)$`)
)

// ValidateNpmPackage checks an npm package as a skill declares it in
// dependencies.node.packages or a frontmatter install spec of kind node:
// the pattern ^(@scope/)?name(@version)?$ in lower case, at most
// MaxPackageNameLength bytes, and a name that starts with a letter or digit
// (never "-", which npm would read as an option, nor "." or "_", which npm
// refuses, nor "..", which npm would read as a folder). URLs, paths, git
// specs, spaces and shell characters cannot match. The error wraps
// [ErrInvalid].
func ValidateNpmPackage(pkg string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: npm package %q %s", ErrInvalid, pkg, why)
	}
	switch {
	case pkg == "":
		return bad("is empty")
	case len(pkg) > MaxPackageNameLength:
		return bad(fmt.Sprintf("is longer than %d bytes", MaxPackageNameLength))
	case !npmPackageRE().MatchString(pkg):
		return bad("does not match ^(@scope/)?name(@version)?$ (lower-case letters, digits and . _ -; a version of digits, letters and ^ ~ > = < . * | -); URLs, paths and git specs are not allowed")
	}
	name := pkg
	if strings.HasPrefix(name, "@") {
		scope, rest, _ := strings.Cut(name[1:], "/")
		if !startsAlnum(scope) {
			return bad("has a scope that does not start with a letter or digit")
		}
		name = rest
	}
	name, _, _ = strings.Cut(name, "@")
	if !startsAlnum(name) {
		return bad("does not start with a letter or digit")
	}
	return nil
}

// ValidatePythonRequirement checks one Python requirement as a skill
// declares it inline, in a requirements file or in a frontmatter install
// spec of kind uv: the pattern (a name, optional [extras], at most
// one version clause such as ">=1.2"), case-insensitive, at most
// MaxPackageNameLength bytes. Environment markers (";"), URLs, paths,
// options ("-r", "--index-url") and spaces cannot match. The error wraps
// [ErrInvalid].
func ValidatePythonRequirement(req string) error {
	switch {
	case req == "":
		return fmt.Errorf("%w: empty Python requirement", ErrInvalid)
	case len(req) > MaxPackageNameLength:
		return fmt.Errorf("%w: Python requirement %q is longer than %d bytes", ErrInvalid, req, MaxPackageNameLength)
	case !pyRequireRE().MatchString(req):
		return fmt.Errorf("%w: Python requirement %q does not match name[extras](op version), e.g. httpx>=0.27 or pillow; markers, URLs, paths and options are not allowed", ErrInvalid, req)
	}
	return nil
}

// ParseRequirements reads a requirements file as [Installer.Install]
// accepts it and returns its lines, each a requirement that
// [ValidatePythonRequirement] accepts, optionally followed by pip's
// --hash=ALGO:HEX options. Blank lines and comments ("#" at the start or
// after a blank) are dropped. Anything else pip would read — options such
// as -r, -e, --index-url or --trusted-host, URLs, paths, environment
// markers, line continuations — is refused with the line number, since it
// would change where pip fetches from or what it runs. The error wraps
// [ErrInvalid].
func ParseRequirements(data []byte) ([]string, error) {
	if len(data) > MaxRequirementsBytes {
		return nil, fmt.Errorf("%w: the requirements file is over %d bytes", ErrInvalid, MaxRequirementsBytes)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: the requirements file is not UTF-8", ErrInvalid)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxRequirementsBytes+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if i := commentStart(line); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			return nil, fmt.Errorf("%w: requirements line %d continues on the next line; write each requirement on one line", ErrInvalid, n)
		}
		words := strings.Fields(line)
		if err := ValidatePythonRequirement(words[0]); err != nil {
			return nil, fmt.Errorf("requirements line %d: %w", n, err)
		}
		for _, w := range words[1:] {
			if !validPipHash(w) {
				return nil, fmt.Errorf("%w: requirements line %d: %q is not allowed after a requirement (only --hash=sha256:HEX)", ErrInvalid, n, w)
			}
		}
		if len(out) == MaxRequirements {
			return nil, fmt.Errorf("%w: more than %d requirements", ErrInvalid, MaxRequirements)
		}
		out = append(out, strings.Join(words, " "))
	}
	return out, sc.Err()
}

// commentStart returns where a pip comment starts: a "#" at the start of
// the line or after a blank; -1 for none.
func commentStart(line string) int {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// SplitCheckCommand splits a system dependency's check command (such as
// "ffmpeg -version") into a program and its arguments, which run without a
// shell. Words are separated by spaces and tabs; a word holds only ASCII
// letters, digits and - _ . / : = , + @ %. Every shell metacharacter
// (; | & $ < > ` ' " \ * ? [ ] { } ( ) ~ # !), newlines and other control
// characters are refused rather than interpreted, and so is quoting: a
// check is one program with plain arguments. The program must be a bare
// name, looked up on PATH: no "/", backslash or ":" (no path, no program the
// skill ships), and not starting with "-". At most MaxCheckCommandLength
// bytes and MaxCheckCommandArgs words. The error wraps
// [ErrInvalid].
func SplitCheckCommand(check string) ([]string, error) {
	bad := func(format string, args ...any) ([]string, error) {
		return nil, fmt.Errorf("%w: check command %q: %s", ErrInvalid, check, fmt.Sprintf(format, args...))
	}
	if len(check) > MaxCheckCommandLength {
		return bad("longer than %d bytes", MaxCheckCommandLength)
	}
	for i, r := range check {
		if r == ' ' || r == '\t' || isCheckChar(r) {
			continue
		}
		if r == utf8.RuneError {
			return bad("not valid UTF-8 at byte %d", i)
		}
		return bad("%q at byte %d is not allowed: the check runs without a shell, so it must be a program and plain arguments (letters, digits, - _ . / : = , + @ %%)", r, i)
	}
	words := strings.FieldsFunc(check, func(r rune) bool { return r == ' ' || r == '\t' })
	switch {
	case len(words) == 0:
		return bad("empty")
	case len(words) > MaxCheckCommandArgs:
		return bad("more than %d words", MaxCheckCommandArgs)
	case strings.HasPrefix(words[0], "-"):
		return bad("the program starts with \"-\"")
	case strings.ContainsAny(words[0], `/\:`):
		return bad("the program must be a bare name found on PATH, not a path")
	}
	return words, nil
}

func isCheckChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r)
}

func startsAlnum(s string) bool {
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= '0' && s[0] <= '9')
}

// validPipHash: --hash=ALGORITHM:HEX with 32 to 128 hex digits. The length
// is checked apart from pipHashRE, where {32,128} would compile to 128
// copies at program start.
func validPipHash(w string) bool {
	m := pipHashRE().FindStringSubmatch(w)
	return m != nil && len(m[1]) >= 32 && len(m[1]) <= 128
}
