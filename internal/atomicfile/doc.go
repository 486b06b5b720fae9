// Package atomicfile writes files so that a reader sees either the old
// content or the new content, never a mix, and a crash leaves one of the two:
// the data goes to a temporary file in the same folder, which is synced,
// given its mode, closed and renamed over the target; then the folder is
// synced so the rename itself is durable (on systems where a folder can be
// synced; Windows cannot, and there the rename alone is the commit point).
//
// Writes go through an [os.Root], so a name can never leave the folder the
// caller opened, whatever symbolic links it meets. Concurrent writers of the
// same file each write a whole file and the last rename wins; callers that
// need read-modify-write serialize with internal/filelock.
package atomicfile
