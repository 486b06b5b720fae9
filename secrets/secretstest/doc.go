// Package secretstest is the conformance suite for implementations of
// secrets.Store.
package secretstest
