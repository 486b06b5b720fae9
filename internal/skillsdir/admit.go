package skillsdir

import (
	"context"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
)

// Admission is what the trust policy says of a skill about to be installed,
// updated or written: the scan's report, the trust of its source and the
// decision.
type Admission struct {
	Report   scan.Report
	Trust    scan.Trust
	Decision scan.Decision
	// Lifted says Options.AllowDangerous turned the policy's block into
	// this ask: a caller with nobody to show the findings to refuses it.
	Lifted bool
	// Permissions are what the skill's processes may reach beyond their
	// folder (skill.config.yaml's permissions section).
	Permissions skill.Permissions
	// Widened lists, for an update, what Permissions grant that the
	// installed version's did not (see [Admission.Widen]).
	Widened []string
	// Republished says, for an update, how the publisher's signature
	// changed from the installed version's (see [Admission.Resigned]); ""
	// when it did not.
	Republished string
}

// Admit scans s, staged to become the skill rec describes, and applies the
// folder's trust policy to the verdict and the trust of rec's source
// (scan.TrustOf with the trusted origins; a community source whose commit
// or tag rec.Signer says a listed publisher signed, checked by the installer
// just now, is trusted): allow, ask or block. With
// Options.AllowDangerous a block becomes an ask, so a person can still let a
// skill in; nothing else — no Force — changes a decision. Every decision is
// an audit line. The error is the scan's (a context that ends, a folder
// that cannot be listed), never the decision: callers refuse with their
// own sentinels.
func (d *Dir) Admit(ctx context.Context, s *skill.Skill, rec registry.Record) (Admission, error) {
	rep, err := scan.Loaded(ctx, s, nil)
	if err != nil {
		return Admission{}, fmt.Errorf("skillkit: scanning %s: %w", rec.Name, err)
	}
	a := Admission{Report: rep, Trust: scan.TrustOf(&rec, d.trusted)}
	if a.Trust == scan.TrustCommunity && rec.Signer.Verified() {
		a.Trust = scan.TrustTrusted
	}
	if s.Config != nil {
		a.Permissions = s.Config.Permissions
	}
	a.Decision = d.policy.Decide(a.Trust, rep.Verdict)
	if a.Decision == scan.Block && d.allowDangerous {
		a.Decision, a.Lifted = scan.Ask, true
	}
	if d.log != nil {
		d.log.InfoContext(ctx, "skill scanned", "skill", rec.Name, "source", rec.Source, "url", rec.URL,
			"trust", a.Trust, "verdict", rep.Verdict, "decision", a.Decision, "findings", len(rep.Findings),
			"rules", strings.Join(a.Rules(3), ","))
	}
	return a, nil
}

// Grant decides on the permissions, after Admit: old are those the
// installed version was granted (nil for a new skill), and Widened what the
// skill asks for beyond them. A new community or agent skill that asks to
// reach anything beyond its folder, and an update that asks for more than
// was granted (whatever its source's trust), need a person's yes, whatever
// the scan says: that yes is what grants them.
func (a *Admission) Grant(old *skill.Permissions) {
	var granted skill.Permissions
	if old != nil {
		granted = *old
	}
	a.Widened = a.Permissions.Beyond(granted)
	if len(a.Widened) == 0 || a.Decision != scan.Allow {
		return
	}
	if old != nil || a.Trust == scan.TrustCommunity || a.Trust == scan.TrustAgent {
		a.Decision = scan.Ask
	}
}

// Resigned decides on the publisher, after Admit, for an update: old is the
// signature recorded for the installed version, next the fetched one's. An
// installed version signed by a key or a Sigstore identity (listed or not)
// whose update is signed by another (another key; another identity or
// issuer), or not signed at all, needs a person's yes, whatever the scan
// says: a changed publisher is how a hijacked repository looks.
func (a *Admission) Resigned(old, next *registry.Signer) {
	if old == nil || old.Key == "" || next != nil && next.Key == old.Key && next.Issuer == old.Issuer {
		return
	}
	now := "no signature"
	if next != nil && next.Key != "" {
		now = signerKey(next) + " (" + next.State + ")"
	}
	a.Republished = fmt.Sprintf("the installed version was signed by %s, this one has %s", describeSigner(old), now)
	if a.Decision == scan.Allow {
		a.Decision = scan.Ask
	}
}

// describeSigner names a signer: its principals, else its key.
func describeSigner(s *registry.Signer) string {
	if len(s.Principals) > 0 {
		return strings.Join(s.Principals, ", ") + " (" + s.Key + ")"
	}
	return signerKey(s)
}

// signerKey names a signer's key, or its Sigstore identity and issuer.
func signerKey(s *registry.Signer) string {
	if s.Issuer != "" {
		return "the identity " + s.Key + " of " + s.Issuer
	}
	return "the key " + s.Key
}

// Rules names the rules of the worst findings, at most n.
func (a Admission) Rules(n int) []string {
	var out []string
	for _, f := range a.Report.Worst() {
		if len(out) == n {
			break
		}
		out = append(out, f.Rule)
	}
	return out
}

// Why says in one line why the scan rated the skill as it did: its verdict
// and its worst findings.
func (a Admission) Why() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the scan rates it %s (%s source)", a.Report.Verdict, a.Trust)
	if len(a.Widened) > 0 {
		fmt.Fprintf(&b, "; it asks to reach %s", strings.Join(a.Widened, ", "))
	}
	if a.Republished != "" {
		fmt.Fprintf(&b, "; %s", a.Republished)
	}
	for i, f := range a.Report.Worst() {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(a.Report.Worst())-3)
			break
		}
		fmt.Fprintf(&b, "; %s at %s:%d: %s", f.Rule, f.File, f.Line, f.Message)
	}
	return b.String()
}
