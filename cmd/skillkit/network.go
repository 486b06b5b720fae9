//go:build !lean

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/wellknown"
)

// The sources install reaches over the network: a site's discovery index
// and an MCP server. Both list what they offer; --skill picks, --all takes
// every one.

// errChoose is a source offering several skills when none was picked; the
// list was printed.
var errChoose = errors.New("several skills are offered: pick with --skill NAME (repeatable), or take every one with --all")

// isNetworkSource reports whether args name an MCP server or a site
// rather than a git URL, a ZIP file or a folder.
func isNetworkSource(args []string) bool {
	return len(args) > 0 && (strings.HasPrefix(args[0], mcpskills.CommandPrefix) || isSite(args[0]))
}

// isSite reports an http(s) URL that names a site (no path) or a
// discovery index: a git repository always has a path.
func isSite(arg string) bool {
	u, err := url.Parse(arg)
	if err != nil || u.Host == "" || u.Scheme != "https" && u.Scheme != "http" {
		return false
	}
	return u.Path == "" || u.Path == "/" || strings.HasSuffix(u.Path, "/.well-known/agent-skills/index.json") || strings.HasSuffix(u.Path, "/.well-known/skills/index.json")
}

// networkSources lists what the server or site in args offers and returns
// the skills --skill and --all pick (or the only one) as installer sources.
func networkSources(ctx context.Context, c *cli, o *installOptions, args []string) ([]installer.Source, error) {
	if strings.HasPrefix(args[0], mcpskills.CommandPrefix) {
		argv, err := mcpskills.ParseCommandURL(args[0])
		if err != nil {
			return nil, err
		}
		return mcpSources(ctx, c, o, append(argv, args[1:]...))
	}
	if len(args) != 1 {
		return nil, errors.New("give one SOURCE")
	}
	return siteSources(ctx, c, o, args[0])
}

// siteSources reads a site's discovery index.
func siteSources(ctx context.Context, c *cli, o *installOptions, site string) ([]installer.Source, error) {
	opts := &wellknown.Options{AllowedHosts: o.hosts()}
	ix, err := wellknown.Read(ctx, site, opts)
	if err != nil {
		if errors.Is(err, installer.ErrHostNotAllowed) {
			err = fmt.Errorf("%w (add it with --allow-host)", err)
		}
		return nil, err
	}
	for _, s := range ix.Skipped {
		fmt.Fprintf(c.stderr, "skillkit install: %s: entry %d (%s) left out: %s\n", ix.URL, s.Index, safeText(s.Name), safeText(s.Reason))
	}
	if ix.Legacy {
		fmt.Fprintf(c.stderr, "skillkit install: %s is a v0.1.0 index: its skills have no digests, so their content cannot be verified\n", ix.URL)
	}
	names := make([][2]string, len(ix.Skills))
	for i, e := range ix.Skills {
		names[i] = [2]string{e.Name, e.Description}
	}
	picked, err := choose(c.stdout, ix.URL, o.skills, o.all, names)
	if err != nil {
		return nil, err
	}
	var srcs []installer.Source
	for _, name := range picked {
		r, err := ix.Remote(name, opts)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, installer.Source{Remote: r})
	}
	return srcs, nil
}

// mcpSources lists an MCP server's skills: each --skill is a name, or the
// URI of a skill's SKILL.md when names collide.
func mcpSources(ctx context.Context, c *cli, o *installOptions, argv []string) ([]installer.Source, error) {
	opts := &mcpskills.Options{Stderr: c.stderr}
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	client, err := mcpskills.Start(sctx, argv, opts)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	listed, problems, err := client.List(sctx)
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		fmt.Fprintf(c.stderr, "skillkit install: %s\n", safeText(p.Error()))
	}
	byName := map[string][]string{}
	var offered [][2]string
	for _, s := range listed {
		name, _ := s.Frontmatter["name"].(string)
		desc, _ := s.Frontmatter["description"].(string)
		byName[name] = append(byName[name], s.URI)
		offered = append(offered, [2]string{s.URI, desc})
	}
	var picks []string
	for _, pick := range o.skills {
		switch uris := byName[pick]; {
		case strings.Contains(pick, "://"):
			picks = append(picks, pick)
		case len(uris) == 1:
			picks = append(picks, uris[0])
		case len(uris) > 1:
			return nil, fmt.Errorf("the server has %d skills named %s (%s): give the URI of one with --skill", len(uris), safeText(pick), strings.Join(uris, ", "))
		default:
			return nil, fmt.Errorf("the server lists no skill named %s", safeText(pick))
		}
	}
	uris, err := choose(c.stdout, mcpskills.CommandURL(argv), picks, o.all, offered)
	if err != nil {
		return nil, err
	}
	var srcs []installer.Source
	for _, uri := range uris {
		srcs = append(srcs, installer.Source{Remote: &mcpskills.Remote{Command: argv, URI: uri, Options: &mcpskills.Options{Stderr: c.stderr}}})
	}
	return srcs, nil
}

// choose returns the skills picks names among offered (name, description
// pairs), each once: every one with all, the only one when nothing is
// picked; else it prints the list and returns errChoose.
func choose(w io.Writer, from string, picks []string, all bool, offered [][2]string) ([]string, error) {
	if len(offered) == 0 {
		return nil, fmt.Errorf("%s offers no skill", from)
	}
	names := make([]string, len(offered))
	for i, o := range offered {
		names[i] = o[0]
	}
	switch {
	case all:
		return names, nil
	case len(picks) == 0 && len(offered) == 1:
		return names, nil
	case len(picks) == 0:
		fmt.Fprintf(w, "%s offers %d skills:\n", from, len(offered))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, o := range offered {
			fmt.Fprintf(tw, "  %s\t%s\n", safeText(o[0]), safeText(o[1]))
		}
		tw.Flush()
		return nil, errChoose
	}
	var out []string
	for _, p := range picks {
		if !slices.Contains(names, p) {
			return nil, fmt.Errorf("%s offers no skill %s%s", from, safeText(p), didYouMean(suggest(p, names)))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// hosts are the hosts the installing commands may fetch from: github.com
// and those --allow-host adds, for git and discovery indexes alike.
func (f *installerFlags) hosts() []string {
	return append([]string{installer.DefaultHost}, f.allowHosts...)
}

func mcpCommand() *command {
	return &command{
		name:    "mcp",
		summary: "serve skills over MCP, or install from an MCP server: how",
		help: `
skillkit does not serve MCP itself: skillkit-mcp, a program of the MCP adapter
module, does. It serves a skills folder on standard input and output: the
skill tools, and the skills themselves through MCP's Skills extension
(io.modelcontextprotocol/skills: skills/list, skills/get, and each skill file
under skill:// through resources/read, with its SHA-256 digest).

  go install github.com/skillkit-go/skillkit/adapters/mcp/cmd/skillkit-mcp@latest
  skillkit-mcp -dir ./skills [-tool bash]... [-manage]

Point an MCP client at it, for example {"command": "skillkit-mcp", "args":
["-dir", "/srv/skills"]}. Infrastructure files (skill.config.yaml, .env,
package.json, .venv/) and secrets are never served.

To install a skill from any MCP server that serves the Skills extension,
give install the command that starts the server, quoted as one argument or
after --:

  skillkit install 'mcp+stdio:skillkit-mcp -dir /srv/skills' --skill pdf
  skillkit install --skill pdf -- mcp+stdio:npx -y @acme/skills-server

Every file is verified against the digest and size the server lists before
it is installed, then checked, scanned and installed as a folder is. The
record keeps the command and the skill's URI, but a record is never trusted
with a command: update and outdated start a server only when its command is,
word for word, on the list of allowed servers ($SKILLKIT_MCP_SERVERS, else
skillkit/mcp-servers in $XDG_CONFIG_HOME or ~/.config; one mcp+stdio: line
each). install adds the command you typed to that list; any other record's
server is reported as not allowed, and nothing starts. See
docs/mcp-skills.md.`,
		run: func(_ context.Context, c *cli, _ any, args []string) int {
			commandUsage(c.stdout, find("mcp"))
			return exitOK
		},
	}
}
