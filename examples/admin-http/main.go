package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/installer"
)

func main() {
	dir := flag.String("skills", "skills", "the skills folder")
	addr := flag.String("addr", "127.0.0.1:8080", "the address to listen on")
	token := flag.String("token", os.Getenv("ADMIN_TOKEN"), "require this bearer token (default $ADMIN_TOKEN)")
	noToken := flag.Bool("no-token", false, "serve without a token (only on a machine where nobody else can reach the address)")
	flag.Parse()
	if *token == "" && !*noToken {
		fmt.Fprintln(os.Stderr, "admin-http: give -token (or ADMIN_TOKEN); -no-token serves without one")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := serve(ctx, *dir, *addr, *token); err != nil {
		fmt.Fprintln(os.Stderr, "admin-http:", err)
		os.Exit(1)
	}
}

// newServer opens the Kit with the progress of installs and dependency
// installs wired to the events stream.
func newServer(ctx context.Context, dir, token string, getenv func(string) string, log *slog.Logger, iopts *installer.Options) (*server, error) {
	events := newBroker()
	opts := installer.Options{}
	if iopts != nil {
		opts = *iopts
	}
	opts.Progress = events.publish
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Installer: &opts, Deps: &deps.Options{Progress: events.publish},
		Getenv: getenv, Logger: log})
	if err != nil {
		return nil, err
	}
	return &server{kit: kit, events: events, getenv: getenv, token: token}, nil
}

func serve(ctx context.Context, dir, addr, token string) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	s, err := newServer(ctx, dir, token, os.Getenv, log, nil)
	if err != nil {
		return err
	}
	defer s.kit.Close()
	if token == "" {
		log.Warn("no -token: anyone who reaches " + addr + " can install and run skills")
	}
	srv := &http.Server{Addr: addr, Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Info("serving the skill admin API", "addr", addr, "skills", s.kit.Dir())
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
