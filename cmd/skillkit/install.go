//go:build !lean

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/lazyregexp"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/registry"
)

// installerFlags are the flags of the commands that change what is
// installed: install, uninstall, update, outdated, pin, unpin, enable,
// disable.
type installerFlags struct {
	dir        string
	allowHosts []string
	allowFile  bool
	json       bool
}

func (f *installerFlags) register(fs *flag.FlagSet, git bool) {
	fs.StringVar(&f.dir, "dir", "", "the skills folder `DIR` (default $SKILLKIT_DIR, else ./skills)")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	if git {
		fs.Func("allow-host", "also fetch from the `HOST`: git over https, discovery indexes (repeatable; github.com is always allowed)", func(v string) error {
			f.allowHosts = append(f.allowHosts, v)
			return nil
		})
		fs.BoolVar(&f.allowFile, "allow-file-urls", false, "allow file:// git URLs (local repositories)")
	}
}

// installerHelp documents the flags common to the installing commands.
const installerHelp = `
The skills folder is --dir, else $SKILLKIT_DIR, else ./skills; skillkit keeps
its records in its .skillhub/ folder.` + dbHelp

// skillsDir returns the skills folder the flags name.
func (f *installerFlags) skillsDir(c *cli) string { return resolveDir(c, f.dir) }

// open opens a Kit on the skills folder, with the flags' install options
// and what earlier installs allowed (origins.go); tune, when set, adds the
// command's own. Only install creates the folder;
// the other commands need it to exist. Opening scans nothing: a command
// that changes one skill reads only that skill.
func (f *installerFlags) open(ctx context.Context, c *cli, create bool, tune func(*skillkit.Options)) (*skillkit.Kit, error) {
	dir := f.skillsDir(c)
	if !create {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("the skills folder %s does not exist (use --dir or SKILLKIT_DIR)", dir)
		}
	}
	opts := skillkit.Options{
		Dir:            dir,
		Getenv:         c.getenv,
		Logger:         c.logger,
		MCPServersFile: c.mcpServersFile(),
		PublishersFile: publishersFile(c, true),
		Installer: &installer.Options{
			AllowedHosts:  f.hosts(),
			AllowFileURLs: f.allowFile,
		},
	}
	allowed, err := readOrigins(dir)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", registry.HubDir, originsFile, err)
	}
	allowed.apply(opts.Installer)
	if tune != nil {
		tune(&opts)
	}
	return c.open(ctx, opts)
}

type installOptions struct {
	installerFlags
	trustFlags
	ref    string
	path   string
	skills []string // --skill, repeatable
	all    bool
	force  bool
}

func installCommand() *command {
	return &command{
		name:    "install",
		args:    "[--ref R] [--path P] [--skill NAME]... [--all] [--force] [--yes] [--allow-dangerous] [--json] SOURCE",
		summary: "install a skill from GitHub, a git URL, a ZIP file, a folder, a site or an MCP server",
		help: `
SOURCE is a git URL (https://github.com/OWNER/REPO, optionally with
/tree/REF/PATH for one skill in a repository; another host with --allow-host;
file:// with --allow-file-urls), GitHub's short form OWNER/REPO[/PATH][@REF],
a ZIP file or a skill folder (a file or folder that exists wins over the
short form). --ref picks a branch or tag and --path the skill's folder in the
repository. A folder that is a git checkout installs without its .git, and
its commit is recorded.

A source holding several skills and no SKILL.md at its top (a repository, a
folder, a ZIP, a site, an MCP server) is refused with the list of its
skills: --skill NAME picks one (repeat it for more; NAME is the skill's
folder, or its path in the source) and --all takes every one. Each skill is
installed on its own, as if named alone: one failing leaves the others, and
a summary counts them.

SOURCE may also be a site, https://example.com, whose Agent Skills discovery
index (/.well-known/agent-skills/index.json, else /.well-known/skills/) is
read; or an MCP server serving the Skills extension, mcp+stdio: followed by
the command that starts it, quoted as one argument ('mcp+stdio:CMD ARG...')
or after -- (skillkit install -- mcp+stdio:CMD ARG...). Either lists what it
offers; --skill picks (the only one needs none). Every file is checked
against the digest the source publishes before it is used. A site's host,
and any host its index points to, must be allowed (--allow-host); plain
http only on loopback. See "skillkit help mcp".

The source is checked (unsafe names, links, sizes), SKILL.md validated, the
files fingerprinted and swapped in atomically: on any failure the skill
installed before stays as it was. A skill of the same name installed from
elsewhere, pinned, or edited since install is not replaced without --force.
On a terminal a progress line shows each step.` + trustHelp + installerHelp,
		flags: func(fs *flag.FlagSet) any {
			o := &installOptions{}
			o.installerFlags.register(fs, true)
			o.trustFlags.register(fs)
			fs.StringVar(&o.ref, "ref", "", "git: the branch or tag, `REF`")
			fs.StringVar(&o.path, "path", "", "the skill's folder inside the repository, ZIP or folder, `PATH`")
			fs.Func("skill", "a source holding several skills: install the one named `NAME` (its folder; for MCP, or the URI of its SKILL.md); repeatable", func(v string) error {
				o.skills = append(o.skills, v)
				return nil
			})
			fs.BoolVar(&o.all, "all", false, "a source holding several skills: install every one")
			fs.BoolVar(&o.force, "force", false, "replace a skill installed from elsewhere, pinned or edited")
			return o
		},
		run: runInstall,
	}
}

func runInstall(ctx context.Context, c *cli, opts any, args []string) int {
	o := opts.(*installOptions)
	if o.all && len(o.skills) > 0 {
		fmt.Fprintln(c.stderr, "skillkit install: --all or --skill, not both")
		return exitUsage
	}
	var srcs []installer.Source
	var src installer.Source // a git URL, a ZIP or a folder
	var err error
	switch {
	case isNetworkSource(args):
		if srcs, err = networkSources(ctx, c, o, args); errors.Is(err, errChoose) {
			fmt.Fprintf(c.stderr, "skillkit install: %v\n", err)
			return exitUsage
		}
		if err != nil {
			return c.fail("install", err)
		}
	case len(args) != 1:
		fmt.Fprintln(c.stderr, "skillkit install: give one SOURCE")
		return exitUsage
	default:
		if src, err = parseSource(args[0], o.ref, o.path); err != nil {
			fmt.Fprintf(c.stderr, "skillkit install: %v\n", err)
			return exitUsage
		}
	}
	p := newProgress(c)
	kit, err := o.open(ctx, c, true, func(k *skillkit.Options) {
		k.Installer.Progress = p.event
		k.AllowDangerous = o.allowDangerous
	})
	if err != nil {
		return c.fail("install", err)
	}
	defer kit.Close()
	if srcs == nil {
		if srcs, err = pickSkills(ctx, c, o, kit, src); errors.Is(err, errChoose) {
			fmt.Fprintf(c.stderr, "skillkit install: %v\n", err)
			return exitUsage
		}
		if err != nil {
			return c.fail("install", err)
		}
	}
	// One skill, named alone, answers as it always did; --all and several
	// --skill install each on its own and sum up.
	if !o.all && len(o.skills) <= 1 {
		_, code := installOne(ctx, c, o, kit, srcs[0], false)
		return code
	}
	code := exitOK
	var items []installItem
	var installed, failed, waiting []string
	for _, s := range srcs {
		item, one := installOne(ctx, c, o, kit, s, true)
		items = append(items, item)
		code = worse(code, one)
		switch {
		case one == exitOK:
			installed = append(installed, item.Name)
		case one == exitNeedsYes:
			waiting = append(waiting, item.Source)
		default:
			failed = append(failed, item.Source)
		}
	}
	if o.json {
		if writeJSON(c, items) != nil {
			return exitFailure
		}
		return code
	}
	fmt.Fprintf(c.info(), "installed %d of %d skills", len(installed), len(srcs))
	if len(failed) > 0 {
		fmt.Fprintf(c.info(), "; failed: %s", safeText(strings.Join(failed, ", ")))
	}
	if len(waiting) > 0 {
		fmt.Fprintf(c.info(), "; waiting for a yes (--yes): %s", safeText(strings.Join(waiting, ", ")))
	}
	fmt.Fprintln(c.info())
	return code
}

// installItem is what install --json prints for each skill of a source
// holding several: the source, and the result, or the error and the scan's
// refusal.
type installItem struct {
	Source  string               `json:"source"`
	Name    string               `json:"name,omitempty"`
	Result  *installer.Result    `json:"result,omitempty"`
	Error   string               `json:"error,omitempty"`
	Refusal *installer.ScanError `json:"refusal,omitempty"`
}

// installOne installs src and says so, asking about the scan's findings
// at a terminal. Alone (not several), its --json output is the install
// result, or the refusal; among several, the item is for the caller to
// print. It returns the command's exit code for this skill.
func installOne(ctx context.Context, c *cli, o *installOptions, kit *skillkit.Kit, src installer.Source, several bool) (installItem, int) {
	item := installItem{Source: src.String()}
	iopts := &installer.InstallOptions{Force: o.force, Confirmed: o.yes}
	res, err := kit.Install(ctx, src, iopts)
	if se := scanError(err); se != nil && several && o.json {
		item.Error, item.Refusal = cliWords(err.Error()), se
		return item, scanCode(se)
	}
	stop, err := againAfterScan(c, "install", o.json, err, func(fp string) (err error) {
		iopts.Confirmed, iopts.Fingerprint = true, fp
		res, err = kit.Install(ctx, src, iopts)
		return err
	})
	if stop != exitOK {
		return item, stop
	}
	if err != nil {
		item.Error = cliWords(err.Error())
		if several && o.json {
			return item, exitFailure
		}
		if code := c.fail("install", err); !errors.Is(err, installer.ErrSeveralSkills) {
			return item, code
		}
		return item, exitUsage // which skills: --skill or --all
	}
	item.Name, item.Result = res.Name, res
	if err := rememberOrigin(ctx, kit.Dir(), &o.installerFlags, res.Record); err != nil {
		fmt.Fprintf(c.stderr, "skillkit install: %s: update and outdated will need the --allow flags again: %v\n", res.Name, err)
	}
	if o.json {
		if !several && writeJSON(c, res) != nil {
			return item, exitFailure
		}
		return item, exitOK
	}
	printResult(c, "installed", res)
	allowServer(c, src)
	printNext(ctx, c, kit, res.Name)
	return item, exitOK
}

// pickSkills is the source itself when --skill and --all are not given;
// else the skills of the git repository, ZIP or folder src that they pick,
// each as its own source (src with the skill's folder).
func pickSkills(ctx context.Context, c *cli, o *installOptions, kit *skillkit.Kit, src installer.Source) ([]installer.Source, error) {
	if !o.all && len(o.skills) == 0 {
		return []installer.Source{src}, nil
	}
	folders, err := kit.Installer().Skills(ctx, src)
	if err != nil {
		return nil, err
	}
	offered := make([][2]string, len(folders))
	for i, f := range folders {
		offered[i] = [2]string{f, ""}
	}
	// A NAME is a folder's path in the source, or its last element when
	// that names one folder only.
	picks := make([]string, len(o.skills))
	for i, pick := range o.skills {
		picks[i] = pick
		var byBase []string
		for _, f := range folders {
			if path.Base(f) == pick {
				byBase = append(byBase, f)
			}
		}
		switch {
		case slices.Contains(folders, pick):
		case len(byBase) == 1:
			picks[i] = byBase[0]
		case len(byBase) > 1:
			return nil, fmt.Errorf("%s holds %d skills in folders named %s (%s): give the path of one with --skill", src, len(byBase), safeText(pick), strings.Join(byBase, ", "))
		}
	}
	chosen, err := choose(c.stdout, src.String(), picks, o.all, offered)
	if err != nil {
		return nil, err
	}
	srcs := make([]installer.Source, len(chosen))
	for i, f := range chosen {
		srcs[i] = src
		srcs[i].Subdir = path.Join(src.Subdir, f)
		if srcs[i].Subdir == "." {
			srcs[i].Subdir = ""
		}
	}
	return srcs, nil
}

// mcpServersFile is the list of MCP server commands that update checks
// and updates may start: $SKILLKIT_MCP_SERVERS, else
// skillkit/mcp-servers in the user's configuration folder
// ($XDG_CONFIG_HOME, else ~/.config); "" when none can be named.
func (c *cli) mcpServersFile() string {
	if f := c.getenv("SKILLKIT_MCP_SERVERS"); f != "" {
		return f
	}
	if d := c.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "skillkit", "mcp-servers")
	}
	if h := c.getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "skillkit", "mcp-servers")
	}
	return ""
}

// allowServer adds the command of an MCP server the person named on the
// command line to the list update checks may start: typing it was the
// approval. A record alone never adds to the list.
func allowServer(c *cli, src installer.Source) {
	r, ok := src.Remote.(*mcpskills.Remote)
	if !ok {
		return
	}
	file := c.mcpServersFile()
	if file == "" {
		fmt.Fprintf(c.stderr, "skillkit install: no list of MCP servers (set SKILLKIT_MCP_SERVERS): update checks will not start %s\n", safeText(mcpskills.CommandURL(r.Command)))
		return
	}
	added, err := mcpskills.AppendAllowList(file, r.Command)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit install: %v: update checks will not start this server\n", err)
		return
	}
	if added {
		fmt.Fprintf(c.info(), "update checks may start this server: added to %s\n", file)
	}
}

// gitHubShorthand is OWNER/REPO[/PATH][@REF], the form GitHub users type.
var gitHubShorthand = lazyregexp.New(`^([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)((?:/[^/@\s]+)*)(?:@([^@\s]+))?$`)

// parseSource tells a git URL from a ZIP file, a folder and the GitHub
// shorthand OWNER/REPO[/PATH][@REF]. A file or folder that exists wins over
// the shorthand; a path written as ./x, ../x or absolute is never one.
func parseSource(arg, ref, subdir string) (installer.Source, error) {
	if strings.HasPrefix(arg, "github.com/") {
		arg = "https://" + arg
	}
	if strings.Contains(arg, "://") {
		return installer.Source{Git: arg, Ref: ref, Subdir: subdir}, nil
	}
	st, err := os.Stat(arg)
	if errors.Is(err, fs.ErrNotExist) {
		if m := gitHubShorthand().FindStringSubmatch(arg); m != nil && !strings.HasPrefix(arg, ".") {
			return gitHubSource(m, ref, subdir)
		}
	}
	if ref != "" {
		return installer.Source{}, errors.New("--ref goes with a git URL or OWNER/REPO")
	}
	if errors.Is(err, fs.ErrNotExist) {
		return installer.Source{}, fmt.Errorf("%s: no such file or folder (a git URL starts with https://; GitHub's short form is OWNER/REPO[/PATH][@REF])", arg)
	}
	if err != nil {
		return installer.Source{}, err
	}
	if st.IsDir() {
		return installer.Source{Dir: arg, Subdir: subdir}, nil
	}
	return installer.Source{ZipFile: arg, Subdir: subdir}, nil
}

// printResult says what an install or update did, and the skill's
// warnings and notes.
func printResult(c *cli, verb string, res *installer.Result) {
	w := c.done()
	from := originText(res.Record)
	if res.UpToDate {
		fmt.Fprintf(w, "%s is up to date (%s)\n", res.Name, from)
		return
	}
	if res.Replaced {
		from += ", replacing the version installed before"
	}
	fmt.Fprintf(w, "%s %s from %s\n", verb, res.Name, from)
	for _, om := range res.Omitted {
		fmt.Fprintf(w, "  left out: %s\n", om)
	}
	for _, d := range res.Diagnostics.AtLeast(diagnostics.Warning) {
		fmt.Fprintf(w, "  %s %s: %s\n", d.Level, d.Code, safeText(d.Message))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  %s\n", safeText(cliWords(n)))
	}
}

// printNext says which command the skill's dependencies need next.
func printNext(ctx context.Context, c *cli, kit *skillkit.Kit, name string) {
	st, err := kit.Deps().State(ctx, name)
	if err != nil {
		return
	}
	if len(st.Missing()) > 0 {
		fmt.Fprintf(c.done(), "next: skillkit deps %s\n", name)
	}
	switch {
	case st.Setup == "":
	case kit.SetupAllowed(ctx, name) == nil:
		fmt.Fprintf(c.done(), "next: skillkit deps --setup %s   (runs %s; asks first)\n", name, st.Setup)
	}
}

// originText shows where a record's files came from: source, URL, ref,
// subfolder and commit.
func originText(r registry.Record) string {
	from := string(r.Source)
	if r.URL != "" {
		from += " " + r.URL
	}
	if r.Ref != "" {
		from += " @" + r.Ref
	}
	if r.Subdir != "" {
		from += " (" + r.Subdir + ")"
	}
	if r.Commit != "" {
		from += " commit " + short(r.Commit)
	}
	return from
}

// progress draws one line that each event rewrites, on a terminal only,
// cut to the terminal's width so it never wraps.
type progress struct {
	w     io.Writer
	width int // of the terminal; 0 means 80
	last  int // length of the line drawn
}

// newProgress draws on c's stderr when it is a terminal, and not under
// --quiet.
func newProgress(c *cli) *progress {
	if c.quiet || !isTerminal(c.stderr) {
		return &progress{}
	}
	return &progress{w: c.stderr, width: c.width()}
}

func (p *progress) event(e installer.Event) {
	if p == nil || p.w == nil {
		return
	}
	line := ""
	if !e.Done {
		name := e.Skill
		if name == "" {
			name = e.Source
		}
		width := p.width
		if width <= 0 {
			width = 80
		}
		line = cut(safeText(fmt.Sprintf("[%3d%%] %s: %s %s", e.Percent, name, e.Step, oneLine(e.Message))), width-1)
	}
	pad := ""
	if n := displayWidth(line); n < p.last {
		pad = strings.Repeat(" ", p.last-n)
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	if e.Done {
		fmt.Fprint(p.w, "\r")
	}
	p.last = displayWidth(line)
}

// gitHubSource builds the source of a GitHub shorthand match; --ref and
// --path, when given, must agree with what the shorthand says.
func gitHubSource(m []string, ref, subdir string) (installer.Source, error) {
	src := installer.Source{Git: "https://github.com/" + m[1] + "/" + m[2], Ref: m[4], Subdir: strings.TrimPrefix(m[3], "/")}
	for _, f := range []struct {
		flag, given string
		into        *string
	}{{"--ref", ref, &src.Ref}, {"--path", subdir, &src.Subdir}} {
		switch {
		case f.given == "":
		case *f.into == "":
			*f.into = f.given
		case *f.into != f.given:
			return installer.Source{}, fmt.Errorf("%s %s differs from the source's %s", f.flag, f.given, *f.into)
		}
	}
	return src, nil
}
