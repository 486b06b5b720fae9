// Command mcp-server serves the skills of one folder as MCP tools over
// standard input and output: read_skill, read_skill_file and, when a
// compute-entry skill can run, execute_skill. The skills catalog goes to the
// client as the server's instructions.
//
// Usage:
//
//	mcp-server [-skills DIR]
//
// DIR defaults to ../skills (the bundled example skills when run from this
// folder). Standard output carries the protocol; diagnostics and logs go to
// standard error.
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
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	mcptools "github.com/skillkit-go/skillkit/adapters/mcp"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/examples/internal/skillset"
)

// version is reported to MCP clients in the initialize handshake.
const version = "0.1.0"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], &mcp.StdioTransport{}, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-server:", err)
		stop()
		os.Exit(1)
	}
}

// run loads the skills named by args and serves them on transport until the
// client disconnects or ctx ends; log receives diagnostics and server logs.
func run(ctx context.Context, args []string, transport mcp.Transport, log io.Writer) error {
	flags := flag.NewFlagSet("mcp-server", flag.ContinueOnError)
	flags.SetOutput(log)
	dir := flags.String("skills", "../skills", "the skills folder to serve")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	set, err := skillset.Load(ctx, *dir)
	if err != nil {
		return err
	}
	defer set.Close()
	for _, d := range set.Diagnostics.AtLeast(diagnostics.Warning) {
		fmt.Fprintln(log, d)
	}
	server, err := mcptools.NewServer(
		&mcp.Implementation{Name: "skillkit-skills", Version: version},
		set.Tools,
		&mcp.ServerOptions{
			Instructions: set.Catalog,
			Logger:       slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn})),
		})
	if err != nil {
		return err
	}
	err = server.Run(ctx, transport)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}
