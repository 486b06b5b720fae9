package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"
)

// Exit codes, the same for every command (docs/cli.md, "Exit codes").
const (
	exitOK       = 0 // success, nothing at error level
	exitFailure  = 1 // the command ran and found errors, or failed
	exitUsage    = 2 // bad command line
	exitNeedsYes = 3 // a question needs a person's yes: no terminal, no --yes
)

// worse is the exit code of a command that ended two steps with a and b: a
// failure wins over a question nobody answered, which wins over success.
func worse(a, b int) int {
	if a == exitFailure || b == exitFailure {
		return exitFailure
	}
	return max(a, b)
}

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
	// columns is the width of the terminal output goes to; 0 when none is,
	// and then $COLUMNS, else 80, is the width (see width).
	columns int
	// logger receives the library's audit and debug lines (SKILLKIT_LOG, or
	// debug with --verbose); nil discards them.
	logger *slog.Logger
	// quiet (--quiet) keeps only errors and the data asked for.
	quiet bool
	// verbose (--verbose) adds the library's debug lines on stderr.
	verbose bool
	// db is the --db flag of the command (db.go); closers close what the
	// command opened.
	db      string
	closers []func()
	// publishers is the --publishers flag: the publishers file (allowed signers, or JSON) of the
	// publishers the host trusts (else $SKILLKIT_PUBLISHERS).
	publishers string
	// fleet holds --fleet-key, --fleet-trust and --fleet-unsigned (db.go).
	fleet fleetFlags
	// argv is the command line as given, without the program's name.
	argv []string
}

// command is one subcommand. Each lives in its own file.
type command struct {
	name    string
	args    string // the synopsis after the name
	summary string
	help    string // longer text for "skillkit help NAME"
	flags   func(fs *flag.FlagSet) any
	run     func(ctx context.Context, c *cli, opts any, args []string) int
	// raw commands get their arguments as given, flags unparsed, and
	// "help NAME" runs them too: the lean build's commands that the full
	// skillkit runs (lean.go).
	raw bool
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
		toolCommand(),
		searchCommand(),
		runCommand(),
		usageCommand(),
		installCommand(),
		depsCommand(),
		uninstallCommand(),
		approveCommand(),
		proposalsCommand(),
		updateCommand(),
		historyCommand(),
		rollbackCommand(),
		syncCommand(),
		outdatedCommand(),
		pinCommand(),
		unpinCommand(),
		enableCommand(),
		disableCommand(),
		secretsCommand(),
		versionCommand(),
		mcpCommand(),
		fleetCommand(),
		signCommand(),
	}
}

func main() {
	ctx, stop := interruptible()
	code := run(ctx, os.Args[1:], osCLI(os.Stdin, os.Stdout, os.Stderr))
	stop()
	os.Exit(code)
}

// osCLI is the cli of a process: a person answers questions only when
// stdin and stderr are both terminals, and tables fit the terminal stdout
// (else stderr) is.
func osCLI(stdin, stdout, stderr *os.File) *cli {
	c := &cli{stdout: stdout, stderr: stderr, stdin: stdin, getenv: os.Getenv,
		interactive: isTerminal(stdin) && isTerminal(stderr)}
	for _, f := range []*os.File{stdout, stderr} {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			c.columns = w
			break
		}
	}
	return c
}

func run(ctx context.Context, args []string, c *cli) int {
	c.argv = args
	global, args, err := splitGlobal(args)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit: %v\n", err)
		return exitUsage
	}
	if len(args) == 0 {
		usage(c.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-version", "--version":
		name, args = "version", append([]string{"version"}, args[1:]...)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if cmd := find(args[1]); cmd != nil && cmd.raw {
				return cmd.run(ctx, c, nil, args[1:])
			} else if cmd != nil {
				commandUsage(c.stdout, cmd)
				return exitOK
			}
			fmt.Fprintf(c.stderr, "skillkit: unknown command %q%s\n", args[1], didYouMean(suggest(args[1], commandNames())))
			return exitUsage
		}
		usage(c.stdout)
		return exitOK
	}
	cmd := find(name)
	if cmd == nil {
		fmt.Fprintf(c.stderr, "skillkit: unknown command %q%s\n\n", name, didYouMean(suggest(name, commandNames())))
		usage(c.stderr)
		return exitUsage
	}
	if cmd.raw {
		return cmd.run(ctx, c, nil, args[1:])
	}
	fs := newFlagSet(cmd, c)
	var opts any
	if cmd.flags != nil {
		opts = cmd.flags(fs)
	}
	addDBFlag(fs, &c.db)
	if fs.Lookup("dir") != nil || cmd.name == "sign" {
		fs.StringVar(&c.publishers, "publishers", "", "the publishers `FILE` (an allowed-signers file, or JSON also listing Sigstore identities) whose signed commits, tags and archives are trusted (default $SKILLKIT_PUBLISHERS)")
	}
	c.fleet.register(fs)
	defer c.closeAll()
	rest, err := parseArgs(fs, append(global, args[1:]...))
	if errors.Is(err, flag.ErrHelp) {
		commandUsage(c.stdout, cmd)
		return exitOK
	}
	if err == nil && c.quiet && c.verbose {
		err = errors.New("--quiet and --verbose do not go together")
	}
	if err == nil && fs.Lookup("db") != nil && c.dbURL() != "" {
		err = checkDBURL(c.dbURL())
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "skillkit %s: %v\n", cmd.name, err)
		commandUsage(c.stderr, cmd)
		return exitUsage
	}
	if c.logger == nil {
		level := c.getenv("SKILLKIT_LOG")
		if c.verbose {
			level = "debug"
		}
		if c.logger, err = logTo(c.stderr, level); err != nil {
			fmt.Fprintf(c.stderr, "skillkit: SKILLKIT_LOG: %v\n", err)
			return exitUsage
		}
	}
	return cmd.run(ctx, c, opts, rest)
}

func commandNames() []string {
	var names []string
	for _, cmd := range commands() {
		names = append(names, cmd.name)
	}
	return names
}

func find(name string) *command {
	for _, cmd := range commands() {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprint(w, `skillkit finds, validates, lists, installs and runs Agent Skills.

Usage:
  skillkit [global flags] COMMAND [flags] [args]

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, cmd := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", cmd.name, cmd.summary)
	}
	tw.Flush()
	fmt.Fprint(w, `
Global flags, before or after the command:
  --dir DIR    the skills folder (default $SKILLKIT_DIR, else ./skills),
               for the commands that have one
  --db URL     with --dir: a database the replicas share (default $SKILLKIT_DB)
  --publishers FILE
               with --dir, and for sign: the publishers file (an
               allowed-signers file, or JSON also listing Sigstore
               identities and their trusted root) whose signed git commits,
               tags and ZIP archives are trusted (default
               $SKILLKIT_PUBLISHERS); it must lie outside the skills folder
  --json       print JSON, for the commands that print data
  --quiet      print only errors and the data asked for
  --verbose    also print debug lines on stderr (as SKILLKIT_LOG=debug)
  --version    print the version
  --           end the flags: what follows is arguments, even "-x"

Run "skillkit help COMMAND" for a command's flags.
Exit codes: 0 success, 1 errors found or the command failed, 2 bad usage,
3 a question needs a yes and there is no terminal (answer with --yes).
`)
}

func commandUsage(w io.Writer, cmd *command) {
	fmt.Fprintf(w, "Usage: skillkit %s %s\n\n%s\n", cmd.name, cmd.args, cmd.summary)
	if cmd.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(cmd.help))
	}
	fs := newFlagSet(cmd, &cli{})
	if cmd.flags != nil {
		cmd.flags(fs)
		addDBFlag(fs, new(string))
	}
	fmt.Fprintln(w, "\nFlags:")
	printFlags(w, fs)
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
