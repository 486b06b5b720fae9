// Package hardlink counts the names a file has on disk. A regular file with
// more than one may be the same file as one outside a skill folder, so
// installs refuse such files and reads do not serve them. Only Unix reports
// the count; elsewhere every file has one name.
package hardlink
