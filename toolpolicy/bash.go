package toolpolicy

import (
	"strings"
)

// splitCommand cuts a shell command into the simple commands it runs, each
// as its text without the harmless redirections (2>&1, to or from
// /dev/null) and with the wrappers timeout, nice and nohup taken off. ok is
// false when the command holds something its text cannot vouch for: a
// command substitution, a subshell or group, a redirection to or from a
// file, a here-document, or an unterminated quote.
func splitCommand(cmd string) (parts []string, ok bool) {
	var cur strings.Builder
	end := func() {
		if p := strings.TrimSpace(cur.String()); p != "" {
			parts = append(parts, unwrap(p))
		}
		cur.Reset()
	}
	const (
		plain = iota
		single
		double
	)
	state := plain
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch state {
		case single:
			cur.WriteByte(c)
			if c == '\'' {
				state = plain
			}
			continue
		case double:
			cur.WriteByte(c)
			switch c {
			case '\\':
				if i+1 < len(cmd) {
					i++
					cur.WriteByte(cmd[i])
				}
			case '"':
				state = plain
			case '`':
				return nil, false
			case '$':
				if i+1 < len(cmd) && cmd[i+1] == '(' {
					return nil, false
				}
			}
			continue
		}
		switch c {
		case '\\':
			if i+1 < len(cmd) && cmd[i+1] == '\n' { // a continued line
				i++
				continue
			}
			cur.WriteByte(c)
			if i+1 < len(cmd) {
				i++
				cur.WriteByte(cmd[i])
			}
		case '\'':
			state = single
			cur.WriteByte(c)
		case '"':
			state = double
			cur.WriteByte(c)
		case '`', '(', ')', '{', '}': // $(...), subshells, groups
			return nil, false
		case ';', '\n':
			end()
		case '&':
			if i+1 < len(cmd) && cmd[i+1] == '>' { // &> file
				n, harmless := redirection(cmd, i+2)
				if !harmless {
					return nil, false
				}
				i = n - 1
				continue
			}
			if i+1 < len(cmd) && cmd[i+1] == '&' {
				i++
			}
			end()
		case '|':
			if i+1 < len(cmd) && (cmd[i+1] == '|' || cmd[i+1] == '&') {
				i++
			}
			end()
		case '<', '>':
			if i+1 < len(cmd) && (cmd[i+1] == '(' || c == '<' && cmd[i+1] == '<') {
				return nil, false // process substitution, here-document
			}
			// The descriptor before the operator (2>) belongs to it.
			text := cur.String()
			j := len(text)
			for j > 0 && text[j-1] >= '0' && text[j-1] <= '9' {
				j--
			}
			if j < len(text) && (j == 0 || text[j-1] == ' ' || text[j-1] == '\t') {
				cur.Reset()
				cur.WriteString(text[:j])
			}
			k := i + 1
			if k < len(cmd) && cmd[k] == '>' { // >>
				k++
			}
			if k < len(cmd) && cmd[k] == '&' { // >&2, <&0
				k++
				digits := k
				for k < len(cmd) && cmd[k] >= '0' && cmd[k] <= '9' {
					k++
				}
				if k == digits || k < len(cmd) && !isSpace(cmd[k]) && !strings.ContainsRune(";&|\n", rune(cmd[k])) {
					return nil, false
				}
				i = k - 1
				continue
			}
			n, harmless := redirection(cmd, k)
			if !harmless {
				return nil, false
			}
			i = n - 1
		default:
			cur.WriteByte(c)
		}
	}
	if state != plain {
		return nil, false
	}
	end()
	return parts, true
}

// redirection reads the target of a redirection starting at i (after the
// operator) and returns where it ends and whether it is the null device.
func redirection(cmd string, i int) (int, bool) {
	for i < len(cmd) && isSpace(cmd[i]) {
		i++
	}
	start := i
	for i < len(cmd) && !isSpace(cmd[i]) && !strings.ContainsRune(";&|\n<>", rune(cmd[i])) {
		i++
	}
	return i, cmd[start:i] == "/dev/null"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// unwrap takes the wrappers that only run the command differently off its
// front: timeout (with its options and duration), nice (with its
// adjustment) and nohup.
func unwrap(p string) string {
	for {
		words := strings.Fields(p)
		if len(words) == 0 {
			return p
		}
		skip := 0
		switch words[0] {
		case "nohup":
			skip = 1
		case "nice":
			skip = 1
			if len(words) > 2 && words[1] == "-n" {
				skip = 3
			} else if len(words) > 1 && (strings.HasPrefix(words[1], "-") || strings.HasPrefix(words[1], "--adjustment=")) {
				skip = 2
			}
		case "timeout":
			k := 1
			for k < len(words) && strings.HasPrefix(words[k], "-") {
				if words[k] == "-s" || words[k] == "-k" || words[k] == "--signal" || words[k] == "--kill-after" {
					k++
				}
				k++
			}
			if k < len(words) && isDuration(words[k]) {
				skip = k + 1
			}
		}
		if skip == 0 || skip >= len(words) {
			return p
		}
		p = strings.Join(words[skip:], " ")
	}
}

func isDuration(w string) bool {
	w = strings.TrimRight(w, "smhd")
	if w == "" {
		return false
	}
	for _, c := range w {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

// matchCommand reports whether one simple command matches a Bash rule's
// specifier: "prefix:*" (the prefix, alone or followed by a space and
// more), a pattern with * (any text, spaces included; a single trailing
// " *" also matches nothing at all), or the exact command.
func matchCommand(spec, cmd string) bool {
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok && !strings.Contains(prefix, "*") {
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	if !strings.Contains(spec, "*") {
		return cmd == spec
	}
	if base, ok := strings.CutSuffix(spec, " *"); ok && !strings.Contains(base, "*") && cmd == base {
		return true
	}
	return wildcard(spec, cmd)
}

// wildcard matches text against a pattern whose * is any text.
func wildcard(pattern, text string) bool {
	pieces := strings.Split(pattern, "*")
	if !strings.HasPrefix(text, pieces[0]) {
		return false
	}
	text = text[len(pieces[0]):]
	last := pieces[len(pieces)-1]
	for _, piece := range pieces[1 : len(pieces)-1] {
		i := strings.Index(text, piece)
		if i < 0 {
			return false
		}
		text = text[i+len(piece):]
	}
	return len(pieces) == 1 && text == "" || len(pieces) > 1 && strings.HasSuffix(text, last)
}
