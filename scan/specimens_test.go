package scan

import (
	"testing"
)

func TestSpecimens(t *testing.T) {
	for _, dir := range []string{"malicious", "benign"} {
		for _, sp := range specimens(t, dir) {
			t.Run(dir+"/"+sp.name, func(t *testing.T) {
				rep, err := Skill(t.Context(), sp.fsys, sp.name, nil)
				if err != nil {
					t.Fatal(err)
				}
				ok := false
				switch sp.want {
				case "not-dangerous":
					ok = rep.Verdict != Dangerous
				default:
					ok = rep.Verdict.String() == sp.want
				}
				ids := ruleIDs(rep)
				for _, r := range sp.rules {
					if !ids[r] {
						ok = false
						t.Errorf("rule %s did not fire", r)
					}
				}
				for _, r := range sp.none {
					if ids[r] {
						ok = false
						t.Errorf("rule %s fired", r)
					}
				}
				if !ok || testing.Verbose() {
					t.Logf("verdict %s, want %s", rep.Verdict, sp.want)
					for _, f := range rep.Findings {
						t.Logf("  %s", f)
					}
				}
				if !ok {
					t.Fail()
				}
			})
		}
	}
}
