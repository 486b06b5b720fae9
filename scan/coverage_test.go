package scan

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// attackTypes are the attack types issue 14 names, plus fake
// prerequisites; each needs at least two specimens.
var attackTypes = []string{
	"http-exfiltration", "dns-exfiltration", "credential-theft", "code-execution", "file-system-tampering",
	"privilege-escalation", "hidden-unicode", "prompt-injection", "reverse-shell", "mining", "typosquatting",
	"dependency-confusion", "encoded-payload", "fake-prerequisite",
}

func TestEveryAttackTypeHasTwoSpecimens(t *testing.T) {
	count := map[string]int{}
	for _, sp := range specimens(t, "malicious") {
		if !slices.Contains(attackTypes, sp.attack) {
			t.Errorf("%s: unknown attack type %q", sp.name, sp.attack)
		}
		if sp.want != "dangerous" && sp.want != "caution" {
			t.Errorf("%s: a malicious specimen must want dangerous or caution, not %q", sp.name, sp.want)
		}
		count[sp.attack]++
	}
	for _, a := range attackTypes {
		if count[a] < 2 {
			t.Errorf("attack type %s has %d specimens, want at least 2", a, count[a])
		}
	}
}

// TestDocListsEveryRule keeps the package documentation's rule list in step
// with the rules.
func TestDocListsEveryRule(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{ruleEncodedBlob, ruleExecutable, ruleArchive, ruleUnicodeTag, ruleUnicodeSmuggling, ruleUnicodeBidi,
		ruleUnicodeInvisible, ruleControlChar, ruleDepTyposquat, ruleDepURL, ruleDepConfusion, ruleInstallHook, ruleSymlinkEscape,
		ruleReadError, ruleScanLimit, ruleSecretFlow, ruleSecretHarvest, ruleNameTyposquat, ruleUnreviewable, ruleHiddenEndpoint, ruleHiddenEndpoint, ruleExfilCredentials, ruleExfilEnv, ruleSecretExfil, ruleFakePrerequisite, ruleConcealedAction, ruleUndeclaredHost}
	for _, r := range defaultRules().rules {
		if !r.signal {
			ids = append(ids, r.id)
		}
	}
	for _, id := range ids {
		if !regexp.MustCompile(`(?m)^//\t` + regexp.QuoteMeta(id) + ` +(low|medium|high|critical) `).Match(doc) {
			t.Errorf("doc.go does not list rule %s with its severity", id)
		}
	}
}
