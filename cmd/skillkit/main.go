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
	"text/tabwriter"
)

// Exit codes.
const (
	exitOK      = 0 // success, nothing at error level
	exitFailure = 1 // the command ran and found errors, or failed
	exitUsage   = 2 // bad command line
)

// cli is what a command may touch: its streams and environment, so tests can
// run commands in-process.
type cli struct {
	stdout io.Writer
	stderr io.Writer
	stdin  io.Reader
	getenv func(string) string
	// interactive is true when a person at a terminal answers questions on
	// stdin; without it, commands that must ask need --yes.
	interactive bool
	// logger receives the library's audit and debug lines (SKILLKIT_LOG);
	// nil discards them.
	logger *slog.Logger
}

// command is one subcommand. Each lives in its own file.
type command struct {
	name    string
	args    string // the synopsis after the name
	summary string
	help    string // longer text for "skillkit help NAME"
	flags   func(fs *flag.FlagSet) any
	run     func(ctx context.Context, c *cli, opts any, args []string) int
}

// commands lists every subcommand in the order help shows them.
func commands() []*command {
	return []*command{
		validateCommand(),
		inspectCommand(),
		scanCommand(),
		listCommand(),
		doctorCommand(),
		promptCommand(),
		readCommand(),
		runCommand(),
		installCommand(),
		depsCommand(),
		uninstallCommand(),
		updateCommand(),
		outdatedCommand(),
		pinCommand(),
		unpinCommand(),
		enableCommand(),
		disableCommand(),
		secretsCommand(),
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	c := &cli{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, getenv: os.Getenv,
		interactive: isTerminal(os.Stdin) && isTerminal(os.Stderr)}
	code := run(ctx, os.Args[1:], c)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, c *cli) int {
	if c.logger == nil {
		logger, err := logTo(c.stderr, c.getenv("SKILLKIT_LOG"))
		if err != nil {
			fmt.Fprintf(c.stderr, "skillkit: SKILLKIT_LOG: %v\n", err)
			return exitUsage
		}
		c.logger = logger
	}
	if len(args) == 0 {
		usage(c.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if cmd := find(args[1]); cmd != nil {
				commandUsage(c.stdout, cmd)
				return exitOK
			}
			fmt.Fprintf(c.stderr, "skillkit: unknown command %q\n", args[1])
			return exitUsage
		}
		usage(c.stdout)
		return exitOK
	}
	cmd := find(name)
	if cmd == nil {
		fmt.Fprintf(c.stderr, "skillkit: unknown command %q\n\n", name)
		usage(c.stderr)
		return exitUsage
	}
	fs := flag.NewFlagSet("skillkit "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var opts any
	if cmd.flags != nil {
		opts = cmd.flags(fs)
	}
	rest, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		commandUsage(c.stdout, cmd)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit %s: %v\n", cmd.name, err)
		commandUsage(c.stderr, cmd)
		return exitUsage
	}
	return cmd.run(ctx, c, opts, rest)
}

func find(name string) *command {
	for _, cmd := range commands() {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

// parseInterspersed parses flags wherever they appear among the arguments,
// so "validate ./skills --json" works like "validate --json ./skills".
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `skillkit finds, validates, lists, installs and runs Agent Skills.

Usage:
  skillkit COMMAND [flags] [args]

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, cmd := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", cmd.name, cmd.summary)
	}
	tw.Flush()
	fmt.Fprint(w, `
Run "skillkit help COMMAND" for a command's flags.
Exit codes: 0 success, 1 errors found or the command failed, 2 bad usage.
`)
}

func commandUsage(w io.Writer, cmd *command) {
	fmt.Fprintf(w, "Usage: skillkit %s %s\n\n%s\n", cmd.name, cmd.args, cmd.summary)
	if cmd.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(cmd.help))
	}
	if cmd.flags != nil {
		fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
		cmd.flags(fs)
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// logTo returns a logger writing text lines to w from level on ("debug",
// "info", "warn", "error"); "" means none.
func logTo(w io.Writer, level string) (*slog.Logger, error) {
	if level == "" {
		return nil, nil
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, err
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
