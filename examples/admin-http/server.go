package main

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// Limits of what a request may send.
const (
	maxJSONBody  = 1 << 20  // a JSON request
	maxZIPUpload = 50 << 20 // an uploaded ZIP, the installer's own limit
)

// server is the skill admin API on top of a Kit, and the page that uses
// it. Every answer but the page and the event stream is an envelope,
// {"code":1000,"message":"success","data":...} or
// {"code":1001,"message":"why"}, with an HTTP status that says the same.
type server struct {
	kit    *skillkit.Kit
	events *broker
	getenv func(string) string // the secret keys, for rotateSecrets
	token  string              // every request carries it, as a bearer token or a Basic password
	prefix string              // where the routes are mounted
	hosts  map[string]bool     // the Host values (name:port) that name this server
}

// routes are the API's routes, "METHOD /path" under the prefix; "GET /"
// is the page, at the prefix with a trailing slash.
func (s *server) routes() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /":               s.page,
		"POST /page":          s.pageList,
		"POST /list":          s.list,
		"GET /info":           s.info,
		"GET /metas":          s.metas,
		"GET /content":        s.content,
		"GET /diagnostics":    s.diagnostics,
		"GET /envSchema":      s.envSchema,
		"GET /events":         s.stream,
		"POST /install":       s.install,
		"POST /uploadInstall": s.uploadInstall,
		"POST /uninstall":     s.uninstall,
		"POST /update":        s.update,
		"POST /setStatus":     s.setStatus,
		"POST /checkUpdates":  s.checkUpdates,
		"POST /secrets":       s.saveSecrets,
		"POST /rotateSecrets": s.rotateSecrets,
		"POST /installDeps":   s.installDeps,
		"POST /create":        s.create,
		"POST /edit":          s.edit,
		"POST /delete":        s.delete,
		"POST /execute":       s.execute,
		"POST /agentWarnings": s.agentWarnings,
	}
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	for route, h := range s.routes() {
		method, path, _ := strings.Cut(route, " ")
		if path == "/" {
			path = "/{$}" // the page alone, not every path below it
		}
		mux.HandleFunc(method+" "+strings.TrimSuffix(s.prefix, "/")+path, h)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, fmt.Errorf("no route %s %s", r.Method, r.URL.Path))
	})
	return s.authorize(mux)
}

// authorize refuses, before any route runs, the page included:
//
//   - a Host that does not name this server (its address, or a name given
//     with -host): a page on another site whose name was rebound to this
//     machine's address (DNS rebinding) sends its own name, so its requests
//     stop here even when its Origin agrees with its Host;
//   - a foreign Origin, a request a browser marks as coming from another
//     site (Sec-Fetch-Site), and (in decode) a body not declared as JSON,
//     which a page cannot send across origins without a preflight: a
//     browser attaches a Basic password it remembers to every request to
//     this server, whichever page makes it;
//   - a request without the token, as "Authorization: Bearer TOKEN" or as
//     the password of HTTP Basic authentication (any user name), which is
//     how a browser sends it: it asks once, and the page's script never
//     holds it.
//
// An admin API installs and runs code: a host puts it behind its own
// authentication too.
func (s *server) authorize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if !s.hosts[hostKey(r.Host)] {
			fail(w, http.StatusMisdirectedRequest, fmt.Errorf("host %q is not this server", r.Host))
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || u.Host != r.Host {
				fail(w, http.StatusForbidden, fmt.Errorf("cross-origin request from %q refused", origin))
				return
			}
		}
		// "none": a person typed the address or opened a bookmark.
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			fail(w, http.StatusForbidden, fmt.Errorf("a request from another site (%s) refused; open this server's address directly", site))
			return
		}
		if !s.hasToken(r) {
			w.Header().Add("WWW-Authenticate", "Bearer")
			w.Header().Add("WWW-Authenticate", `Basic realm="skill admin", charset="UTF-8"`)
			fail(w, http.StatusUnauthorized, errors.New("missing or wrong token: send it as a bearer token, or as the password of Basic authentication"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hasToken reports whether r carries the token, as a bearer token or as a
// Basic password. An empty token, however it got there, opens nothing.
func (s *server) hasToken(r *http.Request) bool {
	got, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !found {
		_, got, found = r.BasicAuth()
	}
	return found && s.token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

// hostKey writes a Host header as hostNames does: lower case, without a
// trailing dot, with the port (80 when it has none: plain HTTP).
func hostKey(hostport string) string {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80"
	}
	return net.JoinHostPort(strings.ToLower(strings.TrimSuffix(host, ".")), port)
}

type envelope struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func ok(w http.ResponseWriter, data any) {
	write(w, http.StatusOK, envelope{Code: 1000, Message: "success", Data: data})
}

func fail(w http.ResponseWriter, status int, err error) {
	write(w, status, envelope{Code: 1001, Message: err.Error()})
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// decode reads a JSON body of at most maxJSONBody bytes into v, refusing
// unknown fields so a typo is an error, not a silent default.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		fail(w, http.StatusUnsupportedMediaType, errors.New("send the body as Content-Type: application/json"))
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		fail(w, http.StatusBadRequest, fmt.Errorf("bad request body: %w", err))
		return false
	}
	return true
}

// statusOf maps the library's errors to HTTP statuses.
func statusOf(err error) int {
	switch {
	case errors.Is(err, deps.ErrNotAllowed), errors.Is(err, authoring.ErrNotAllowed):
		return http.StatusForbidden
	case errors.Is(err, installer.ErrNotInstalled), errors.Is(err, deps.ErrNotInstalled), errors.Is(err, authoring.ErrNotInstalled),
		errors.Is(err, secrets.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, installer.ErrExists), errors.Is(err, installer.ErrModified), errors.Is(err, installer.ErrPinned),
		errors.Is(err, authoring.ErrExists), errors.Is(err, authoring.ErrPinned), errors.Is(err, authoring.ErrQueueFull):
		return http.StatusConflict
	case errors.Is(err, installer.ErrInvalidSource), errors.Is(err, installer.ErrHostNotAllowed),
		errors.Is(err, installer.ErrRejected), errors.Is(err, installer.ErrLimit), errors.Is(err, installer.ErrInvalidSkill),
		errors.Is(err, installer.ErrScanRejected), errors.Is(err, installer.ErrNotUpdatable), errors.Is(err, installer.ErrGit),
		errors.Is(err, authoring.ErrInvalidContent), errors.Is(err, authoring.ErrScanRejected), errors.Is(err, deps.ErrInvalid), errors.Is(err, deps.ErrInvalidSkill),
		errors.Is(err, skill.ErrInvalidName), errors.Is(err, skill.ErrInvalidEnvName), errors.Is(err, secrets.ErrValueTooLong):
		return http.StatusBadRequest
	case errors.Is(err, secrets.ErrNoKey):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// skillFor finds the skill the query parameter param names, answering 400
// or 404 itself.
func (s *server) skillFor(w http.ResponseWriter, r *http.Request, param string) (*skill.Skill, bool) {
	name := r.URL.Query().Get(param)
	if name == "" {
		fail(w, http.StatusBadRequest, fmt.Errorf("the %s parameter is required", param))
		return nil, false
	}
	sk, found, err := s.kit.Skill(r.Context(), name)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return nil, false
	}
	if !found {
		fail(w, http.StatusNotFound, fmt.Errorf("no skill named %q", name))
		return nil, false
	}
	return sk, true
}

// orEmpty turns a nil slice into an empty one, so JSON says [] not null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
