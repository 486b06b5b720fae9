package scan

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Decoding limits.
const (
	minBase64Run  = 20   // shortest base64 run decoded (15 bytes)
	minHexRun     = 32   // shortest hex run decoded (16 bytes)
	longBase64Run = 1000 // an encoded-blob finding from here
	longHexRun    = 512
	maxInflated   = 1 << 20 // what a compressed blob may inflate to
	minEscapes    = 4       // \x, \u or octal escapes on a line before it is unescaped
)

const ruleEncodedBlob = "encoded-blob"

// decodeLine finds the encodings a line holds and scans what they decode
// to: base64 (and gzip or zlib inside it), hex, escape sequences,
// percent-encoding, character codes, strings split and joined, reversed or
// rot13. What decodes to binary is checked for executables and otherwise
// ignored.
func (sc *skillScan) decodeLine(l *line) {
	sc.decodeRuns(l)
	if strings.IndexByte(l.text, '\\') >= 0 {
		if n := strings.Count(l.text, `\x`) + strings.Count(l.text, `\u`) + len(octalEscape().FindAllStringIndex(l.text, minEscapes)); n >= minEscapes {
			if t, ok := unescape(l.text); ok && t != l.text {
				sc.scanDecoded(l, t, "escape sequences")
			}
		}
	}
	if strings.Count(l.text, "%") >= 6 {
		if t, err := url.PathUnescape(l.text); err == nil && t != l.text && printable([]byte(t)) {
			sc.scanDecoded(l, t, "percent-encoding")
		}
	}
	if t := charCodes(l.lower, sc.rules.unfiltered); t != "" {
		sc.scanDecoded(l, t, "character codes")
	}
	if codeContext(l.ctx) && strings.ContainsAny(l.text, `"'`) {
		sc.decodeLiterals(l)
	}
}

// decodeRuns decodes runs of base64 and hex characters.
func (sc *skillScan) decodeRuns(l *line) {
	for at, run := range longRuns(l.text) {
		if len(run) >= minHexRun && isHex(run) {
			sc.decodedHex(l, at, run)
		} else if mixed(run) {
			sc.decodedBase64(l, at, run)
		}
	}
}

// longRuns yields the runs of base64 characters (hex digits are some)
// at least minBase64Run long, with their offsets: shorter ones decode to
// nothing worth scanning. It looks at the byte minBase64Run-1 ahead of
// where a run could start first: in prose and code that byte usually ends
// a word, and then none of the bytes before it can start a long run.
func longRuns(t string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		// i is where a run may start: at 0 or after a byte outside base64.
		for i := 0; i+minBase64Run <= len(t); {
			k := i + minBase64Run - 1
			if !base64Byte(t[k]) {
				i = k + 1
				continue
			}
			m := k - 1
			for m >= i && base64Byte(t[m]) {
				m--
			}
			if m >= i {
				i = m + 1
				continue
			}
			j := k + 1
			for j < len(t) && base64Byte(t[j]) {
				j++
			}
			if !yield(i, t[i:j]) {
				return
			}
			i = j
		}
	}
}

func (sc *skillScan) decodedBase64(l *line, at int, run string) {
	dataURI := at >= 8 && strings.EqualFold(l.text[at-8:at], ";base64,")
	if len(run) >= longBase64Run && !dataURI && blobContext(l.ctx) {
		sc.add(Finding{Rule: ruleEncodedBlob, Severity: Medium, File: l.file.path, Line: l.lineAt(at), Context: l.ctx,
			Match: snippet(l.text, at, at+40), Message: fmt.Sprintf("a %d-character base64 blob, which a reader cannot review", len(run))})
	}
	raw := strings.TrimRight(run, "=")
	var data []byte
	var err error
	if strings.ContainsAny(raw, "-_") {
		data, err = base64.RawURLEncoding.DecodeString(raw[:len(raw)/4*4+rem(len(raw))])
	} else {
		data, err = base64.RawStdEncoding.DecodeString(raw[:len(raw)/4*4+rem(len(raw))])
	}
	if err != nil || len(data) == 0 {
		return
	}
	sc.decodedBytes(l, at, data, "base64")
}

// rem is how much of a run's last incomplete quantum can be decoded: 1
// leftover character cannot.
func rem(n int) int {
	if n%4 == 1 {
		return 0
	}
	return n % 4
}

func (sc *skillScan) decodedHex(l *line, at int, run string) {
	if len(run) >= longHexRun && blobContext(l.ctx) {
		sc.add(Finding{Rule: ruleEncodedBlob, Severity: Medium, File: l.file.path, Line: l.lineAt(at), Context: l.ctx,
			Match: snippet(l.text, at, at+40), Message: fmt.Sprintf("a %d-digit hex blob, which a reader cannot review", len(run))})
	}
	data, err := hex.DecodeString(run[:len(run)/2*2])
	if err != nil {
		return
	}
	sc.decodedBytes(l, at, data, "hex")
}

// decodedBytes scans decoded bytes: text is scanned, compressed data is
// inflated first, an executable is a finding.
func (sc *skillScan) decodedBytes(l *line, at int, data []byte, encoding string) {
	switch {
	case printable(data):
		sc.scanDecoded(l, string(data), encoding)
	case utf16LE(data):
		sc.scanDecoded(l, decodeUTF16(data, false), encoding+" → UTF-16")
	case len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b:
		if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
			sc.inflated(l, at, zr, encoding+" → gzip")
		}
	case len(data) > 2 && data[0] == 0x78 && (data[1] == 0x9c || data[1] == 0x01 || data[1] == 0xda || data[1] == 0x5e):
		if zr, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
			sc.inflated(l, at, zr, encoding+" → zlib")
		}
	default:
		if what := executableMagic(data); what != "" {
			sc.add(Finding{Rule: ruleExecutable, Severity: Critical, File: l.file.path, Line: l.lineAt(at), Context: l.ctx,
				Match: snippet(l.text, at, at+40), Message: fmt.Sprintf("an executable (%s) hidden in %s", what, encoding)})
		}
	}
}

func (sc *skillScan) inflated(l *line, at int, r io.Reader, encoding string) {
	data, err := io.ReadAll(io.LimitReader(r, maxInflated))
	if err != nil && len(data) == 0 {
		return
	}
	sc.decodedBytes(l, at, data, encoding)
}

// codeContext: where string literals are code, which may build a hidden
// string from pieces.
func codeContext(c Context) bool {
	switch c {
	case CtxScript, CtxConfig, CtxCode, CtxDocCode, CtxData:
		return true
	}
	return false
}

// utf16LE reports whether data looks like ASCII text in UTF-16LE, the
// way PowerShell's -EncodedCommand carries a script.
func utf16LE(data []byte) bool {
	if len(data) < 8 || len(data)%2 != 0 {
		return false
	}
	for i := 1; i < len(data); i += 2 {
		if data[i] != 0 || data[i-1] == 0 {
			return false
		}
	}
	return true
}

// blobContext: where a long encoded blob is worth a finding of its own.
// Data files and documents hold fixtures and images.
func blobContext(c Context) bool {
	switch c {
	case CtxScript, CtxConfig, CtxInstructions, CtxCode, CtxComment, CtxFrontmatter:
		return true
	}
	return false
}

func base64Byte(c byte) bool { return base64Bytes[c] }

// base64Bytes: a table, since longRuns asks of many bytes of a text.
var base64Bytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
	}
	return t
}()

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// mixed reports whether a run looks like base64 rather than a word or a
// path: upper and lower case, or digits; and not mostly slashes.
func mixed(s string) bool {
	var upper, lower, digit, slash bool
	slashes := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		case c == '/':
			slash = true
			slashes++
		}
	}
	if slash && slashes*8 > len(s) {
		return false // a path
	}
	return upper && lower || digit && (upper || lower)
}

// printable reports whether decoded bytes are text worth scanning: valid
// UTF-8, at least four characters, nearly all of them printable.
func printable(b []byte) bool {
	if len(b) < 4 || !utf8.Valid(b) {
		return false
	}
	n, bad := 0, 0
	for _, r := range string(b) {
		n++
		if !unicode.IsPrint(r) && r != '\n' && r != '\t' && r != '\r' {
			bad++
		}
	}
	return bad*20 <= n
}

var octalEscape = lazyRE(`\\[0-3][0-7]{2}`)

// unescape replaces \xNN, \uNNNN, \u{N...}, \UNNNNNNNN and octal escapes.
func unescape(s string) (string, bool) {
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		c := s[i+1]
		var digits, skip int
		switch {
		case c == 'x':
			digits, skip = 2, 2
		case c == 'u' && i+2 < len(s) && s[i+2] == '{':
			end := strings.IndexByte(s[i+3:], '}')
			if end > 0 && end <= 6 {
				if v, err := strconv.ParseUint(s[i+3:i+3+end], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					i += 3 + end
					changed = true
					continue
				}
			}
		case c == 'u':
			digits, skip = 4, 2
		case c == 'U':
			digits, skip = 8, 2
		case c >= '0' && c <= '3':
			if i+3 < len(s) && isOctal(s[i+1:i+4]) {
				v, _ := strconv.ParseUint(s[i+1:i+4], 8, 8)
				b.WriteByte(byte(v))
				i += 3
				changed = true
				continue
			}
		}
		if digits > 0 && i+skip+digits <= len(s) {
			if v, err := strconv.ParseUint(s[i+skip:i+skip+digits], 16, 32); err == nil {
				if digits == 2 {
					b.WriteByte(byte(v))
				} else if utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
				}
				i += skip + digits - 1
				changed = true
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), changed
}

func isOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

var (
	charCodeList = lazyRE(`(?:(?:fromcharcode|bytes|bytearray|string\.char)\s*\(|pack\s*\(\s*["']c\*["']\s*,)\s*\[?\s*((?:0x[0-9a-f]{1,2}|[0-9]{1,3})(?:\s*,\s*(?:0x[0-9a-f]{1,2}|[0-9]{1,3})){3,})`)
	charCodeCall = lazyRE(`(?:\bchr|\[char\]|\bchar)\s*\(?\s*(0x[0-9a-f]{1,2}|[0-9]{1,3})\s*\)?`)
	byteArray    = lazyRE(`(?:0x[0-9a-f]{2}\s*,\s*){7,}0x[0-9a-f]{2}`)
)

// charCodes decodes character codes on a lower-cased line: lists given to
// String.fromCharCode, bytes() or string.char, chains of chr() or [char],
// and arrays of 0xNN bytes. It returns "" when there are none. Each
// expression is tried only when the line holds what its matches need (see
// charCodeGates), unless ungated (for the tests, which compare).
func charCodes(lower string, ungated bool) string {
	g := codeGates{list: true, calls: true, bytes: true}
	if !ungated {
		g = charCodeGates(lower)
	}
	var out []string
	if g.list {
		for _, m := range charCodeList().FindAllStringSubmatch(lower, -1) {
			out = append(out, codesToText(strings.Split(m[1], ",")))
		}
	}
	if g.calls {
		if calls := charCodeCall().FindAllStringSubmatch(lower, -1); len(calls) >= minEscapes {
			codes := make([]string, len(calls))
			for i, c := range calls {
				codes[i] = c[1]
			}
			out = append(out, codesToText(codes))
		}
	}
	if g.bytes {
		for _, m := range byteArray().FindAllString(lower, -1) {
			out = append(out, codesToText(strings.Split(m, ",")))
		}
	}
	if out == nil {
		return ""
	}
	return strings.Join(slices.DeleteFunc(out, func(s string) bool { return !printable([]byte(s)) }), "\n")
}

// codeGates says which of charCodes' expressions may match a text.
type codeGates struct{ list, calls, bytes bool }

// charCodeGates: the literals of a list, four calls, eight 0x bytes.
// Prose says "characters" and "charts" often, and Go's regexp has no
// literal prefix to skip to in these expressions.
func charCodeGates(lower string) codeGates {
	return codeGates{
		list:  charCodeListNeed().mayMatch(lower),
		calls: codeCalls(lower) >= minEscapes,
		bytes: strings.Count(lower, "0x") >= 8,
	}
}

var charCodeListNeed = sync.OnceValue(func() need { return needOf(charCodeList()) })

// codeCalls counts the places where a match of charCodeCall may start: chr
// or char (or char]), then spaces, a parenthesis and spaces at most, then a
// digit. It counts every match, and more.
func codeCalls(lower string) int {
	n := 0
	for i := 0; ; {
		j := strings.Index(lower[i:], "ch")
		if j < 0 {
			return n
		}
		i += j + 2
		k := i
		switch {
		case strings.HasPrefix(lower[k:], "r"):
			k++
		case strings.HasPrefix(lower[k:], "ar]"):
			k += 3
		case strings.HasPrefix(lower[k:], "ar"):
			k += 2
		default:
			continue
		}
		k = skipSpace(lower, k)
		if k < len(lower) && lower[k] == '(' {
			k = skipSpace(lower, k+1)
		}
		if k < len(lower) && lower[k] >= '0' && lower[k] <= '9' {
			n++
		}
	}
}

// skipSpace skips what \s matches from i on.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	return i
}

func codesToText(codes []string) string {
	b := make([]byte, 0, len(codes))
	for _, c := range codes {
		c = strings.TrimSpace(c)
		v, err := strconv.ParseUint(c, 0, 8)
		if err != nil {
			if v, err = strconv.ParseUint(strings.TrimLeft(c, "0"), 10, 8); err != nil {
				continue
			}
		}
		b = append(b, byte(v))
	}
	return string(b)
}

// maxLiterals is the most string literals of a line decodeLiterals reads.
const maxLiterals = 64

// stringLiterals returns where the quoted strings of a line are, at most
// max: a quote, then characters other than that quote, a backslash or a
// line end, or a backslash and a character other than a line end, then the
// same quote. It is the regular expression
// "(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*' found from left to right, in
// one pass: Go's regexp tries it at every quote of the line.
func stringLiterals(s string, max int) [][2]int {
	var out [][2]int
	// unclosed[q] is where a search for the closing q failed: a q before
	// it was escaped in that search, and would fail the same way.
	var unclosed [2]int
	for p := 0; p < len(s) && len(out) < max; p++ {
		q := s[p]
		if q != '"' && q != '\'' {
			continue
		}
		kind := boolInt(q == '\'')
		if p < unclosed[kind] {
			continue
		}
		end := closingQuote(s, p)
		if end < 0 {
			unclosed[kind] = -end
			continue
		}
		out = append(out, [2]int{p, end + 1})
		p = end
	}
	return out
}

// closingQuote returns where the string opened by the quote at s[p] ends,
// or minus where the search failed: at a line end, a backslash before one,
// or the end of s.
func closingQuote(s string, p int) int {
	q := s[p]
	for i := p + 1; i < len(s); i++ {
		switch s[i] {
		case q:
			return i
		case '\n':
			return -i
		case '\\':
			if i+1 == len(s) || s[i+1] == '\n' {
				return -i
			}
			i++
		}
	}
	return -len(s)
}

// joins reports whether the text between two string literals joins them:
// spaces around + (most languages), . (PHP, Perl), .. (Lua) or nothing
// (Python, C).
func joins(between string) bool {
	t := strings.TrimLeft(between, spaceChars)
	if rest, ok := strings.CutPrefix(t, "+"); ok {
		t = rest
	} else if rest, ok := strings.CutPrefix(t, ".."); ok {
		t = rest
	} else {
		t = strings.TrimPrefix(t, ".")
	}
	return strings.TrimLeft(t, spaceChars) == ""
}

// spaceChars are what \s matches.
const spaceChars = " \t\n\f\r"

// decodeLiterals joins string literals split with + or ., and reverses
// those reversed or rot13-encoded by the code around them.
func (sc *skillScan) decodeLiterals(l *line) {
	lits := stringLiterals(l.text, maxLiterals)
	if len(lits) == 0 {
		return
	}
	lower := l.lower
	reversed := strings.Contains(lower, "[::-1]") || strings.Contains(lower, "reverse()") || strings.Contains(lower, "strrev(")
	rot := strings.Contains(lower, "rot13") || strings.Contains(lower, "rot_13")
	var group []string
	groupAt := 0
	flush := func() {
		if len(group) >= 2 {
			joined := strings.Join(group, "")
			if w := reassembled(group, joined); w != "" {
				sc.add(Finding{Rule: ruleStringReassembly, Severity: High, File: l.file.path, Line: l.lineAt(groupAt), Context: l.ctx,
					Match: snippet(l.text, 0, len(l.text)), Message: fmt.Sprintf("the name %q is split into pieces that are joined at run time", w)})
			}
			sc.scanDecoded(l, joined, "joined strings")
		}
		group = group[:0]
	}
	prevEnd := -1
	for _, loc := range lits {
		body := l.text[loc[0]+1 : loc[1]-1]
		if prevEnd >= 0 && !joins(l.text[prevEnd:loc[0]]) {
			flush()
		}
		if len(group) == 0 {
			groupAt = loc[0]
		}
		group = append(group, body)
		prevEnd = loc[1]
		if reversed && len(body) >= 4 {
			sc.scanDecoded(l, reverse(body), "a reversed string")
		}
		if rot && len(body) >= 4 {
			sc.scanDecoded(l, rot13(body), "rot13")
		}
	}
	flush()
}

// sensitiveNames are names that code hides by splitting them.
var sensitiveNames = []string{"eval", "exec", "system", "popen", "subprocess", "socket", "child_process", "spawn",
	"__import__", "base64", "b64decode", "fromcharcode", "curl", "wget", "/bin/sh", "/bin/bash", "powershell",
	"invoke-expression", "shell_exec", "passthru", "getattr", "builtins", "marshal", "urllib", "requests",
	"webhook", ".ssh", "id_rsa", "credentials", "wallet", "/dev/tcp", "xmrig", "stratum"}

// reassembled returns the sensitive name the joined pieces spell when no
// single piece holds it, or "".
func reassembled(pieces []string, joined string) string {
	lj := strings.ToLower(joined)
	for _, w := range sensitiveNames {
		if !strings.Contains(lj, w) {
			continue
		}
		whole := slices.ContainsFunc(pieces, func(p string) bool { return strings.Contains(strings.ToLower(p), w) })
		if !whole {
			return w
		}
	}
	return ""
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}
