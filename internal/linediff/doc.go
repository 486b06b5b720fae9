// Package linediff writes the unified diff of two versions of a text file,
// as `diff -u` does: hunks of changed lines with three lines of context,
// "\ No newline at end of file" where a version does not end with one, and
// one line for binary files. It is what `skillkit proposals show` prints
// for each file an agent's proposal changes.
//
// The line matching is Myers' O(ND) algorithm after the common beginning
// and end are set aside. Its cost is bounded: past [MaxEdits] differing
// lines the middle is shown as removed and added whole, a diff that is
// correct (applying it gives the new version) though not the shortest.
package linediff
