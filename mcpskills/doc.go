// Package mcpskills speaks the Skills extension of the Model Context
// Protocol (io.modelcontextprotocol/skills, SEP-2640) without an MCP SDK:
// a client that reads the skills an MCP server serves, verified, as a
// loader source or an installer source, and the pieces a server needs to
// publish the skills skillkit loaded (the MCP adapter,
// github.com/skillkit-go/skillkit/adapters/mcp, puts them on the wire).
// The sections named below are those of the extension's specification
// (specification/stable/skills.mdx in modelcontextprotocol/ext-skills);
// docs/mcp-skills.md tells the whole story.
//
// # Client
//
// [Start] runs a server command and speaks JSON-RPC over its standard
// input and output, one message per line (the MCP stdio transport);
// [Connect] does the same over any pair of streams. It asks for revision
// [ProtocolVersion] with server/discover (no session; each request then
// carries the revision and the client's capabilities in _meta), else
// initializes a session at [LegacyProtocolVersion], declaring the extension
// among its capabilities either way, and refuses a server that does not declare it
// ([ErrNoExtension]; Capability Negotiation). It answers the server's
// ping and refuses its other requests; it never calls
// resources/directory/read, which is optional. The server gets a small
// environment (PATH, HOME, ... ; [Options].Env adds to it), never the
// host's secrets. Every message from the server is bounded
// ([Options].MaxMessageBytes, 32 MiB by default).
//
//   - [Client.List] reads skills/list page by page (Listing Skills);
//     [Client.Get] calls skills/get (Getting a Skill); [Client.Read]
//     calls resources/read (Reading Skill Content).
//   - Each entry is checked before it is used (Skill Entries, Resource
//     Mapping, Limits): a SKILL.md URI whose last path element is the
//     frontmatter's name, a name that follows the Agent Skills naming
//     rules, string name and description, a resources array that lists
//     SKILL.md and only files inside the skill's folder, each once, with a
//     sha256: digest of 64 lowercase hexadecimal digits and a size; at
//     most [MaxResources] files and [MaxSkillBytes] in all. A file URI
//     decodes to a path that skill.CheckPath accepts. A skill whose
//     resources are "dynamic" has no digests to check and is declined
//     ([ErrDynamic]).
//   - Every file read is verified against the entry it was listed with
//     (Integrity and Verification): its length against size, its SHA-256
//     against digest, and for SKILL.md its frontmatter, parsed and
//     compared field by field with the entry's. A mismatch is an error
//     wrapping installer.ErrDigestMismatch and the content is never used.
//     Digests come from the server that serves the content, so a match
//     proves consistency, not trust: the skill is still untrusted.
//
// [Client.Source] returns the server's skills as a loader source whose
// file system ([Client.FS]) holds them under a folder named by the host's
// label for the server, so that every path says which server a skill
// comes from (Skill URIs), and whose Origin ("mcp:LABEL") the catalog and
// read_skill show the model beside each of its skills (Security
// Considerations: origin is visible to the model). Files are fetched when first read and
// kept in memory. skillkit's loader reads each SKILL.md when it scans, and
// a Kit's scanner reads every file to scan it, so with a Kit the files are
// fetched at the scan, not at activation as Lazy Retrieval asks: scanning
// untrusted content before a model sees it needs the content. Such skills
// live in memory, not on disk: execute_skill cannot run them, and their
// scripts have no folder to run in, so MCP content never runs on the host
// unless it is installed (No implicit local execution), which scans it and
// applies the trust policy. The loader's collision rules keep them from
// shadowing a skill of the skills folder (Names): the skills folder comes
// first, and a collision is a NAME_COLLISION diagnostic, never silent.
//
// [Remote] is one skill of a server as an installer source
// (installer.Source.Remote): it starts the server, gets the skill's entry
// with skills/get, reads and verifies every file, and hands them to the
// installer, which checks, validates, scans and installs them as it does
// a folder. The record keeps the server's command ([CommandURL]) and the
// skill's URI, the two halves of the skill's identity, and the set digest
// of the manifest ([SetDigest]) as its version, so updates and update
// checks ask the server again.
//
// # Server
//
// [Entry] builds the entry of a loaded skill (skill.Skill) at skill path
// skill://NAME: the frontmatter as JSON ([Frontmatter]) and, for every
// file [Served] lists, the digest and size of its bytes. Infrastructure
// (skill.IsInfra: skill.config.yaml, .env, package.json, .venv/, ...) is
// never served, nor is a path that resolves to it through links; files
// are read through the skill's own checks ([ReadServed]). A skill whose
// name breaks the naming rules, or which is over the limits, is not
// served.
//
// # Limits
//
// The client refuses a skill over the extension's limits rather than
// supporting larger ones, reads at most [DefaultMaxSkills] entries, and
// stops a listing after 10,000 pages or a repeated cursor. Revision
// 2026-07-28 ([ProtocolVersion]) is asked for first, with server/discover;
// a server that does not speak it gets the session protocol of revisions
// 2024-11-05 to 2025-11-25 ([LegacyProtocolVersion]), and one that
// answers initialize with another revision is refused ([ErrProtocol]).
// Skills served under a scheme other than skill:// are read too; their
// path in the file system starts with the scheme's name.
//
// Every request waits at most Options.RequestTimeout
// ([DefaultRequestTimeout]) and [Start] at most Options.StartTimeout
// ([DefaultStartTimeout]); one message is at most Options.MaxMessageBytes
// and holds at most one object or array per [MessageBytesPerContainer]
// bytes and one value per [MessageBytesPerValue] bytes, checked before it
// is decoded, so the client holds a few times the bytes it receives. A
// server that breaks a timeout or a bound is stopped ([ErrTimeout],
// [ErrProtocol]).
//
// # Commands from records
//
// A skill installed from a server started by a command records that
// command (the mcp+stdio: URL). Records can be written by others, so
// [FromRecord] starts it again only when it equals one of the host's
// allowed commands ([ParseAllowList], [ReadAllowList]), else it fails with
// [ErrNotAllowed] and starts nothing.
package mcpskills
