package main

import (
	"cmp"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// Limits of what a request may send.
const (
	maxJSONBody  = 1 << 20  // a JSON request
	maxZIPUpload = 50 << 20 // an uploaded ZIP, the installer's own limit
)

// server is the skill admin API on top of a Kit. Every answer is an
// envelope, {"code":1000,"message":"success","data":...} or
// {"code":1001,"message":"why"}, with an HTTP status that says the same.
type server struct {
	kit    *skillkit.Kit
	events *broker
	getenv func(string) string // the secret keys, for rotateSecrets
	token  string              // every request needs "Authorization: Bearer <token>"
	prefix string              // where the routes are mounted
	hosts  map[string]bool     // the Host values (name:port) that name this server
}

// routes are the API's routes, "METHOD /path" under the prefix.
func (s *server) routes() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
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
	}
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	for route, h := range s.routes() {
		method, path, _ := strings.Cut(route, " ")
		mux.HandleFunc(method+" "+strings.TrimSuffix(s.prefix, "/")+path, h)
	}
	return s.authorize(mux)
}

// authorize refuses, before any route runs:
//
//   - a Host that does not name this server (its address, or a name given
//     with -host): a page on another site whose name was rebound to this
//     machine's address (DNS rebinding) sends its own name, so its requests
//     stop here even when its Origin agrees with its Host;
//   - a foreign Origin, and (in decode) a body not declared as JSON, which
//     a page cannot send across origins without a preflight;
//   - a request without the bearer token, whatever the route.
//
// An admin API installs and runs code: a host puts it behind its own
// authentication too.
func (s *server) authorize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		got, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !found || s.token == "" || subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			fail(w, http.StatusUnauthorized, errors.New("missing or wrong bearer token"))
			return
		}
		next.ServeHTTP(w, r)
	})
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
		errors.Is(err, authoring.ErrExists), errors.Is(err, authoring.ErrPinned):
		return http.StatusConflict
	case errors.Is(err, installer.ErrInvalidSource), errors.Is(err, installer.ErrHostNotAllowed),
		errors.Is(err, installer.ErrRejected), errors.Is(err, installer.ErrLimit), errors.Is(err, installer.ErrInvalidSkill),
		errors.Is(err, installer.ErrScanRejected), errors.Is(err, installer.ErrNotUpdatable), errors.Is(err, installer.ErrGit),
		errors.Is(err, authoring.ErrInvalidContent), errors.Is(err, deps.ErrInvalid), errors.Is(err, deps.ErrInvalidSkill),
		errors.Is(err, skill.ErrInvalidName), errors.Is(err, skill.ErrInvalidEnvName), errors.Is(err, secrets.ErrValueTooLong):
		return http.StatusBadRequest
	case errors.Is(err, secrets.ErrNoKey):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// skillFor finds the ?name= skill, answering 400 or 404 itself.
func (s *server) skillFor(w http.ResponseWriter, r *http.Request) (*skill.Skill, bool) {
	name := r.URL.Query().Get("name")
	if name == "" {
		fail(w, http.StatusBadRequest, errors.New("the name parameter is required"))
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

// meta is one skill as the admin UI lists it.
type meta struct {
	Name           string           `json:"name"`
	Description    string           `json:"description"`
	Classification skill.Class      `json:"classification"`
	Emoji          string           `json:"emoji,omitempty"`
	Tags           []string         `json:"tags,omitempty"`
	Category       string           `json:"category,omitempty"`
	Version        string           `json:"version,omitempty"`
	Hidden         bool             `json:"hidden"`
	Source         string           `json:"source"`
	Origin         string           `json:"origin,omitempty"` // github, git, zip, local, agent, from the registry
	URL            string           `json:"sourceUrl,omitempty"`
	Status         int              `json:"status"` // 1 enabled, 0 disabled
	Pinned         bool             `json:"pinned"`
	Fingerprint    string           `json:"fingerprint,omitempty"`
	InstalledAt    string           `json:"installedAt,omitempty"`
	Diagnostics    diagnostics.List `json:"diagnostics"`
}

func (s *server) metas(w http.ResponseWriter, r *http.Request) {
	recs, err := s.kit.Registry().List(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	l, err := s.kit.Loader(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	snap := l.Snapshot()
	diags := snap.Diagnostics()
	out := []meta{}
	for _, sk := range snap.Skills() {
		fm := sk.Frontmatter
		m := meta{Name: sk.Name, Description: sk.Description, Classification: sk.Class, Emoji: fm.Emoji,
			Tags: fm.Tags, Category: fm.Category, Version: fm.Version, Hidden: sk.Hidden(), Source: sk.Source,
			Status: 1, Diagnostics: orEmpty(diags.ForSkill(sk.Name))}
		for _, rec := range recs {
			if rec.Name == sk.Name {
				m.Origin, m.URL, m.Pinned, m.Fingerprint = string(rec.Source), rec.URL, rec.Pinned, rec.Fingerprint
				if !rec.Enabled {
					m.Status = 0
				}
				if !rec.InstalledAt.IsZero() {
					m.InstalledAt = rec.InstalledAt.UTC().Format("2006-01-02T15:04:05Z")
				}
			}
		}
		out = append(out, m)
	}
	ok(w, out)
}

func (s *server) content(w http.ResponseWriter, r *http.Request) {
	sk, found := s.skillFor(w, r)
	if !found {
		return
	}
	raw, err := sk.ReadFile(sk.File)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	body, err := sk.Body()
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	ok(w, map[string]any{"name": sk.Name, "content": string(raw), "body": body, "files": sk.Files, "references": sk.References})
}

func (s *server) diagnostics(w http.ResponseWriter, r *http.Request) {
	diags, err := s.kit.Doctor(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	if lv := r.URL.Query().Get("level"); lv != "" {
		level, err := diagnostics.ParseLevel(lv)
		if err != nil {
			fail(w, http.StatusBadRequest, err)
			return
		}
		diags = diags.AtLeast(level)
	}
	if name := r.URL.Query().Get("name"); name != "" {
		diags = diags.ForSkill(name)
	}
	ok(w, orEmpty(diags))
}

func (s *server) envSchema(w http.ResponseWriter, r *http.Request) {
	sk, found := s.skillFor(w, r)
	if !found {
		return
	}
	st, err := s.kit.Vault().Configured(r.Context(), sk.Name, sk.Env)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, map[string]any{"name": sk.Name, "envSchema": orEmpty(sk.Env), "keys": orEmpty(st)})
}

type installRequest struct {
	URL     string `json:"url"`
	Source  string `json:"source,omitempty"`  // "github" or "git" (any git URL works either way)
	Branch  string `json:"branch,omitempty"`  // the ref to check out
	Version string `json:"version,omitempty"` // a tag, when no branch is given
	Path    string `json:"path,omitempty"`    // the skill's folder inside the repository
	Force   bool   `json:"force,omitempty"`
}

func (s *server) install(w http.ResponseWriter, r *http.Request) {
	var req installRequest
	if !decode(w, r, &req) {
		return
	}
	if req.URL == "" {
		fail(w, http.StatusBadRequest, errors.New("url is required"))
		return
	}
	if req.Source != "" && req.Source != "github" && req.Source != "git" {
		fail(w, http.StatusBadRequest, fmt.Errorf("source %q: this endpoint installs from git; upload ZIP files to uploadInstall", req.Source))
		return
	}
	src := installer.Source{Git: req.URL, Ref: cmp.Or(req.Branch, req.Version), Subdir: req.Path}
	res, err := s.kit.Install(r.Context(), src, &installer.InstallOptions{Force: req.Force})
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, res)
}

// uploadInstall installs a ZIP sent as the request body (Content-Type
// application/zip) or as the "file" field of a multipart form.
func (s *server) uploadInstall(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxZIPUpload+1<<20)
	var zipFile io.Reader = r.Body
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		f, _, err := r.FormFile("file")
		if err != nil {
			fail(w, http.StatusBadRequest, fmt.Errorf("the form has no file field: %w", err))
			return
		}
		defer f.Close()
		zipFile = f
	}
	// The installer reads a ZIP at random; keep the upload in a temporary
	// file rather than in memory.
	tmp, err := os.CreateTemp("", "skill-upload-*.zip")
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	n, err := io.Copy(tmp, io.LimitReader(zipFile, maxZIPUpload+1))
	if err != nil {
		fail(w, http.StatusBadRequest, fmt.Errorf("reading the upload: %w", err))
		return
	}
	if n > maxZIPUpload {
		fail(w, http.StatusRequestEntityTooLarge, fmt.Errorf("the upload is over %d bytes", maxZIPUpload))
		return
	}
	res, err := s.kit.Install(r.Context(), installer.Source{Zip: tmp, ZipSize: n}, &installer.InstallOptions{Force: r.URL.Query().Get("force") == "true"})
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, res)
}

func (s *server) uninstall(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name        string `json:"name"`
		KeepSecrets bool   `json:"keepSecrets,omitempty"`
	}
	if !decode(w, r, &req) {
		return
	}
	if err := s.kit.Uninstall(r.Context(), req.Name, &installer.UninstallOptions{KeepSecrets: req.KeepSecrets}); err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, map[string]string{"name": req.Name})
}

func (s *server) update(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name  string `json:"name,omitempty"`
		All   bool   `json:"all,omitempty"`
		Force bool   `json:"force,omitempty"`
	}
	if !decode(w, r, &req) {
		return
	}
	opts := &installer.UpdateOptions{Force: req.Force}
	switch {
	case req.All == (req.Name != ""):
		fail(w, http.StatusBadRequest, errors.New("give either name or all"))
	case req.All:
		res, err := s.kit.UpdateAll(r.Context(), opts)
		if err != nil {
			fail(w, statusOf(err), err)
			return
		}
		ok(w, res)
	default:
		res, err := s.kit.Update(r.Context(), req.Name, opts)
		if err != nil {
			fail(w, statusOf(err), err)
			return
		}
		ok(w, res)
	}
}

func (s *server) setStatus(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name   string `json:"name"`
		Status *int   `json:"status"` // 1 enabled, 0 disabled
	}
	if !decode(w, r, &req) {
		return
	}
	if req.Status == nil || *req.Status != 0 && *req.Status != 1 {
		fail(w, http.StatusBadRequest, errors.New("status must be 0 or 1"))
		return
	}
	if _, found, err := s.kit.Skill(r.Context(), req.Name); err != nil || !found {
		fail(w, http.StatusNotFound, errors.Join(fmt.Errorf("no skill named %q", req.Name), err))
		return
	}
	if err := s.kit.SetEnabled(r.Context(), req.Name, *req.Status == 1); err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, map[string]any{"name": req.Name, "status": *req.Status})
}

func (s *server) checkUpdates(w http.ResponseWriter, r *http.Request) {
	st, err := s.kit.CheckUpdates(r.Context())
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, orEmpty(st))
}

// saveSecrets seals and stores values; the answer says which variables
// have a value, never what it is.
func (s *server) saveSecrets(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name    string            `json:"name"`
		Secrets map[string]string `json:"secrets"`
	}
	if !decode(w, r, &req) {
		return
	}
	sk, found, err := s.kit.Skill(r.Context(), req.Name)
	if err != nil || !found {
		fail(w, http.StatusNotFound, errors.Join(fmt.Errorf("no skill named %q", req.Name), err))
		return
	}
	if len(req.Secrets) == 0 {
		fail(w, http.StatusBadRequest, errors.New("secrets must name at least one variable"))
		return
	}
	if err := s.kit.Vault().Save(r.Context(), sk.Name, req.Secrets); err != nil {
		fail(w, statusOf(err), err)
		return
	}
	st, err := s.kit.Vault().Configured(r.Context(), sk.Name, sk.Env)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, map[string]any{"name": sk.Name, "keys": st})
}

// rotateSecrets seals every value again under the key now in
// SKILL_SECRET_KEY (or APP_SECRET), opening them with the old one in
// SKILL_SECRET_KEY_PREVIOUS.
func (s *server) rotateSecrets(w http.ResponseWriter, r *http.Request) {
	next, err := secrets.KeyringFromEnv(s.getenv)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	stats, err := s.kit.Vault().Rotate(r.Context(), next)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, stats)
}

// installDeps installs a skill's dependencies. setup runs its setup script
// too, which a UI does only after asking its user.
func (s *server) installDeps(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name  string `json:"name"`
		Setup bool   `json:"setup,omitempty"`
		Force bool   `json:"force,omitempty"`
	}
	if !decode(w, r, &req) {
		return
	}
	res, err := s.kit.InstallDeps(r.Context(), req.Name, &deps.InstallOptions{Setup: req.Setup, Force: req.Force})
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, res)
}

// skillWrite is a skill written through the API, as skill_manage writes one.
type skillWrite struct {
	Name    string            `json:"name"`
	Content string            `json:"content,omitempty"` // the whole SKILL.md
	Files   map[string]string `json:"files,omitempty"`   // under references/, templates/, scripts/, assets/
	Remove  []string          `json:"remove,omitempty"`  // edit only
}

func (s *server) create(w http.ResponseWriter, r *http.Request) {
	var req skillWrite
	if !decode(w, r, &req) {
		return
	}
	if len(req.Remove) > 0 {
		fail(w, http.StatusBadRequest, errors.New("remove is for edit"))
		return
	}
	res, err := s.kit.CreateSkill(r.Context(), req.Name, req.Content, req.Files)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, res)
}

func (s *server) edit(w http.ResponseWriter, r *http.Request) {
	var req skillWrite
	if !decode(w, r, &req) {
		return
	}
	res, err := s.kit.EditSkill(r.Context(), req.Name, req.Content, req.Files, req.Remove)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, res)
}

func (s *server) delete(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if !decode(w, r, &req) {
		return
	}
	if err := s.kit.DeleteSkill(r.Context(), req.Name); err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, map[string]string{"name": req.Name})
}

// orEmpty turns a nil slice into an empty one, so JSON says [] not null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
