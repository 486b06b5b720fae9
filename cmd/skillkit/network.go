package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/wellknown"
)

// The sources install reaches over the network: a site's discovery index
// and an MCP server. Both list what they offer; --skill picks one.

// errChoose is a source offering several skills when none was picked; the
// list was printed.
var errChoose = errors.New("several skills are offered: pick one with --skill NAME")

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

// networkSource lists what the server or site in args offers and returns
// the skill o.skill picks (or the only one) as an installer source.
func networkSource(ctx context.Context, c *cli, o *installOptions, args []string) (installer.Source, error) {
	if strings.HasPrefix(args[0], mcpskills.CommandPrefix) {
		argv, err := mcpskills.ParseCommandURL(args[0])
		if err != nil {
			return installer.Source{}, err
		}
		return mcpSource(ctx, c, o.skill, append(argv, args[1:]...))
	}
	if len(args) != 1 {
		return installer.Source{}, errors.New("give one SOURCE")
	}
	return siteSource(ctx, c, o, args[0])
}

// siteSource reads a site's discovery index.
func siteSource(ctx context.Context, c *cli, o *installOptions, site string) (installer.Source, error) {
	opts := &wellknown.Options{AllowedHosts: o.hosts()}
	ix, err := wellknown.Read(ctx, site, opts)
	if err != nil {
		if errors.Is(err, installer.ErrHostNotAllowed) {
			err = fmt.Errorf("%w (add it with --allow-host)", err)
		}
		return installer.Source{}, err
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
	name, err := choose(c.stdout, ix.URL, o.skill, names)
	if err != nil {
		return installer.Source{}, err
	}
	r, err := ix.Remote(name, opts)
	if err != nil {
		return installer.Source{}, err
	}
	return installer.Source{Remote: r}, nil
}

// mcpSource lists an MCP server's skills: --skill is a name, or the URI of
// a skill's SKILL.md when names collide.
func mcpSource(ctx context.Context, c *cli, pick string, argv []string) (installer.Source, error) {
	opts := &mcpskills.Options{Stderr: c.stderr}
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	client, err := mcpskills.Start(sctx, argv, opts)
	if err != nil {
		return installer.Source{}, err
	}
	defer client.Close()
	listed, problems, err := client.List(sctx)
	if err != nil {
		return installer.Source{}, err
	}
	for _, p := range problems {
		fmt.Fprintf(c.stderr, "skillkit install: %s\n", safeText(p.Error()))
	}
	byName := map[string][]string{}
	var names [][2]string
	for _, s := range listed {
		name, _ := s.Frontmatter["name"].(string)
		desc, _ := s.Frontmatter["description"].(string)
		byName[name] = append(byName[name], s.URI)
		names = append(names, [2]string{s.URI, desc})
	}
	uri := pick
	if !strings.Contains(pick, "://") {
		switch uris := byName[pick]; {
		case pick == "" && len(listed) == 1:
			uri = listed[0].URI
		case pick == "":
			_, err := choose(c.stdout, mcpskills.CommandURL(argv), "", names)
			return installer.Source{}, err
		case len(uris) == 1:
			uri = uris[0]
		case len(uris) > 1:
			return installer.Source{}, fmt.Errorf("the server has %d skills named %s (%s): give the URI of one with --skill", len(uris), pick, strings.Join(uris, ", "))
		default:
			return installer.Source{}, fmt.Errorf("the server lists no skill named %s", safeText(pick))
		}
	}
	return installer.Source{Remote: &mcpskills.Remote{Command: argv, URI: uri, Options: &mcpskills.Options{Stderr: c.stderr}}}, nil
}

// choose returns the skill pick names among offered (name, description
// pairs), the only one when pick is empty, or prints the list and returns
// errChoose.
func choose(w io.Writer, from, pick string, offered [][2]string) (string, error) {
	for _, o := range offered {
		if o[0] == pick || pick == "" && len(offered) == 1 {
			return o[0], nil
		}
	}
	if len(offered) == 0 {
		return "", fmt.Errorf("%s offers no skill", from)
	}
	if pick != "" {
		return "", fmt.Errorf("%s offers no skill %s", from, safeText(pick))
	}
	fmt.Fprintf(w, "%s offers %d skills:\n", from, len(offered))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, o := range offered {
		fmt.Fprintf(tw, "  %s\t%s\n", safeText(o[0]), safeText(o[1]))
	}
	tw.Flush()
	return "", errChoose
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
