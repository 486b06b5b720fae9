package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Paging of the page route.
const (
	defaultPageSize = 20
	maxPageSize     = 1000 // a larger size is cut to this; the answer says the size used
)

// listQuery is the body of page and list: the filters, and for page the
// paging. keyWord matches name, label and description, ignoring case;
// status, source and skillType must equal the skill's. order names a field
// of skillRow (default createTime), sort is asc or desc (default desc);
// skills that tie are in name order.
type listQuery struct {
	Page      int    `json:"page"` // from 1
	Size      int    `json:"size"`
	KeyWord   string `json:"keyWord"`
	Status    *int   `json:"status"`
	Source    string `json:"source"`
	SkillType string `json:"skillType"`
	Order     string `json:"order"`
	Sort      string `json:"sort"`
}

// orderKeys are the fields page and list sort by.
var orderKeys = map[string]func(skillRow) string{
	"name":        func(r skillRow) string { return r.Name },
	"label":       func(r skillRow) string { return r.Label },
	"status":      func(r skillRow) string { return fmt.Sprint(r.Status) },
	"version":     func(r skillRow) string { return r.Version },
	"source":      func(r skillRow) string { return r.Source },
	"skillType":   func(r skillRow) string { return r.SkillType },
	"installedAt": func(r skillRow) string { return r.InstalledAt },
	"createTime":  func(r skillRow) string { return r.CreateTime },
	"updateTime":  func(r skillRow) string { return r.UpdateTime },
}

// rows answers a listQuery: the matching skills, sorted.
func (s *server) rows(ctx context.Context, q listQuery) ([]skillRow, error) {
	key := orderKeys[cmp.Or(q.Order, "createTime")]
	if key == nil {
		return nil, fmt.Errorf("%w: order %q: give one of name, label, status, version, source, skillType, installedAt, createTime, updateTime", errBadQuery, q.Order)
	}
	desc := true
	switch strings.ToLower(q.Sort) {
	case "", "desc":
	case "asc":
		desc = false
	default:
		return nil, fmt.Errorf("%w: sort %q: give asc or desc", errBadQuery, q.Sort)
	}
	skills, recs, err := s.skills(ctx)
	if err != nil {
		return nil, err
	}
	keyWord := strings.ToLower(q.KeyWord)
	out := []skillRow{}
	for _, sk := range skills {
		row := toRow(sk, recs[sk.Name])
		if q.Status != nil && row.Status != *q.Status || q.Source != "" && row.Source != q.Source ||
			q.SkillType != "" && row.SkillType != q.SkillType {
			continue
		}
		if keyWord != "" && !slices.ContainsFunc([]string{row.Name, row.Label, row.Description}, func(f string) bool {
			return strings.Contains(strings.ToLower(f), keyWord)
		}) {
			continue
		}
		out = append(out, row)
	}
	slices.SortStableFunc(out, func(a, b skillRow) int { // skills come in name order
		c := strings.Compare(key(a), key(b))
		if desc {
			c = -c
		}
		return c
	})
	return out, nil
}

// errBadQuery marks a listQuery the API cannot answer.
var errBadQuery = errors.New("bad query")

// skills returns the loaded skills, in name order, and the registry's
// records by name.
func (s *server) skills(ctx context.Context) ([]*skill.Skill, map[string]*registry.Record, error) {
	l, err := s.kit.Loader(ctx)
	if err != nil {
		return nil, nil, err
	}
	list, err := s.kit.Registry().List(ctx)
	if err != nil {
		return nil, nil, err
	}
	recs := make(map[string]*registry.Record, len(list))
	for i := range list {
		recs[list[i].Name] = &list[i]
	}
	return l.Snapshot().Skills(), recs, nil
}

// record returns the registry's record of a skill; nil for one placed by
// hand.
func (s *server) record(ctx context.Context, name string) (*registry.Record, error) {
	rec, err := s.kit.Registry().Get(ctx, name)
	if errors.Is(err, registry.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

func (s *server) listAnswer(w http.ResponseWriter, r *http.Request) ([]skillRow, listQuery, bool) {
	var q listQuery
	if !decode(w, r, &q) {
		return nil, q, false
	}
	rows, err := s.rows(r.Context(), q)
	if err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, errBadQuery) {
			status = http.StatusBadRequest
		}
		fail(w, status, err)
		return nil, q, false
	}
	return rows, q, true
}

// pageList answers page: {list, pagination: {page, size, total}}.
func (s *server) pageList(w http.ResponseWriter, r *http.Request) {
	rows, q, found := s.listAnswer(w, r)
	if !found {
		return
	}
	if q.Page < 0 || q.Size < 0 {
		fail(w, http.StatusBadRequest, errors.New("page and size count from 1"))
		return
	}
	page, size := max(q.Page, 1), min(cmp.Or(q.Size, defaultPageSize), maxPageSize)
	from := len(rows)
	if page-1 < len(rows)/size+1 { // else (page-1)*size could overflow
		from = min((page-1)*size, len(rows))
	}
	ok(w, map[string]any{
		"list":       rows[from:min(from+size, len(rows))],
		"pagination": map[string]int{"page": page, "size": size, "total": len(rows)},
	})
}

// list answers list: every matching skill.
func (s *server) list(w http.ResponseWriter, r *http.Request) {
	if rows, _, found := s.listAnswer(w, r); found {
		ok(w, rows)
	}
}

// info answers info?id=NAME: one skill's row.
func (s *server) info(w http.ResponseWriter, r *http.Request) {
	sk, found := s.skillFor(w, r, "id")
	if !found {
		return
	}
	rec, err := s.record(r.Context(), sk.Name)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	ok(w, toRow(sk, rec))
}

// metas lists the enabled skills.
func (s *server) metas(w http.ResponseWriter, r *http.Request) {
	skills, recs, err := s.skills(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	out := []skillMeta{}
	for _, sk := range skills {
		if m := toMeta(sk, recs[sk.Name]); m.Status == 1 {
			out = append(out, m)
		}
	}
	ok(w, out)
}

// content answers content?name=NAME: the whole SKILL.md, as text.
func (s *server) content(w http.ResponseWriter, r *http.Request) {
	sk, found := s.skillFor(w, r, "name")
	if !found {
		return
	}
	raw, err := sk.ReadFile(sk.File)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	ok(w, string(raw))
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
	ok(w, toDiagnostics(diags))
}

// envSchema answers envSchema?name=NAME: the declared variables, and which
// have a saved value.
func (s *server) envSchema(w http.ResponseWriter, r *http.Request) {
	sk, found := s.skillFor(w, r, "name")
	if !found {
		return
	}
	st, err := s.kit.Vault().Configured(r.Context(), sk.Name, sk.Env)
	if err != nil {
		fail(w, statusOf(err), err)
		return
	}
	ok(w, map[string]any{"name": sk.Name, "envSchema": toEnvSchema(sk.Env), "keys": toKeys(st)})
}
