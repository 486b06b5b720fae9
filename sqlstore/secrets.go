package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// Secrets is a [secrets.Store] in the table skillkit_secrets, one row per
// variable of a skill, holding sealed bytes only. It implements
// [secrets.CompareAndSwapper] with single statements that compare the
// stored bytes (UPDATE ... WHERE sealed = old): a sealed value carries a
// random nonce, so the bytes themselves say whether anyone wrote since.
type Secrets struct {
	db *DB
}

var (
	_ secrets.Store             = (*Secrets)(nil)
	_ secrets.CompareAndSwapper = (*Secrets)(nil)
)

// begin checks the context and the names before an operation.
func begin(ctx context.Context, skillName, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return secrets.ValidateNames(skillName, key)
}

// Get implements [secrets.Store].
func (s *Secrets) Get(ctx context.Context, skillName, key string) ([]byte, error) {
	if err := begin(ctx, skillName, key); err != nil {
		return nil, err
	}
	var sealed []byte
	err := s.db.db.QueryRowContext(ctx, s.db.rebind("SELECT sealed FROM skillkit_secrets WHERE skill = ? AND name = ?"), skillName, key).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, valueNotFound(skillName, key)
	}
	if err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "reading %s of skill %s", key, skillName)
	}
	if len(sealed) > secrets.MaxSealedLen {
		return nil, fmt.Errorf("%w: %s of skill %s is over %d bytes", secrets.ErrCannotOpen, key, skillName, secrets.MaxSealedLen)
	}
	return sealed, nil
}

// Put implements [secrets.Store].
func (s *Secrets) Put(ctx context.Context, skillName, key string, sealed []byte) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	_, err := s.db.exec(ctx, "INSERT INTO skillkit_secrets (skill, name, sealed) VALUES (?, ?, ?) "+
		"ON CONFLICT (skill, name) DO UPDATE SET sealed = excluded.sealed", skillName, key, nonNil(sealed))
	return pkgerr.Wrap("sqlstore", err, "writing %s of skill %s", key, skillName)
}

// Delete implements [secrets.Store].
func (s *Secrets) Delete(ctx context.Context, skillName, key string) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	n, err := s.db.exec(ctx, "DELETE FROM skillkit_secrets WHERE skill = ? AND name = ?", skillName, key)
	if err != nil {
		return pkgerr.Wrap("sqlstore", err, "deleting %s of skill %s", key, skillName)
	}
	if n == 0 {
		return valueNotFound(skillName, key)
	}
	return nil
}

// Keys implements [secrets.Store].
func (s *Secrets) Keys(ctx context.Context, skillName string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := skill.ValidateKey(skillName); err != nil {
		return nil, err
	}
	return s.names(ctx, "SELECT name FROM skillkit_secrets WHERE skill = ?", skillName)
}

// Skills implements [secrets.Store].
func (s *Secrets) Skills(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.names(ctx, "SELECT DISTINCT skill FROM skillkit_secrets")
}

// names runs a query of one text column and returns its values sorted in
// byte order (a database's collation may sort otherwise).
func (s *Secrets) names(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.db.db.QueryContext(ctx, s.db.rebind(query), args...)
	if err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "listing secrets")
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, pkgerr.Wrap("sqlstore", err, "listing secrets")
		}
		out = append(out, name)
	}
	if err := rows.Err(); err != nil {
		return nil, pkgerr.Wrap("sqlstore", err, "listing secrets")
	}
	slices.Sort(out)
	return out, nil
}

// CompareAndSwap implements [secrets.CompareAndSwapper].
func (s *Secrets) CompareAndSwap(ctx context.Context, skillName, key string, old, sealed []byte) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	var n int64
	var err error
	if len(old) == 0 {
		n, err = s.db.exec(ctx, "INSERT INTO skillkit_secrets (skill, name, sealed) VALUES (?, ?, ?) ON CONFLICT (skill, name) DO NOTHING",
			skillName, key, nonNil(sealed))
	} else {
		n, err = s.db.exec(ctx, "UPDATE skillkit_secrets SET sealed = ? WHERE skill = ? AND name = ? AND sealed = ?",
			nonNil(sealed), skillName, key, old)
	}
	if err != nil {
		return pkgerr.Wrap("sqlstore", err, "writing %s of skill %s", key, skillName)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s of skill %s", secrets.ErrConflict, key, skillName)
	}
	return nil
}

// CompareAndDelete implements [secrets.CompareAndSwapper].
func (s *Secrets) CompareAndDelete(ctx context.Context, skillName, key string, old []byte) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	n, err := s.db.exec(ctx, "DELETE FROM skillkit_secrets WHERE skill = ? AND name = ? AND sealed = ?", skillName, key, nonNil(old))
	if err != nil {
		return pkgerr.Wrap("sqlstore", err, "deleting %s of skill %s", key, skillName)
	}
	if n > 0 {
		return nil
	}
	if _, err := s.Get(ctx, skillName, key); err != nil {
		return err // ErrNotFound, or why the value cannot be read
	}
	return fmt.Errorf("%w: %s of skill %s", secrets.ErrConflict, key, skillName)
}

// nonNil makes a nil slice an empty one: drivers write nil as NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func valueNotFound(skillName, key string) error {
	return fmt.Errorf("%w: %s of skill %s", secrets.ErrNotFound, key, skillName)
}
