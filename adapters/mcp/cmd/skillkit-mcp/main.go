// Command skillkit-mcp serves a skills folder over the Model Context
// Protocol on standard input and output: the skill tools (read_skill,
// read_skill_file and, when a compute-entry skill can run, execute_skill;
// skill_manage with -manage) and the skills themselves through MCP's
// Skills extension (io.modelcontextprotocol/skills: skills/list,
// skills/get, and every skill file under skill:// through resources/read).
// The skills catalog goes to the client as the server's instructions.
//
// Usage:
//
//	skillkit-mcp [-dir DIR] [-tool NAME]... [-manage]
//
// DIR is the skills folder (default $SKILLKIT_DIR, else ./skills). It
// serves what one agent may read: the skills its visibility rules show
// (-tool names the client's tools that skills' requires_tools and
// fallback_for_tools conditions are checked against) and the hidden ones
// it may read by name; disabled skills are not served, nor are
// infrastructure files (skill.config.yaml, .env, package.json, .venv/, ...)
// and secrets. The skills are those found at start; file contents are read
// when asked for. Standard output carries the protocol; diagnostics and
// logs go to standard error. See docs/mcp-skills.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
	mcptools "github.com/skillkit-go/skillkit/adapters/mcp"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// version is reported to MCP clients in the initialize handshake.
const version = "0.1.0"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], &mcp.StdioTransport{}, os.Stderr, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "skillkit-mcp:", err)
		stop()
		os.Exit(1)
	}
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return fmt.Sprint(*l) }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// run serves the skills folder args name on transport until the client
// disconnects or ctx ends; log receives diagnostics and server logs.
func run(ctx context.Context, args []string, transport mcp.Transport, log io.Writer, getenv func(string) string) error {
	flags := flag.NewFlagSet("skillkit-mcp", flag.ContinueOnError)
	flags.SetOutput(log)
	dir := flags.String("dir", "", "the skills folder (default $SKILLKIT_DIR, else ./skills)")
	var hostTools listFlag
	flags.Var(&hostTools, "tool", "a tool the client's agent has, for skills' tool conditions (repeatable)")
	manage := flags.Bool("manage", false, "offer skill_manage, with which the client's agent writes skills into the folder")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	if *dir == "" {
		*dir = getenv("SKILLKIT_DIR")
	}
	if *dir == "" {
		*dir = "skills"
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		return fmt.Errorf("the skills folder %s does not exist", *dir)
	}
	logger := slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: *dir, Logger: logger, DisableSkillManage: !*manage, ScanOnOpen: true, Getenv: getenv})
	if err != nil {
		return err
	}
	defer kit.Close()
	diags, err := kit.Doctor(ctx)
	if err != nil {
		return err
	}
	for _, d := range diags.AtLeast(diagnostics.Warning) {
		fmt.Fprintln(log, d)
	}
	server, err := newServer(ctx, kit, tools.Agent{Tools: hostTools}, log, logger)
	if err != nil {
		return err
	}
	err = server.Run(ctx, transport)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}

// newServer serves what agent may read in kit: its tools, its catalog as
// the instructions, and its skills through the Skills extension. The
// toolset's warnings go to log, the server's to logger.
func newServer(ctx context.Context, kit *skillkit.Kit, agent tools.Agent, log io.Writer, logger *slog.Logger) (*mcp.Server, error) {
	ts, err := kit.Toolset(ctx, agent)
	if err != nil {
		return nil, err
	}
	for _, w := range ts.Warnings {
		fmt.Fprintln(log, "warning:", w)
	}
	instructions := ts.Prompt
	withheld, err := keyless(ctx, kit, ts)
	if err != nil {
		return nil, err
	}
	if len(withheld) > 0 {
		names := strings.Join(withheld, ", ")
		fmt.Fprintf(log, "skillkit-mcp: compute skills withheld from execute_skill: %s: this server has no secret key to open their secrets; "+
			"set SKILL_SECRET_KEY in the \"env\" of this server in the MCP client's configuration (docs/mcp-skills.md)\n", names)
		instructions += fmt.Sprintf("\n\nNote: the skills %s cannot run here: the server was started without the secret key "+
			"(SKILL_SECRET_KEY) that opens their secrets. Their instructions can still be read. To run them, the person who "+
			"configures this MCP server must add SKILL_SECRET_KEY to its env in the client's configuration.\n", names)
	}
	return mcptools.NewSkillsServer(
		&mcp.Implementation{Name: "skillkit-mcp", Version: version},
		ts.Tools, mcptools.KitSkills(kit, agent),
		&mcp.ServerOptions{Instructions: instructions, Logger: logger},
		&mcptools.SkillsOptions{Logger: logger})
}

// keyless returns the compute-entry skills the agent may read that cannot
// run only because no secret key is configured (secrets.ErrNoKey): MCP
// clients start servers with the environment their configuration gives,
// which often lacks SKILL_SECRET_KEY.
func keyless(ctx context.Context, kit *skillkit.Kit, ts tools.Toolset) ([]string, error) {
	if ts.Visibility == nil {
		return nil, nil
	}
	exec, err := kit.Executor(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range ts.Visibility.Readable() {
		if s.Class == skill.ClassComputeEntry && errors.Is(exec.Check(ctx, s.Name), secrets.ErrNoKey) {
			names = append(names, s.Name)
		}
	}
	return names, nil
}
