package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/tools"
)

// changed answers a change of one skill: the skill as the Kit now loads it
// (the Kit rescans after every change), and what the change found.
func (s *server) changed(ctx context.Context, name string, replaced, upToDate bool, notes []string, diags diagnostics.List) (changeResult, error) {
	res := changeResult{Replaced: replaced, UpToDate: upToDate, Notes: orEmpty(notes), Diagnostics: toDiagnostics(diags)}
	rec, err := s.record(ctx, name)
	if err != nil {
		return res, err
	}
	sk, found, err := s.kit.Skill(ctx, name)
	if err != nil {
		return res, err
	}
	if !found {
		// Changed but not loaded: the diagnostics say why.
		res.Name, res.Tags = name, []string{}
		res.Source, res.SourceURL, res.Status = origin(rec)
		return res, nil
	}
	res.skillMeta = toMeta(sk, rec)
	return res, nil
}

// answerChange writes what changed answers for the result of an install,
// update, create or edit, or the error that stopped it.
func (s *server) answerChange(w http.ResponseWriter, r *http.Request, name string, replaced, upToDate bool, notes []string, diags diagnostics.List, err error) {
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	res, err := s.changed(r.Context(), name, replaced, upToDate, notes, diags)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	ok(w, res)
}

func (s *server) answerInstall(w http.ResponseWriter, r *http.Request, res *installer.Result, err error) {
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	s.answerChange(w, r, res.Name, res.Replaced, res.UpToDate, res.Notes, res.Diagnostics, nil)
}

// installRequest is the body of install, as the API's example has it, with
// path and force besides.
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
	s.answerInstall(w, r, res, err)
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
	s.answerInstall(w, r, res, err)
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
		results, err := s.kit.UpdateAll(r.Context(), opts)
		if err != nil {
			fail(w, statusOf(err), err)
			return
		}
		out := make([]updateAllItem, 0, len(results))
		for _, u := range results {
			item := updateAllItem{Name: u.Name, Success: u.Err == nil && u.Skipped == "", Skipped: u.Skipped}
			if u.Err != nil {
				item.Error = u.Err.Error()
			}
			if u.Result != nil {
				item.UpToDate = u.Result.UpToDate
			}
			out = append(out, item)
		}
		ok(w, out)
	default:
		res, err := s.kit.Update(r.Context(), req.Name, opts)
		s.answerInstall(w, r, res, err)
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

// checkUpdates lists the skills whose origin can be asked (git, GitHub, a
// remote index or server): what they have and what their origin has now.
func (s *server) checkUpdates(w http.ResponseWriter, r *http.Request) {
	st, err := s.kit.CheckUpdates(r.Context())
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	out := []updateCheck{}
	for _, u := range st {
		if u.Checked || u.Error != "" {
			out = append(out, toUpdateCheck(u))
		}
	}
	ok(w, out)
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
	if err := s.kit.SaveSecrets(r.Context(), sk.Name, req.Secrets); err != nil {
		fail(w, statusOf(err), err)
		return
	}
	st, err := s.kit.Vault().Configured(r.Context(), sk.Name, sk.Env)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, map[string]any{"name": sk.Name, "keys": toKeys(st)})
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
	ok(w, rotateResult{Resealed: stats.Resealed, Unchanged: stats.Unchanged, Failed: stats.Failed})
}

// installDeps installs a skill's dependencies. setup runs its setup script
// too, which a UI does only after asking its user. A command that fails is
// an answer with success false and the logs, not an error.
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
	if err != nil && (res == nil || !errors.Is(err, deps.ErrFailed)) {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, toDepsResult(res, err))
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
	if res.Proposal != nil {
		answerProposal(w, res)
		return
	}
	s.answerChange(w, r, res.Name, res.Replaced, false, nil, res.Diagnostics, nil)
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
	if res.Proposal != nil {
		answerProposal(w, res)
		return
	}
	s.answerChange(w, r, res.Name, res.Replaced, false, nil, res.Diagnostics, nil)
}

// answerProposal answers a create or edit the trust policy holds for a
// person's review: 202, nothing changed yet (skillkit proposals applies
// or drops it).
func answerProposal(w http.ResponseWriter, res *authoring.Result) {
	p := res.Proposal
	write(w, http.StatusAccepted, envelope{Code: 1000, Message: "awaiting review", Data: map[string]any{
		"name": p.Name, "status": "awaitingReview", "proposal": p.ID, "verdict": p.Scan.Verdict, "reason": p.Reason,
	}})
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

// execute runs a compute-entry skill as execute_skill does:
// {"name", "input"}. A run that fails is an answer with success false and
// the error; an unknown or disabled skill is refused.
func (s *server) execute(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if !decode(w, r, &req) {
		return
	}
	rec, err := s.record(r.Context(), req.Name)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	if _, _, status := origin(rec); status == 0 {
		fail(w, http.StatusConflict, fmt.Errorf("skill %s is disabled: enable it first", req.Name))
		return
	}
	ex, err := s.kit.Executor(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	if len(req.Input) == 0 {
		req.Input = json.RawMessage("{}")
	}
	out, err := ex.Execute(r.Context(), req.Name, req.Input)
	if errors.Is(err, executor.ErrNotFound) {
		fail(w, http.StatusNotFound, err)
		return
	}
	ok(w, toExecuteResult(out))
}

// agentWarnings answers what saving an agent with these skills and tools
// should warn about, without blocking the save: a compute-entry skill
// without execute_skill among its tools, a compute-toolkit skill without
// bash, an assigned skill that is hidden or not installed, a catalog that
// does not fit its budget. {"skills": [...], "tools": [...]}.
func (s *server) agentWarnings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Skills []string `json:"skills"`
		Tools  []string `json:"tools"`
	}
	if !decode(w, r, &req) {
		return
	}
	if req.Skills == nil {
		req.Skills = []string{} // none assigned, not every skill
	}
	ts, err := s.kit.Toolset(r.Context(), tools.Agent{Skills: req.Skills, Tools: req.Tools,
		DisableExecute: !slices.Contains(req.Tools, "execute_skill"), DisableManage: true})
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	ok(w, map[string]any{"warnings": orEmpty(ts.Warnings)})
}
