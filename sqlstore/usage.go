package sqlstore

import (
	"context"
	"time"

	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/usage"
)

// Usage is a [usage.Store] in the table skillkit_usage, one row per skill,
// agent and tool: the replicas of a fleet count into the same rows, each
// use with one statement (an upsert that adds one), so no count is lost
// between replicas.
type Usage struct {
	db *DB
}

var _ usage.Store = (*Usage)(nil)

// Usage returns the usage store of the database.
func (d *DB) Usage() *Usage { return &Usage{db: d} }

// fixedTime is how SQLite stores last_used: fixed width, so that text
// order is time order.
const fixedTime = "2006-01-02T15:04:05.000000000Z"

// Record implements [usage.Store].
func (s *Usage) Record(ctx context.Context, u usage.Use) error {
	failed := 0
	if u.Outcome == usage.Failed {
		failed = 1
	}
	last, latest := any(u.Time.UTC()), "GREATEST(skillkit_usage.last_used, excluded.last_used)"
	if s.db.dialect == SQLite {
		last, latest = u.Time.UTC().Format(fixedTime), "MAX(skillkit_usage.last_used, excluded.last_used)"
	}
	_, err := s.db.exec(ctx, `INSERT INTO skillkit_usage (skill, agent, tool, uses, failures, last_used) VALUES (?, ?, ?, 1, ?, ?)
		ON CONFLICT (skill, agent, tool) DO UPDATE SET uses = skillkit_usage.uses + 1,
		failures = skillkit_usage.failures + excluded.failures, last_used = `+latest,
		u.Skill, u.Agent, u.Tool, failed, last)
	return pkgerr.Wrap("sqlstore", err, "recording a use of %s", u.Skill)
}

// Stats implements [usage.Store].
func (s *Usage) Stats(ctx context.Context) ([]usage.Stat, error) {
	rows, err := s.db.db.QueryContext(ctx, "SELECT skill, agent, tool, uses, failures, last_used FROM skillkit_usage ORDER BY skill, agent, tool")
	if err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "reading usage")
	}
	defer rows.Close()
	out := []usage.Stat{}
	for rows.Next() {
		var st usage.Stat
		var last scannedTime
		if err := rows.Scan(&st.Skill, &st.Agent, &st.Tool, &st.Uses, &st.Failures, &last); err != nil {
			return nil, pkgerr.Wrap("sqlstore", err, "reading usage")
		}
		st.Last = last.t.In(time.UTC)
		out = append(out, st)
	}
	return out, pkgerr.Wrap("sqlstore", rows.Err(), "reading usage")
}
