package confine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// proxy serves one confined program's HTTP proxy listener: CONNECT for
// TLS and absolute-form requests for plain HTTP, to allowed hosts only.
type proxy struct {
	ln    net.Listener
	allow func(host string, port int) bool
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func serveProxy(ln net.Listener, allow func(string, int) bool) *proxy {
	d := &net.Dialer{Timeout: 30 * time.Second}
	p := &proxy{ln: ln, allow: allow, dial: d.DialContext, conns: map[net.Conn]struct{}{}}
	p.wg.Go(p.accept)
	return p
}

func (p *proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.track(c, true)
		p.wg.Go(func() {
			defer p.track(c, false)
			defer c.Close()
			p.serve(c)
		})
	}
}

func (p *proxy) track(c net.Conn, add bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if add {
		p.conns[c] = struct{}{}
	} else {
		delete(p.conns, c)
	}
}

// close stops the listener and every connection still open.
func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *proxy) serve(c net.Conn) {
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	host, port, err := target(req)
	if err != nil {
		refuse(c, http.StatusBadRequest, err.Error())
		return
	}
	upstream, err := p.connect(host, port)
	if err != nil {
		refuse(c, http.StatusForbidden, err.Error())
		return
	}
	defer upstream.Close()
	p.track(upstream, true)
	defer p.track(upstream, false)
	if req.Method == http.MethodConnect {
		if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			return
		}
	} else {
		// One request per connection: the next may go to another host.
		req.RequestURI = ""
		req.URL.Scheme, req.URL.Host = "", ""
		req.Close = true
		req.Header.Del("Proxy-Connection")
		req.Header.Del("Proxy-Authorization")
		if err := req.Write(upstream); err != nil {
			return
		}
	}
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(upstream, br)
		if tc, ok := upstream.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		close(done)
	}()
	_, _ = io.Copy(c, upstream)
	c.Close()
	<-done
}

// target is where a proxied request goes.
func target(req *http.Request) (string, int, error) {
	hostport := req.Host
	defPort := "80"
	if req.Method == http.MethodConnect {
		defPort = "443"
	} else if req.URL == nil || req.URL.Host == "" || req.URL.Scheme != "http" {
		return "", 0, fmt.Errorf("not a proxy request: %s %s", req.Method, req.RequestURI)
	} else {
		hostport = req.URL.Host
	}
	host, portStr, err := net.SplitHostPort(hostport)
	if err != nil {
		host, portStr = strings.Trim(hostport, "[]"), defPort
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 || port > 65535 || !validHost(host) {
		return "", 0, fmt.Errorf("bad address %q", hostport)
	}
	return host, port, nil
}

// validHost accepts an IP address or a DNS name's characters.
func validHost(h string) bool {
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	if h == "" || len(h) > 253 {
		return false
	}
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// connect dials host:port when the skill may reach it. A name that
// resolves to an address of the host's own or private networks is refused
// (a public name must not lead to the host's services); such an address is
// reachable only when declared as itself, or as localhost or a name under
// .localhost, which always mean this machine.
func (p *proxy) connect(host string, port int) (net.Conn, error) {
	if !p.allow(host, port) {
		return nil, fmt.Errorf("skillkit: %s:%d is not in the skill's network permissions", host, port)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return p.dial(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return p.dial(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("skillkit: resolve %s: %w", host, err)
	}
	for _, a := range addrs {
		if internal(a) {
			return nil, fmt.Errorf("skillkit: %s resolves to %s, an address of this machine or a private network; declare the address itself to reach it", host, a)
		}
	}
	var last error
	for _, a := range addrs {
		c, err := p.dial(ctx, "tcp", net.JoinHostPort(a.Unmap().String(), strconv.Itoa(port)))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, fmt.Errorf("skillkit: connect to %s:%d: %w", host, port, last)
}

func internal(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast() ||
		netip.MustParsePrefix("100.64.0.0/10").Contains(a) // carrier-grade NAT, cloud metadata neighbours
}

func refuse(c net.Conn, code int, msg string) {
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s\n",
		code, http.StatusText(code), len(msg)+1, msg)
}
