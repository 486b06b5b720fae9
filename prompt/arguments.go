package prompt

import (
	"strconv"
	"strings"
)

// substituteArguments puts a person's arguments into a skill's body (see
// ActivateOptions.Arguments).
func substituteArguments(body, args string) string {
	words := splitWords(args)
	var b strings.Builder
	used := false
	for i := 0; i < len(body); i++ {
		if body[i] != '$' {
			b.WriteByte(body[i])
			continue
		}
		rest := body[i+1:]
		if after, ok := strings.CutPrefix(rest, "ARGUMENTS"); ok {
			used = true
			if n, width, ok := index(after); ok {
				if n < len(words) {
					b.WriteString(words[n])
				} else {
					b.WriteString(body[i : i+1+len("ARGUMENTS")+width])
				}
				i += len("ARGUMENTS") + width
				continue
			}
			b.WriteString(args)
			i += len("ARGUMENTS")
			continue
		}
		digits := 0
		for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
			digits++
		}
		if digits == 0 {
			b.WriteByte('$')
			continue
		}
		n, err := strconv.Atoi(rest[:digits])
		if err == nil && n < len(words) {
			b.WriteString(words[n])
			used = true
		} else {
			b.WriteString(body[i : i+1+digits])
		}
		i += digits
	}
	out := b.String()
	if !used {
		out = strings.TrimRight(out, "\n") + "\n\nARGUMENTS: " + args + "\n"
	}
	return out
}

// index reads "[N]" at the start of s.
func index(s string) (n, width int, ok bool) {
	end := strings.IndexByte(s, ']')
	if !strings.HasPrefix(s, "[") || end < 2 {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:end])
	if err != nil || n < 0 {
		return 0, 0, false
	}
	return n, end + 1, true
}

// splitWords splits s into words as a shell would: at spaces outside
// quotes, with the quotes removed and backslashes escaping the next
// character outside single quotes.
func splitWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
				i++
				cur.WriteByte(s[i])
			default:
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
