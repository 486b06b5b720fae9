package mcpskills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/memfs"
	"github.com/skillkit-go/skillkit/registry"
)

// CommandPrefix starts the URL skillkit records for a server it started
// over standard input and output: "mcp+stdio:" and the command.
const CommandPrefix = "mcp+stdio:"

// ErrBadCommand is wrapped by the errors of [ParseCommandURL].
var ErrBadCommand = errors.New("mcpskills: bad server command")

// CommandURL writes argv as "mcp+stdio:" followed by its words separated
// by spaces; a word holding a space, a quote, a backslash or nothing is
// written in single quotes (a single quote inside as '\”). ParseCommandURL
// reads it back.
func CommandURL(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\") {
			words[i] = w
			continue
		}
		words[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return CommandPrefix + strings.Join(words, " ")
}

// ParseCommandURL reads "mcp+stdio:COMMAND ARG..." into the command's
// words, as a POSIX shell splits a line without expanding anything: words
// are separated by spaces and tabs; 'single quotes' keep everything
// literally; "double quotes" keep everything but \" and \\; a backslash
// outside quotes keeps the next character. No variable, glob or
// substitution is expanded, and nothing runs through a shell. A control
// character other than a tab is refused, quoted or not.
func ParseCommandURL(s string) ([]string, error) {
	rest, ok := strings.CutPrefix(s, CommandPrefix)
	if !ok {
		return nil, fmt.Errorf("%w: %q does not start with %s", ErrBadCommand, s, CommandPrefix)
	}
	if i := strings.IndexFunc(rest, func(r rune) bool { return r != '\t' && (r < 0x20 || r == 0x7f) }); i >= 0 {
		return nil, fmt.Errorf("%w: a control character in %q", ErrBadCommand, s)
	}
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(rest); i++ {
		ch := rest[i]
		switch {
		case ch == ' ' || ch == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\'':
			end := strings.IndexByte(rest[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("%w: an unclosed single quote in %q", ErrBadCommand, s)
			}
			cur.WriteString(rest[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(rest) && rest[i] != '"'; i++ {
				if rest[i] == '\\' && i+1 < len(rest) && (rest[i+1] == '"' || rest[i+1] == '\\') {
					i++
				}
				cur.WriteByte(rest[i])
			}
			if i == len(rest) {
				return nil, fmt.Errorf("%w: an unclosed double quote in %q", ErrBadCommand, s)
			}
			inWord = true
		case ch == '\\':
			if i+1 == len(rest) {
				return nil, fmt.Errorf("%w: a backslash at the end of %q", ErrBadCommand, s)
			}
			i++
			cur.WriteByte(rest[i])
			inWord = true
		case ch < 0x20 || ch == 0x7f:
			return nil, fmt.Errorf("%w: a control character in %q", ErrBadCommand, s)
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("%w: no command after %s", ErrBadCommand, CommandPrefix)
	}
	return words, nil
}

// Remote is one skill of an MCP server started by a command, as a source
// of the installer (installer.Source.Remote). Each call starts the server,
// asks it (skills/get, resources/read) and stops it. The record keeps the
// command (Origin's URL, see [CommandURL]) and the skill's URI (Subdir):
// together they identify the skill, as the specification asks (Skill
// URIs); updates start the same command again, in the folder they run in.
type Remote struct {
	Command []string // the server's program and arguments
	URI     string   // the URI of the skill's SKILL.md
	Options *Options // nil for the defaults
}

var _ installer.Remote = (*Remote)(nil)

// FromRecord returns the Remote a skill was installed from, for
// installer.Options.Remote. A record is data that others can write (a
// fleet database, a cloned .skillhub/, a skill run by a runner that can
// reach its folder), so the command it names is never trusted on its own:
// it must equal, word for word, one of allowed, the host's list of
// servers (from its options or a file of its own, [ReadAllowList]), or
// FromRecord fails with [ErrNotAllowed] and nothing is started.
func FromRecord(rec registry.Record, allowed [][]string, opts *Options) (*Remote, error) {
	if rec.Source != registry.SourceMCP {
		return nil, fmt.Errorf("mcpskills: %s was not installed from an MCP server", rec.Name)
	}
	argv, err := ParseCommandURL(rec.URL)
	if err != nil {
		return nil, err
	}
	if !AllowListHas(allowed, argv) {
		return nil, fmt.Errorf("%w: %s names %s; add it to the host's list to let update checks start it", ErrNotAllowed, rec.Name, quote(CommandURL(argv)))
	}
	return &Remote{Command: slices.Clone(argv), URI: rec.Subdir, Options: opts}, nil
}

// Origin returns the record's source fields: SourceMCP, the command as a
// URL, and the skill's URI.
func (r *Remote) Origin() registry.Record {
	return registry.Record{Source: registry.SourceMCP, URL: CommandURL(r.Command), Subdir: r.URI}
}

// entry starts the server and returns the skill's checked entry, with the
// client, which the caller closes.
func (r *Remote) entry(ctx context.Context) (*Client, *entry, error) {
	c, err := Start(ctx, r.Command, r.Options)
	if err != nil {
		return nil, nil, err
	}
	s, err := c.Get(ctx, r.URI)
	if err == nil {
		var e *entry
		if e, err = checkEntry(s); err == nil && e.URI != r.URI {
			err = fmt.Errorf("%w: skills/get of %s answered with %s", ErrInvalidEntry, quote(r.URI), quote(e.URI))
		}
		if err == nil {
			return c, e, nil
		}
	}
	c.Close()
	return nil, nil, err
}

// Version returns the set digest of the skill's manifest now
// ([SetDigest]).
func (r *Remote) Version(ctx context.Context) (string, error) {
	c, e, err := r.entry(ctx)
	if err != nil {
		return "", err
	}
	c.Close()
	return SetDigest(e.Resources.Files), nil
}

// Fetch reads every file of the skill, verifies each against the entry
// skills/get returned (size, digest, and SKILL.md's frontmatter), and
// returns them in memory with the manifest's set digest. A skill whose
// files pass lim (a file over MaxFileBytes, more than MaxEntries files or
// MaxTotalBytes in all) is refused before anything is read.
func (r *Remote) Fetch(ctx context.Context, lim *installer.Limits) (fs.FS, string, error) {
	c, e, err := r.entry(ctx)
	if err != nil {
		return nil, "", err
	}
	defer c.Close()
	if err := withinLimits(e, lim); err != nil {
		return nil, "", err
	}
	files := make([]memfs.File, 0, len(e.rels))
	for _, rel := range e.rels {
		data, err := c.fetch(ctx, e, rel)
		if err != nil {
			return nil, "", err
		}
		files = append(files, memfs.File{Path: rel, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(data)), nil
		}})
	}
	m, err := memfs.New(files)
	if err != nil {
		return nil, "", fmt.Errorf("mcpskills: %w", err)
	}
	return m, SetDigest(e.Resources.Files), nil
}

// withinLimits checks an entry's listed sizes against the skills folder's
// limits before anything is fetched.
func withinLimits(e *entry, lim *installer.Limits) error {
	l := lim.Effective()
	maxFile, maxTotal, maxEntries := l.MaxFileBytes, l.MaxTotalBytes, l.MaxEntries
	if len(e.rels) > maxEntries {
		return fmt.Errorf("mcpskills: %s: %w: %d files, over the limit of %d", quote(e.URI), installer.ErrLimit, len(e.rels), maxEntries)
	}
	var total int64
	for _, rel := range e.rels {
		size := e.files[rel].Size
		if size > maxFile {
			return fmt.Errorf("mcpskills: %s: %w: %d bytes, over the limit of %d per file", quote(e.files[rel].URI), installer.ErrLimit, size, maxFile)
		}
		total += size
	}
	if total > maxTotal {
		return fmt.Errorf("mcpskills: %s: %w: %d bytes in all, over the limit of %d", quote(e.URI), installer.ErrLimit, total, maxTotal)
	}
	return nil
}
