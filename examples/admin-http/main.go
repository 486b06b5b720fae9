package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/installer"
)

// DefaultPrefix is where the API is mounted unless -prefix says otherwise.
const DefaultPrefix = "/admin/skills"

// config is what the flags set.
type config struct {
	dir    string
	addr   string
	token  string   // empty: one is generated and printed once
	prefix string   // where the routes are mounted
	hosts  []string // more names the server answers to, besides its address
}

func main() {
	var cfg config
	var hosts string
	flag.StringVar(&cfg.dir, "skills", "skills", "the skills folder")
	flag.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "the address to listen on")
	flag.StringVar(&cfg.token, "token", os.Getenv("ADMIN_TOKEN"), "the bearer token every request must carry (default $ADMIN_TOKEN; when empty, a random one is generated and printed once)")
	flag.StringVar(&cfg.prefix, "prefix", DefaultPrefix, "the path the routes are mounted under; /admin/netaclaw/skill serves UIs written for NetaClaw's skill admin API")
	flag.StringVar(&hosts, "host", "", "comma-separated host names the server also answers to (a DNS name, a reverse proxy's); requests naming any other host are refused")
	flag.Parse()
	if hosts != "" {
		cfg.hosts = strings.Split(hosts, ",")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "admin-http:", err)
		os.Exit(1)
	}
}

// checkPrefix accepts a clean absolute path without a trailing slash.
func checkPrefix(p string) error {
	if !strings.HasPrefix(p, "/") || p != "/" && strings.HasSuffix(p, "/") || strings.ContainsAny(p, " {}") || strings.Contains(p, "//") || strings.Contains(p, "/.") {
		return fmt.Errorf("-prefix %q: give a clean absolute path such as %s", p, DefaultPrefix)
	}
	return nil
}

// run listens on cfg.addr and serves the API until ctx is done. Without a
// token it generates one and prints it once to out. started, when not nil,
// gets the address the server listens on.
func run(ctx context.Context, cfg config, out io.Writer, started func(net.Addr)) error {
	if err := checkPrefix(cfg.prefix); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(out, nil))
	if cfg.token == "" {
		cfg.token = rand.Text()
		fmt.Fprintf(out, "admin-http: no -token or ADMIN_TOKEN given; this run's token, not shown again: %s\n"+
			"admin-http: send it as \"Authorization: Bearer <token>\", or give it as the password (any user name) when a browser opens the page\n", cfg.token)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	hosts, err := hostNames(ln.Addr().(*net.TCPAddr), cfg.hosts)
	if err != nil {
		ln.Close()
		return err
	}
	s, err := newServer(ctx, cfg.dir, os.Getenv, log, nil, nil)
	if err != nil {
		ln.Close()
		return err
	}
	defer s.kit.Close()
	s.token, s.prefix, s.hosts = cfg.token, cfg.prefix, hosts
	srv := &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Info("serving the skill admin API", "addr", ln.Addr().String(), "prefix", cfg.prefix, "skills", s.kit.Dir(),
		"page", "http://"+ln.Addr().String()+strings.TrimSuffix(cfg.prefix, "/")+"/")
	if started != nil {
		started(ln.Addr())
	}
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newServer opens the Kit with the progress of installs and dependency
// installs wired to the events stream. The caller sets the token, prefix
// and host names.
func newServer(ctx context.Context, dir string, getenv func(string) string, log *slog.Logger, iopts *installer.Options, dopts *deps.Options) (*server, error) {
	events := newBroker()
	opts, depsOpts := installer.Options{}, deps.Options{}
	if iopts != nil {
		opts = *iopts
	}
	if dopts != nil {
		depsOpts = *dopts
	}
	opts.Progress, depsOpts.Progress = events.publish, events.publish
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Installer: &opts, Deps: &depsOpts, Getenv: getenv, Logger: log})
	if err != nil {
		return nil, err
	}
	return &server{kit: kit, events: events, getenv: getenv}, nil
}

// hostNames returns the host names that name a server listening on addr,
// as a Host header writes them (lower case, IPv6 without brackets), each
// with the port: the address itself; localhost, 127.0.0.1 and ::1 when it
// listens on a loopback or on every address; every address of this
// machine's interfaces when it listens on every address; and extra.
func hostNames(addr *net.TCPAddr, extra []string) (map[string]bool, error) {
	port := fmt.Sprint(addr.Port)
	names := map[string]bool{}
	add := func(host string) {
		names[net.JoinHostPort(strings.ToLower(strings.TrimSuffix(host, ".")), port)] = true
	}
	if addr.IP.IsLoopback() || addr.IP.IsUnspecified() {
		for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
			add(h)
		}
	}
	if !addr.IP.IsUnspecified() {
		add(addr.IP.String())
	} else {
		ifaces, err := net.InterfaceAddrs()
		if err != nil {
			return nil, fmt.Errorf("list this machine's addresses: %w", err)
		}
		for _, a := range ifaces {
			if n, ok := a.(*net.IPNet); ok {
				add(n.IP.String())
			}
		}
	}
	for _, h := range extra {
		if h = strings.TrimSpace(h); h != "" {
			add(h)
		}
	}
	return names, nil
}
