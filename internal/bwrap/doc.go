// Package bwrap builds bubblewrap (bwrap) command lines. It is pure: it
// checks paths and writes arguments, and never looks at the file system or
// runs anything.
package bwrap
