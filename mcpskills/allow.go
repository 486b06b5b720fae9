package mcpskills

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNotAllowed: a record names an MCP server command that is not on the
// host's list of allowed servers. Nothing was started.
var ErrNotAllowed = errors.New("mcpskills: the server command is not on the host's list of allowed MCP servers")

// MaxAllowListBytes bounds a file of allowed server commands
// ([ReadAllowList]).
const MaxAllowListBytes = 1 << 20

// ParseAllowList reads a host's list of the MCP server commands that may be
// started on a record's behalf: one "mcp+stdio:COMMAND ARG..." a line, as
// [CommandURL] writes it; blank lines and lines whose first non-blank
// character is # are skipped. A line that [ParseCommandURL] refuses is an
// error naming its number.
func ParseAllowList(data []byte) ([][]string, error) {
	if len(data) > MaxAllowListBytes {
		return nil, fmt.Errorf("%w: the list of allowed servers holds %d bytes, over the limit of %d", ErrBadCommand, len(data), MaxAllowListBytes)
	}
	var out [][]string
	for i, line := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSpace(strings.TrimSuffix(string(line), "\r"))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		argv, err := ParseCommandURL(s)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		out = append(out, argv)
	}
	return out, nil
}

// ReadAllowList reads the file at path with [ParseAllowList]. A file that
// does not exist is an empty list, not an error.
func ReadAllowList(path string) ([][]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mcpskills: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxAllowListBytes+1))
	if err != nil {
		return nil, fmt.Errorf("mcpskills: %s: %w", path, err)
	}
	argvs, err := ParseAllowList(data)
	if err != nil {
		return nil, fmt.Errorf("mcpskills: %s: %w", path, err)
	}
	return argvs, nil
}

// AllowListHas reports whether argv is, word for word, one of allowed.
func AllowListHas(allowed [][]string, argv []string) bool {
	return slices.ContainsFunc(allowed, func(a []string) bool { return slices.Equal(a, argv) })
}

// AppendAllowList adds argv to the file at path (made with mode 0600, its
// folder with 0700, when missing) unless the file lists it already. It
// reports whether it added a line.
func AppendAllowList(path string, argv []string) (bool, error) {
	have, err := ReadAllowList(path)
	if err != nil {
		return false, err
	}
	if AllowListHas(have, argv) {
		return false, nil
	}
	if _, err := ParseCommandURL(CommandURL(argv)); err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("mcpskills: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return false, fmt.Errorf("mcpskills: %w", err)
	}
	_, werr := f.WriteString(CommandURL(argv) + "\n")
	if err := errors.Join(werr, f.Close()); err != nil {
		return false, fmt.Errorf("mcpskills: %w", err)
	}
	return true, nil
}
