// Package wellknown reads the skills a site publishes through the Agent
// Skills Discovery RFC (cloudflare/agent-skills-discovery-rfc, v0.2.0, and
// its v0.1.0): an index at /.well-known/agent-skills/index.json (v0.1.0:
// /.well-known/skills/index.json) listing each skill with a digest of its
// artifact. [Read] reads and checks an index; [Index.Remote] makes one of
// its skills a source of the installer (installer.Source.Remote), which
// checks, validates, scans and installs it as it does a folder. The
// sections named below are the RFC's; docs/mcp-skills.md tells the whole
// story.
//
// # Reading an index (Discovery Index, Client Implementation)
//
//   - [Read] takes a site ("https://example.com") and reads [IndexPath],
//     then [LegacyIndexPath] when the first is not found (404); or takes
//     an index's own URL. At most Options.MaxIndexBytes (4 MiB) is read.
//   - $schema must be [Schema] (v0.2.0) or absent (v0.1.0); any other is
//     refused (Versioning). Unknown fields are ignored. [ParseIndex]
//     leaves out, each with why (Index.Skipped), the entries that break
//     the RFC: see its documentation for the rules.
//   - Entry URLs are resolved against the index's URL (URL Resolution);
//     an entry whose type is not skill-md or archive is skipped.
//
// # Fetching (Integrity and Verification, Archive Distribution, HTTP
// Considerations)
//
//   - Every request, redirects included (at most 10), goes to https, or
//     to plain http only on loopback (localhost, 127.0.0.0/8, ::1):
//     anything else is [ErrInsecure]. URLs with credentials are refused.
//   - Every host must be allowed: Options.AllowedHosts, or, when empty,
//     only the host of the site (or of the recorded index) itself.
//     skillkit.Kit and the skillkit command pass the installer's
//     AllowedHosts (github.com and what --allow-host adds), so a site must
//     be allowed as a git host must. A refusal wraps
//     installer.ErrHostNotAllowed. This is the RFC's origin allowlist
//     (Security Considerations).
//   - The artifact (at most the installer's MaxFileBytes for a SKILL.md,
//     MaxArchiveBytes for an archive) is hashed and compared with the
//     entry's digest before anything else is done with it; a mismatch is
//     a [*VerifyError] (errors.Is installer.ErrDigestMismatch) and the
//     bytes are dropped.
//   - An archive is .zip or .tar.gz, told by its Content-Type, else its
//     URL's extension, and read through the installer's archive checks:
//     no absolute paths, "..", links or devices, the size, count and ratio
//     limits (Archive Safety). A single wrapper folder is unwrapped.
//   - The SKILL.md fetched must name the skill the index lists.
//   - A v0.1.0 entry has no digest: its files are fetched one by one from
//     <index folder>/<name>/<path>, within the installer's limits, over
//     https (or loopback http) only; Index.Legacy says they are not
//     verified, and Options.RequireDigests refuses them ([ErrUnverified]).
//
// Nothing fetched is executed: the skill goes through the installer, whose
// scan and trust policy apply (a site's skill is a community skill unless
// the host trusts its origin), and scripts run only if the host runs the
// installed skill (Client Implementation, "Gate script execution").
//
// The record of an installed skill holds the index's URL, the skill's
// name and the artifact's digest, so an update compares the digest the
// index lists now with the installed one (change detection) and fetches
// only when it differs. A v0.1.0 skill has no digest: its update fetches
// the files and compares their fingerprint, and update checks cannot tell.
package wellknown
