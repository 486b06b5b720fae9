// Package pkgerr adds context to an error so that its message names the
// package that made it once: "secrets: saving API_KEY of skill pdf: value
// too long", not "secrets: saving API_KEY of skill pdf: secrets: value too
// long".
package pkgerr

import (
	"fmt"
	"strings"
)

// Wrap returns an error whose message is "pkg: " and the formatted context,
// then ": " and err's message without a leading "pkg: ". errors.Is and
// errors.As see err. A nil err gives nil.
func Wrap(pkg string, err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	prefix := pkg + ": "
	msg := prefix + fmt.Sprintf(format, args...) + ": " + strings.TrimPrefix(err.Error(), prefix)
	return &wrapped{msg: msg, err: err}
}

type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }
