//go:build linux && !amd64 && !arm64

package confine

import "errors"

func installSeccomp(denyInet, streamOnly bool) error {
	return errors.New("no filter is written for this processor")
}
