package loader

import (
	"context"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// Checker adds diagnostics about a skill that need outside state: a secret
// configured, a runtime installed, files unchanged since install. Packages
// implement it without importing loader (the interface is structural):
// secrets reports ENV_NOT_CONFIGURED, the registry's FingerprintChecker
// reports FINGERPRINT_CHANGED.
//
// Checkers run when asked ([Snapshot.Check], [Loader.Doctor]), never during a
// scan, and may run concurrently, for different skills, so Check must be safe
// for concurrent use. It returns nil when it has nothing to say, and stops
// early when ctx is done. A checker that cannot look (a store error) says so
// as a diagnostic rather than failing the others.
type Checker interface {
	Check(ctx context.Context, s *skill.Skill) diagnostics.List
}

// CheckerFunc adapts a function to [Checker].
type CheckerFunc func(ctx context.Context, s *skill.Skill) diagnostics.List

// Check calls f.
func (f CheckerFunc) Check(ctx context.Context, s *skill.Skill) diagnostics.List { return f(ctx, s) }
