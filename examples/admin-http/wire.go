package main

import (
	"encoding/json"
	"time"

	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// The answers' shapes. They spell their fields as the admin API this
// example implements does (camelCase: hasValue, skillName, duration), not
// as the library's own JSON does (snake_case): a front end written for that
// API reads them unchanged. contract_test.go lists every field.

// skillRow is one skill as the API's skill table holds it: an item of page
// and list, the answer of info. A skill placed by hand has no install
// record: source "local", and no sourceUrl, fingerprint or times.
type skillRow struct {
	ID          string              `json:"id"` // the name: a skill's key is its name
	Name        string              `json:"name"`
	Label       string              `json:"label"` // metadata.label, else the name
	Description string              `json:"description"`
	SkillType   string              `json:"skillType"` // metadata.skillType (compute, llm, multimodal); "" when not declared
	Tags        []string            `json:"tags"`
	Status      int                 `json:"status"` // 1 enabled, 0 disabled
	Version     string              `json:"version"`
	Source      string              `json:"source"` // github, git, zip, local, agent, well-known, mcp
	SourceURL   string              `json:"sourceUrl"`
	InstallSpec []skill.InstallSpec `json:"installSpec"` // metadata.install, OpenClaw's SkillInstallSpec
	Metadata    map[string]any      `json:"metadata"`    // the frontmatter's metadata as written
	InstalledAt string              `json:"installedAt"`
	Fingerprint string              `json:"fingerprint"`
	EnvSchema   []envVar            `json:"envSchema"`
	SkillTypeV2 skill.Class         `json:"skillTypeV2"` // prompt, compute-entry, compute-toolkit
	CreateTime  string              `json:"createTime"`  // the first install
	UpdateTime  string              `json:"updateTime"`  // the last install, update or edit
}

// skillMeta is one skill as metas lists it, and what install, update,
// create and edit answer about the skill they changed.
type skillMeta struct {
	Name           string      `json:"name"`
	Label          string      `json:"label"`
	Description    string      `json:"description"`
	SkillType      string      `json:"skillType"`
	Classification skill.Class `json:"classification"`
	Emoji          string      `json:"emoji"`
	Tags           []string    `json:"tags"`
	Version        string      `json:"version"`
	Source         string      `json:"source"`
	SourceURL      string      `json:"sourceUrl"`
	Status         int         `json:"status"`
	Hidden         bool        `json:"hidden"` // disable-model-invocation: out of the catalog, still readable by name
}

// changeResult is what install, uploadInstall, update, create and edit
// answer: the skill as it is now, and what the change found.
type changeResult struct {
	skillMeta
	Replaced    bool         `json:"replaced"` // a folder of that name was replaced
	UpToDate    bool         `json:"upToDate"` // an update found nothing newer and changed nothing
	Notes       []string     `json:"notes"`    // what the skill's dependencies need now, for people
	Diagnostics []diagnostic `json:"diagnostics"`
}

// updateAllItem is one skill of update {"all": true}.
type updateAllItem struct {
	Name     string `json:"name"`
	Success  bool   `json:"success"`
	UpToDate bool   `json:"upToDate"`
	Skipped  string `json:"skipped,omitempty"` // why it was not tried: pinned, no origin
	Error    string `json:"error,omitempty"`
}

// diagnostic is the API's SkillDiagnostic.
type diagnostic struct {
	Level     diagnostics.Level `json:"level"`
	Code      diagnostics.Code  `json:"code"`
	SkillName string            `json:"skillName"`
	Message   string            `json:"message"`
	Path      string            `json:"path,omitempty"`
	Detail    map[string]any    `json:"detail,omitempty"`
}

// envVar is one declared variable of a skill's envSchema.
type envVar struct {
	Name        string  `json:"name"`
	Required    bool    `json:"required"`
	Description string  `json:"description,omitempty"`
	Default     *string `json:"default,omitempty"`
}

// keyStatus says whether a variable has a saved value; never the value.
type keyStatus struct {
	Name     string `json:"name"`
	HasValue bool   `json:"hasValue"`
}

// updateCheck is one skill of checkUpdates.
type updateCheck struct {
	Name        string `json:"name"`
	HasUpdate   bool   `json:"hasUpdate"`
	CurrentHash string `json:"currentHash"`
	LatestHash  string `json:"latestHash"`
	Error       string `json:"error,omitempty"` // why its origin could not be asked
}

// depsResult is what installDeps answers.
type depsResult struct {
	Success     bool         `json:"success"`
	Logs        []string     `json:"logs"`
	Error       string       `json:"error,omitempty"`
	Diagnostics []diagnostic `json:"diagnostics"` // programs and runtimes missing
}

// executeResult is what execute answers.
type executeResult struct {
	Success  bool            `json:"success"`
	Output   json.RawMessage `json:"output,omitempty"` // the JSON value the skill wrote
	Error    string          `json:"error,omitempty"`
	Duration int64           `json:"duration"` // milliseconds
}

// rotateResult counts what rotateSecrets did.
type rotateResult struct {
	Resealed  int `json:"resealed"`
	Unchanged int `json:"unchanged"`
	Failed    int `json:"failed"`
}

// The events stream's data: progressEvent for skill_install_progress and
// skill_deps_progress, doneEvent for skill_install_done and skill_deps_done.
type progressEvent struct {
	Name    string `json:"name"` // "" until known: a ZIP's skill is named once it is read
	Op      string `json:"op"`   // install, update, uninstall, create, edit, delete, deps
	Source  string `json:"source,omitempty"`
	Step    string `json:"step"`
	Percent int    `json:"percent"`
	Message string `json:"message"`
}

type doneEvent struct {
	Name    string `json:"name"`
	Op      string `json:"op"`
	Success bool   `json:"success"`
	Error   string `json:"error,omitempty"`
}

// timestamp writes a time as RFC 3339 in UTC; "" for none.
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func toDiagnostics(l diagnostics.List) []diagnostic {
	out := make([]diagnostic, 0, len(l))
	for _, d := range l {
		out = append(out, diagnostic{Level: d.Level, Code: d.Code, SkillName: d.Skill, Message: d.Message, Path: d.Path, Detail: d.Detail})
	}
	return out
}

func toEnvSchema(vars []skill.EnvVar) []envVar {
	out := make([]envVar, 0, len(vars))
	for _, v := range vars {
		out = append(out, envVar{Name: v.Name, Required: v.Required, Description: v.Description, Default: v.Default})
	}
	return out
}

func toKeys(st []secrets.EnvStatus) []keyStatus {
	out := make([]keyStatus, 0, len(st))
	for _, s := range st {
		out = append(out, keyStatus{Name: s.Name, HasValue: s.HasValue})
	}
	return out
}

// label is a skill's display name: metadata.label when it is text, else
// its name.
func label(s *skill.Skill) string {
	if l, ok := s.Frontmatter.Metadata["label"].(string); ok && l != "" {
		return l
	}
	return s.Name
}

// origin is where a skill came from and whether it is enabled, from its
// record; a skill without one was placed by hand and is enabled.
func origin(rec *registry.Record) (source, url string, status int) {
	if rec == nil {
		return string(registry.SourceLocal), "", 1
	}
	status = 1
	if !rec.Enabled {
		status = 0
	}
	return string(rec.Source), rec.URL, status
}

func toRow(s *skill.Skill, rec *registry.Record) skillRow {
	fm := s.Frontmatter
	source, url, status := origin(rec)
	row := skillRow{ID: s.Name, Name: s.Name, Label: label(s), Description: s.Description, SkillType: fm.SkillType,
		Tags: orEmpty(fm.Tags), Status: status, Version: fm.Version, Source: source, SourceURL: url,
		InstallSpec: orEmpty(fm.Install), Metadata: fm.Metadata, EnvSchema: toEnvSchema(s.Env), SkillTypeV2: s.Class}
	if row.Metadata == nil {
		row.Metadata = map[string]any{}
	}
	if rec != nil {
		row.Fingerprint = rec.Fingerprint
		row.InstalledAt, row.CreateTime = timestamp(rec.InstalledAt), timestamp(rec.InstalledAt)
		row.UpdateTime = timestamp(rec.UpdatedAt)
		if row.UpdateTime == "" {
			row.UpdateTime = row.InstalledAt
		}
	}
	return row
}

func toMeta(s *skill.Skill, rec *registry.Record) skillMeta {
	fm := s.Frontmatter
	source, url, status := origin(rec)
	return skillMeta{Name: s.Name, Label: label(s), Description: s.Description, SkillType: fm.SkillType, Classification: s.Class,
		Emoji: fm.Emoji, Tags: orEmpty(fm.Tags), Version: fm.Version, Source: source, SourceURL: url, Status: status, Hidden: s.Hidden()}
}

func toUpdateCheck(st installer.UpdateStatus) updateCheck {
	return updateCheck{Name: st.Name, HasUpdate: st.HasUpdate, CurrentHash: st.Current, LatestHash: st.Latest, Error: st.Error}
}

func toDepsResult(res *deps.Result, err error) depsResult {
	out := depsResult{Success: err == nil, Logs: []string{}, Diagnostics: []diagnostic{}}
	if res != nil {
		out.Logs, out.Diagnostics = orEmpty(res.Logs), toDiagnostics(res.Diagnostics)
	}
	if err != nil {
		out.Error = err.Error()
	}
	return out
}

func toExecuteResult(o executor.Outcome) executeResult {
	return executeResult{Success: o.Success(), Output: o.Output, Error: o.Error, Duration: o.Duration.Milliseconds()}
}
