package registry

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/skillkit-go/skillkit/internal/installid"
	"github.com/skillkit-go/skillkit/internal/pkgerr"
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
	// SourceWellKnown: fetched through a site's Agent Skills discovery index
	// (package wellknown). URL is the index read, Subdir the skill's name in
	// it, Commit the digest of the artifact installed.
	SourceWellKnown Source = "well-known"
	// SourceMCP: fetched from an MCP server through the Skills extension
	// (package mcpskills). URL names the server (mcp+stdio: and the command
	// that starts it), Subdir is the skill's URI there, Commit the digest of
	// the manifest of the files installed.
	SourceMCP Source = "mcp"
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
	// InstallID names this install of the skill; the package comment gives
	// the rule. Secrets are sealed for it, so a later install under the
	// same name does not receive them. Empty for installs made before
	// install ids existed and for skills with no install (hand-placed).
	InstallID string `json:"install_id,omitempty"`
	// Signer is what the signature of the installed git commit or tag, or
	// the Sigstore bundle published beside the installed ZIP archive, said
	// when it was fetched; nil for other sources, for a ZIP archive without
	// a bundle and for records made before signatures were checked.
	Signer *Signer `json:"signer,omitempty"`
}

// Signer is the publisher's signature of what was installed, as checked
// against the host's allowed signers at install or update time.
type Signer struct {
	// State is the check's answer: "unsigned", "verified",
	// "unknown-signer" or "unsupported" (a broken signature is never
	// installed).
	State string `json:"state"`
	// Principals are the allowed signers' names for the key (verified).
	Principals []string `json:"principals,omitempty"`
	// Key is the signing key's fingerprint (SHA256:...); for a Sigstore
	// bundle, the certificate's identity (its subject alternative name).
	Key string `json:"key,omitempty"`
	// Object is what was verified: "commit <id>", "tag <name>" or
	// "archive <file name>".
	Object string `json:"object,omitempty"`
	// Format is the signature's kind: "sigstore" for a bundle; "" or
	// "ssh" for git's SSH signatures (records made before bundles were
	// checked say nothing), "openpgp" or "x509" for those not checked.
	Format string `json:"format,omitempty"`
	// Issuer is the OIDC issuer of a Sigstore certificate.
	Issuer string `json:"issuer,omitempty"`
	// Digest is the archive's "sha256:<hex>" a Sigstore bundle was checked
	// against.
	Digest string `json:"digest,omitempty"`
}

// Verified reports whether s is a signature by a listed publisher.
func (s *Signer) Verified() bool { return s != nil && s.State == "verified" }

// Equal reports whether two signers (either may be nil) hold the same values.
func (s *Signer) Equal(o *Signer) bool {
	if s == nil || o == nil {
		return s == o
	}
	return s.State == o.State && s.Key == o.Key && s.Object == o.Object && slices.Equal(s.Principals, o.Principals) &&
		s.Format == o.Format && s.Issuer == o.Issuer && s.Digest == o.Digest
}

// NewInstallID returns a fresh random install id (128 bits, 26 characters
// of base32).
func NewInstallID() string { return installid.New() }

// InstallIDFunc returns a function that reads the install id of a skill from
// s: the record's InstallID, or "" when s has no record for the name. It is
// the secrets vault's source of install ids (secrets.Options.InstallID).
func InstallIDFunc(s Store) func(ctx context.Context, name string) (string, error) {
	return func(ctx context.Context, name string) (string, error) {
		rec, err := s.Get(ctx, name)
		if isNotFound(err) {
			return "", nil
		}
		return rec.InstallID, err
	}
}

// Errors the stores wrap.
var (
	// ErrNotFound: no record for the name.
	ErrNotFound = errors.New("registry: record not found")
	// ErrInvalidRecord: the record cannot be stored (bad name, bad source).
	ErrInvalidRecord = errors.New("registry: invalid record")
	// ErrCorrupt: a stored file cannot be read as a record.
	ErrCorrupt = errors.New("registry: corrupt store")
	// ErrConflict: a conditional write ([CompareAndSwapper]) found another
	// record than the one the caller read. Read again and retry.
	ErrConflict = errors.New("registry: record changed since it was read")
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

// CompareAndSwapper is the optional capability of a [Store] to write only
// when the stored record is still the one the caller read, so that two
// writers that read, change and write one record never lose a change. Find
// it with a type assertion; [Update] uses it. Records are compared with
// [Record.Equal].
type CompareAndSwapper interface {
	// CompareAndSwap stores rec only if the record stored under rec.Name is
	// *old, or, with old nil, only if there is none. Otherwise it stores
	// nothing and the error wraps ErrConflict. rec is checked as Put
	// checks it; old.Name, when old is given, must be rec.Name.
	CompareAndSwap(ctx context.Context, old *Record, rec Record) error
	// CompareAndDelete removes the record of old.Name only if it is old.
	// The error wraps ErrNotFound when there is no record, ErrConflict when
	// there is another one.
	CompareAndDelete(ctx context.Context, old Record) error
}

// Validate checks that the record can be stored: a name that can identify a
// skill ([skill.ValidateKey]), a known source or none, and an install id of
// at most 64 ASCII letters, digits, '-', '_' and '.' (or none).
func (r Record) Validate() error {
	if err := skill.ValidateKey(r.Name); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRecord, err)
	}
	switch r.Source {
	case "", SourceLocal, SourceGitHub, SourceGit, SourceZip, SourceAgent, SourceWellKnown, SourceMCP:
	default:
		return fmt.Errorf("%w: unknown source %q", ErrInvalidRecord, r.Source)
	}
	if err := installid.Validate(r.InstallID); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRecord, err)
	}
	return nil
}

// Equal reports whether two records hold the same values, comparing times
// as instants (a time read back from a store may carry another location).
func (r Record) Equal(o Record) bool {
	if !r.InstalledAt.Equal(o.InstalledAt) || !r.UpdatedAt.Equal(o.UpdatedAt) {
		return false
	}
	if !r.Signer.Equal(o.Signer) {
		return false
	}
	r.InstalledAt, r.UpdatedAt, r.Signer = o.InstalledAt, o.UpdatedAt, o.Signer
	return r == o
}

// maxUpdateAttempts bounds how often [Update] reads again after a conflict.
const maxUpdateAttempts = 100

// Update reads the record of name, lets change modify it and stores the
// result. change gets the stored record and true, or a record holding only
// the name and false when there is none; an error from change stops Update
// and is returned as it is. On a store that implements [CompareAndSwapper]
// the write succeeds only if nobody wrote the record since it was read;
// otherwise Update reads again and calls change again, up to 100 times
// (then the error wraps ErrConflict). On other stores the last writer wins.
// Update returns the record it stored.
func Update(ctx context.Context, s Store, name string, change func(rec *Record, found bool) error) (Record, error) {
	cas, _ := s.(CompareAndSwapper)
	for range maxUpdateAttempts {
		rec, err := s.Get(ctx, name)
		found := err == nil
		if isNotFound(err) {
			rec, err = Record{Name: name}, nil
		}
		if err != nil {
			return Record{}, err
		}
		old := rec
		if err := change(&rec, found); err != nil {
			return Record{}, err
		}
		rec.Name = name
		if cas == nil {
			return rec, s.Put(ctx, rec)
		}
		var prev *Record
		if found {
			prev = &old
		}
		err = cas.CompareAndSwap(ctx, prev, rec)
		if !errors.Is(err, ErrConflict) {
			return rec, err
		}
	}
	return Record{}, pkgerr.Wrap("registry", ErrConflict, "updating %s: gave up after %d attempts", name, maxUpdateAttempts)
}

// checkSwap checks the arguments of CompareAndSwap.
func checkSwap(old *Record, rec Record) error {
	if err := rec.Validate(); err != nil {
		return err
	}
	if old != nil && old.Name != rec.Name {
		return fmt.Errorf("%w: compare-and-swap of %q with a record of %q", ErrInvalidRecord, rec.Name, old.Name)
	}
	return nil
}

// swapAllowed reports whether a compare-and-swap expecting old may replace
// current (nil when there is no record).
func swapAllowed(old, current *Record) bool {
	if old == nil || current == nil {
		return old == nil && current == nil
	}
	return current.Equal(*old)
}

func notFound(name string) error {
	return fmt.Errorf("%w: %q", ErrNotFound, name)
}

func conflict(name string) error {
	return fmt.Errorf("%w: %q", ErrConflict, name)
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
