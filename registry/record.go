package registry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/skillkit-go/skillkit/skill"
)

// Source says how a skill was installed.
type Source string

// The sources an installer records.
const (
	SourceLocal  Source = "local"  // copied from a local folder, or placed in the skills folder by hand
	SourceGitHub Source = "github" // cloned from a GitHub repository
	SourceGit    Source = "git"    // cloned from another git URL
	SourceZip    Source = "zip"    // extracted from an uploaded ZIP file
	SourceAgent  Source = "agent"  // written by an agent through skill_manage
)

// Record is what the registry knows about one installed skill.
type Record struct {
	Name        string    `json:"name"`
	Version     string    `json:"version,omitempty"`
	Source      Source    `json:"source,omitempty"`
	URL         string    `json:"url,omitempty"`
	Ref         string    `json:"ref,omitempty"`    // branch or tag asked for
	Commit      string    `json:"commit,omitempty"` // commit installed
	Subdir      string    `json:"subdir,omitempty"` // folder within the repository or archive
	Tree        string    `json:"tree,omitempty"`   // git: the object id of the installed folder's tree at Commit
	Fingerprint string    `json:"fingerprint,omitempty"`
	InstalledAt time.Time `json:"installed_at,omitzero"`
	UpdatedAt   time.Time `json:"updated_at,omitzero"`
	Enabled     bool      `json:"enabled"` // a disabled skill is hidden from every agent
	Pinned      bool      `json:"pinned"`  // updates skip a pinned skill
}

// Errors the stores wrap.
var (
	// ErrNotFound: no record for the name.
	ErrNotFound = errors.New("registry: no such record")
	// ErrInvalidRecord: the record cannot be stored (bad name, bad source).
	ErrInvalidRecord = errors.New("registry: invalid record")
	// ErrCorrupt: a stored file cannot be read as a record.
	ErrCorrupt = errors.New("registry: corrupt store")
)

// Store keeps records by skill name. Implementations are safe for concurrent
// use; see the package comment for the error contract.
type Store interface {
	// Get returns the record for name; the error wraps ErrNotFound if none.
	Get(ctx context.Context, name string) (Record, error)
	// Put stores rec, replacing any record with the same name.
	Put(ctx context.Context, rec Record) error
	// Delete removes the record for name; the error wraps ErrNotFound if none.
	Delete(ctx context.Context, name string) error
	// List returns every record, sorted by name.
	List(ctx context.Context) ([]Record, error)
}

// Validate checks that the record can be stored: a name that can identify a
// skill ([skill.ValidateKey]), and a known source or none.
func (r Record) Validate() error {
	if err := skill.ValidateKey(r.Name); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRecord, err)
	}
	switch r.Source {
	case "", SourceLocal, SourceGitHub, SourceGit, SourceZip, SourceAgent:
	default:
		return fmt.Errorf("%w: unknown source %q", ErrInvalidRecord, r.Source)
	}
	return nil
}

func notFound(name string) error {
	return fmt.Errorf("%w: %q", ErrNotFound, name)
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
