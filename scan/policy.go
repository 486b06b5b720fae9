package scan

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/registry"
)

// Trust is how far a skill's source is trusted.
type Trust string

// The trust levels.
const (
	// TrustBuiltin: shipped by the host itself (an embedded source).
	TrustBuiltin Trust = "builtin"
	// TrustTrusted: installed from an origin the host lists as trusted.
	TrustTrusted Trust = "trusted"
	// TrustCommunity: installed from anywhere else, or placed by hand.
	TrustCommunity Trust = "community"
	// TrustAgent: written by an agent through skill_manage.
	TrustAgent Trust = "agent"
)

// ParseTrust reads a trust level's name.
func ParseTrust(s string) (Trust, error) {
	switch t := Trust(strings.ToLower(strings.TrimSpace(s))); t {
	case TrustBuiltin, TrustTrusted, TrustCommunity, TrustAgent:
		return t, nil
	}
	return "", fmt.Errorf("scan: unknown trust level %q (want builtin, trusted, community or agent)", s)
}

// Decision is what a policy says about a skill about to be installed,
// updated or written.
type Decision string

// The decisions.
const (
	// Allow: go ahead.
	Allow Decision = "allow"
	// Ask: go ahead only when a person confirms (a prompt, or a flag such as
	// --yes that stands for one); with nobody to ask, it is Block.
	Ask Decision = "ask"
	// Block: refuse.
	Block Decision = "block"
)

// Policy decides, for each trust level, what each verdict leads to: the
// decision for a verdict v is Policy[trust][v]. A trust level missing from
// the table is treated as TrustCommunity, and an empty decision as Block,
// so a partial table fails closed.
type Policy map[Trust][3]Decision

// DefaultPolicy returns the default table (a new copy each time):
//
//	             safe    caution   dangerous
//	builtin      allow   allow     allow
//	trusted      allow   allow     block
//	community    allow   ask       block
//	agent        allow   ask       block
//
// A host ships its builtin skills and vouches for them; a trusted origin
// is believed on a caution; a community skill with a caution waits for a
// person; so does an agent's own skill with a caution (skill_manage queues
// it as a proposal a person approves or rejects: what an agent writes
// steers every later session), and a dangerous one is refused so that the
// agent hears why and can write it again. docs/decisions.md says more.
func DefaultPolicy() Policy {
	return Policy{
		TrustBuiltin:   {Allow, Allow, Allow},
		TrustTrusted:   {Allow, Allow, Block},
		TrustCommunity: {Allow, Ask, Block},
		TrustAgent:     {Allow, Ask, Block},
	}
}

// Decide returns the decision for a verdict on a skill of the given trust.
// A nil Policy is the default one.
func (p Policy) Decide(t Trust, v Verdict) Decision {
	if p == nil {
		p = DefaultPolicy()
	}
	row, ok := p[t]
	if !ok {
		if row, ok = p[TrustCommunity]; !ok {
			row = DefaultPolicy()[TrustCommunity]
		}
	}
	if int(v) >= len(row) || row[v] == "" {
		return Block
	}
	return row[v]
}

// TrustOf returns the trust level of an installed skill: rec is its install
// record, nil for a skill placed by hand; trusted lists the origins the
// host trusts. An agent's skill is TrustAgent; a skill whose origin is
// trusted is TrustTrusted; every other one, hand-placed ones included, is
// TrustCommunity (no record says where a hand-placed skill came from).
// Builtin skills have no record either: a host gives TrustBuiltin to the
// sources it embeds itself.
//
// An origin names a git host, owner, repository or folder within one
// ("github.com/anthropics", "https://github.com/anthropics/skills",
// "git@gitlab.example.com:team/skills.git", "github.com/acme/skills/pdf"),
// or a local folder or archive path ("/opt/skills"). It matches the
// record's URL (with its subfolder) when equal to it or a parent of it, path
// segment by path segment, so "github.com/acme" never matches
// "github.com/acme-evil". Scheme, "www.", ".git" and case of URLs are
// ignored; local paths compare as cleaned absolute paths.
func TrustOf(rec *registry.Record, trusted []string) Trust {
	if rec == nil {
		return TrustCommunity
	}
	if rec.Source == registry.SourceAgent {
		return TrustAgent
	}
	target := normalizeOrigin(rec.URL)
	if target == "" {
		return TrustCommunity
	}
	if rec.Subdir != "" {
		target += "/" + strings.Trim(strings.ToLower(filepath.ToSlash(rec.Subdir)), "/")
	}
	for _, o := range trusted {
		o = normalizeOrigin(o)
		if o != "" && (target == o || strings.HasPrefix(target, o+"/")) {
			return TrustTrusted
		}
	}
	return TrustCommunity
}

// normalizeOrigin puts a URL or path in one comparable form: host/path for
// URLs (lower case, no scheme, user, "www.", ".git" or trailing slash), a
// cleaned slash path for local paths.
func normalizeOrigin(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		return strings.TrimSuffix(filepath.ToSlash(filepath.Clean(rest)), "/")
	}
	if filepath.IsAbs(s) || strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") {
		abs, err := filepath.Abs(s)
		if err != nil {
			abs = s
		}
		return strings.TrimSuffix(filepath.ToSlash(filepath.Clean(abs)), "/")
	}
	s = strings.ToLower(s)
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	} else if at := strings.Index(s, "@"); at >= 0 && strings.Contains(s[at:], ":") {
		s = strings.Replace(s[at+1:], ":", "/", 1) // git@host:owner/repo
	}
	if at := strings.Index(s, "@"); at >= 0 && at < strings.Index(s+"/", "/") {
		s = s[at+1:] // user@host/...
	}
	s = strings.TrimPrefix(s, "www.")
	s = strings.TrimSuffix(strings.TrimSuffix(s, "/"), ".git")
	return strings.TrimSuffix(s, "/")
}
