// Package archive checks untrusted skill trees — a ZIP archive, a
// gzip-compressed tar archive, a local folder, or a tree fetched over the
// network and held in memory — and writes the ones that pass into a staging
// folder. It is the part of installing that meets hostile input: zip-slip,
// zip bombs, links and devices, names that collide on other file systems.
// Everything is checked before anything is written, and the writing
// re-checks what it reads.
//
// The model is golang.org/x/mod/zip: [CheckZip] and [CheckDir] return a
// [Report] listing the valid, omitted and invalid entries, and [Report.Err]
// says whether the tree may be installed. [ExtractZip], [CopyDir] and
// [CopyFS] check first and write only when the check passes; [ReadZip] and
// [ReadTarGz] check an archive and return what passes as a read-only
// [io/fs.FS] instead of writing it (see [ReadTarGz] for what is particular
// to tar). Every source goes through one checker, so the rules below hold
// for all unless a rule says otherwise.
//
// # Limits
//
// A nil [*Limits], or a zero or negative field, means the default below;
// nothing is ever unlimited.
//
//   - The archive is at most [DefaultMaxArchiveBytes] (50 MiB). A larger one
//     is refused before a byte of it is read.
//   - It holds at most [DefaultMaxEntries] (10,000) entries: files, folders
//     and links alike, omitted ones included. The count is taken from the
//     central directory before archive/zip parses it, so a 50 MB archive of a
//     million empty headers costs no memory.
//   - A file is at most [DefaultMaxFileBytes] (1 MiB).
//   - All files together are at most [DefaultMaxTotalBytes] (200 MiB).
//   - A file expands at most [DefaultMaxRatio] (100) times its compressed
//     size, and the archive at most that many times its own size. A file or
//     an archive that expands to [RatioFloor] (64 KiB) or less is never
//     refused for its ratio: a few KB of blank lines compress past 100:1 and
//     cost nothing.
//   - A path is at most [MaxPathBytes] (1024) bytes, each element at most
//     [MaxElementBytes] (255).
//
// Sizes are checked twice: the declared sizes (the ZIP's central directory,
// the folder's lstat) before anything is written, and the bytes actually
// decompressed or read while writing. A file whose data is longer than its
// header says, shorter, or fails its CRC-32 stops the write.
//
// # Names
//
// An entry is refused when its name, taken as written in the archive or
// found in the folder, fails skill.CheckPath, the one rule for paths inside
// a skill (the model's reads and the agent's writes obey it too):
//
//   - is empty, holds a NUL byte, is not valid UTF-8, or holds a control
//     character (C0, DEL, C1) or a format character (bidirectional-text
//     controls, zero-width characters);
//   - is absolute ("/etc/x", "\\server\x"), starts with a drive letter
//     ("C:x", "C:/x", "C:\x"), holds a backslash anywhere ("..\x"), or
//     holds one of : * ? " < > |, which Windows file names cannot hold;
//   - has an empty, "." or ".." element ("a//b", "./a", "a/../../x");
//   - passes the path length limits above;
//   - lies inside, or is, a ".git" or ".skillhub" folder (compared without
//     regard to case): version-control data and skillkit's own bookkeeping
//     are never installed, and a hostile .git/config runs code the next time
//     someone runs git there.
//
// Two entries collide, and the later one is refused, when their names are
// the same (a duplicate file), equal under Unicode case folding after NFC
// normalization ("SKILL.md" and "skill.md"; they would be one file on macOS
// and Windows), or when one is a file and the other a folder, or inside
// one ("a" and "a/b"). A folder may be listed more than once.
//
// Some entries are omitted on purpose, listed in [Report.Omitted] and never
// written: anything inside ".venv", "node_modules" or "__pycache__" (the
// installer rebuilds dependencies, and code there would escape the skill's
// fingerprint and scan), the "__MACOSX" folder at the top of an archive and
// ".DS_Store" files (Finder's metadata).
//
// # Kinds
//
// Only regular files and folders are accepted. Symbolic links, hard links
// (in a ZIP: a PKWARE Unix extra field naming a link target; in a folder: a
// file with more than one link), devices, named pipes, sockets and any Unix
// file type skillkit does not know are refused. Archive data is never used
// to create a link. A ZIP entry is a folder exactly when its name ends in
// "/"; an entry whose mode disagrees with its name is refused, as are a
// folder entry that carries data, encrypted entries, compression methods
// other than store and deflate, stored entries whose two sizes differ, data
// that runs past the end of the archive, and entries whose data overlaps
// another's (the overlapping-entry zip bomb).
//
// # Layout
//
// When the top of the tree holds no SKILL.md and every accepted entry lies
// in one top-level folder that holds a SKILL.md — the "repo-main/SKILL.md"
// layout of GitHub's "Download ZIP" — that folder is unwrapped: its contents
// become the skill root ([Report.Unwrapped] names it). After that, SKILL.md
// (or skill.md, which skill.Load also reads) must be a file at the root;
// [ErrNoSkillFile] otherwise. Validating SKILL.md itself is the caller's
// next step (skill.Load).
//
// # Writing
//
// The destination must be an existing, empty folder the caller created (the
// installer's .skillhub/staging/<random>). Every write goes through an
// [os.Root] opened on it, so no name can reach outside it, and files are
// created with O_EXCL. Regular files get mode 0644, or 0755 when the entry
// is executable (any x bit in its Unix mode); folders get 0755. Timestamps,
// owners and other mode bits are not kept. On any error — a check, a lying
// size, a cancelled context, an I/O failure — everything written is
// removed, leaving the destination empty. Writing honours its context
// between files and between 64 KiB chunks.
//
// # Errors
//
// Every refusal wraps a sentinel error that [errors.Is] finds: path
// problems wrap [ErrUnsafePath], links [ErrLink], other kinds
// [ErrNotRegular], collisions [ErrCollision], .git and .skillhub
// [ErrReservedName], structural problems [ErrMalformed], encryption and
// methods [ErrUnsupported], lying sizes [ErrSizeMismatch], bad data
// [ErrCorrupt], and every limit [ErrLimit] (through [ErrArchiveTooLarge],
// [ErrTooManyEntries], [ErrFileTooLarge], [ErrTotalTooLarge] and
// [ErrRatio]). A refusal of one entry is a [*FileError] naming it, which
// [errors.As] finds.
package archive
