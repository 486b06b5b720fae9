package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// and returns the same *regexp.Regexp ever after; it is safe for
// concurrent use.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
