// Package asuser runs a test a second time as an unprivileged user when
// the test binary runs as root, so that what a test proves for root hosts
// is proved for ordinary users too.
package asuser
