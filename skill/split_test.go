package skill

import (
	"errors"
	"testing"
)

func TestSplitFrontmatter(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantFront string
		wantBody  string
		wantErr   error
	}{
		{"plain", "---\nname: a\n---\nbody\n", "name: a\n", "body\n", nil},
		{"BOM", "\xef\xbb\xbf---\nname: a\n---\nbody", "name: a\n", "body", nil},
		{"CRLF", "---\r\nname: a\r\ndescription: b\r\n---\r\nline1\r\nline2\r\n", "name: a\ndescription: b\n", "line1\nline2\n", nil},
		{"trailing blanks on delimiters", "--- \t\nname: a\n---  \nbody", "name: a\n", "body", nil},
		{"only frontmatter, no final newline", "---\nname: a\n---", "name: a\n", "", nil},
		{"only frontmatter, final newline", "---\nname: a\n---\n", "name: a\n", "", nil},
		{"empty frontmatter", "---\n---\nbody", "", "body", nil},
		{"body with rules", "---\nname: a\n---\nintro\n---\nmore\n---\n", "name: a\n", "intro\n---\nmore\n---\n", nil},
		{"dashes inside a value are not a delimiter", "---\ndescription: a --- b\nx: '---'\n---\nbody", "description: a --- b\nx: '---'\n", "body", nil},
		{"indented dashes are not a delimiter", "---\nd: |\n  ---\n---\nbody", "d: |\n  ---\n", "body", nil},
		{"four dashes do not close", "---\na: 1\n----\n---\nb", "a: 1\n----\n", "b", nil},
		{"no frontmatter", "# Title\n", "", "", ErrNoFrontmatter},
		{"leading blank line", "\n---\nname: a\n---\n", "", "", ErrNoFrontmatter},
		{"empty file", "", "", "", ErrNoFrontmatter},
		{"unclosed", "---\nname: a\nbody\n", "", "", ErrUnclosedFrontmatter},
		{"only an opening line", "---", "", "", ErrUnclosedFrontmatter},
		{"opening with text after", "--- yaml\nname: a\n---\n", "", "", ErrNoFrontmatter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			front, body, err := SplitFrontmatter([]byte(tt.in))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if string(front) != tt.wantFront || string(body) != tt.wantBody {
				t.Errorf("front = %q, body = %q; want %q, %q", front, body, tt.wantFront, tt.wantBody)
			}
		})
	}
}
