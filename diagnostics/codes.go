package diagnostics

import "slices"

// Code is a machine-readable diagnostic code such as "NAME_INVALID".
type Code string

// The codes skillkit reports. The level in brackets is the default level
// ([Code.Level]); strict validation raises some warnings to errors.
const (
	// NameCollision [warning]: two skill folders declare the same name; the
	// first source wins (within a source, the first path in sorted order).
	// Detail: winner and loser path and source.
	NameCollision Code = "NAME_COLLISION"
	// NameInvalid [warning]: the name breaks the specification's rules (1-64
	// characters of a-z, 0-9 and single inner hyphens) or is missing, in which
	// case the folder name is used.
	NameInvalid Code = "NAME_INVALID"
	// NameMismatch [warning]: the name differs from its folder name after NFKC.
	NameMismatch Code = "NAME_MISMATCH"
	// NameReserved [warning]: the name contains "anthropic" or "claude", which
	// Anthropic's API refuses. Not a specification rule, so never an error.
	NameReserved Code = "NAME_RESERVED"
	// DescMissing [error]: no description, or an empty one; the skill is
	// skipped, since the model could never know when to use it.
	DescMissing Code = "DESC_MISSING"
	// DescTooLong [warning]: the description is over 1024 characters.
	DescTooLong Code = "DESC_TOO_LONG"
	// DescHasXML [warning]: the description holds an XML-like tag, which
	// Anthropic's API refuses. Not a specification rule, so never an error.
	DescHasXML Code = "DESC_HAS_XML"
	// CompatTooLong [warning]: compatibility is over 500 characters.
	CompatTooLong Code = "COMPAT_TOO_LONG"
	// FrontmatterInvalid [error]: SKILL.md has no frontmatter, an unclosed
	// one, YAML that cannot be read even after repair, or YAML that is not a
	// mapping. The skill is skipped.
	FrontmatterInvalid Code = "FRONTMATTER_INVALID"
	// FrontmatterRecovered [warning]: the frontmatter is not valid YAML but
	// was read after quoting plain values that contain ": " or expanding tab
	// indentation, or, in lenient mode, field by field with the broken fields
	// dropped (one diagnostic per dropped field; detail: field, line). The
	// skill loads; its author should fix the file.
	FrontmatterRecovered Code = "FRONTMATTER_RECOVERED"
	// FieldUnknown [info]: a frontmatter or config field that no supported
	// dialect defines. It is kept in the raw frontmatter.
	FieldUnknown Code = "FIELD_UNKNOWN"
	// FieldInvalid [warning]: a field has the wrong type or value, or a key is
	// duplicated (the last value wins). The field is ignored.
	FieldInvalid Code = "FIELD_INVALID"
	// FileTooLarge [error]: SKILL.md's frontmatter or skill.config.yaml is
	// over the size limit; the file is not read. A warning when SKILL.md is
	// over the limit but its frontmatter is not: the skill loads, and what
	// is served of it stops at the limit.
	FileTooLarge Code = "FILE_TOO_LARGE"
	// ReferenceMissing [warning]: a declared reference file does not exist.
	ReferenceMissing Code = "REFERENCE_MISSING"
	// EntrypointMissing [error]: the entrypoint named in skill.config.yaml does
	// not exist; the skill cannot run.
	EntrypointMissing Code = "ENTRYPOINT_MISSING"
	// ConfigParseError [error]: skill.config.yaml cannot be read or breaks its
	// schema; the skill's instructions stay readable but it cannot run.
	ConfigParseError Code = "CONFIG_PARSE_ERROR"
	// FingerprintChanged [info]: the skill's files differ from the
	// fingerprint recorded at install time (edited outside an update).
	FingerprintChanged Code = "FINGERPRINT_CHANGED"
	// EnvNotConfigured [warning]: a required environment variable has neither
	// a saved secret nor a default.
	EnvNotConfigured Code = "ENV_NOT_CONFIGURED"
	// RuntimeUnavailable [error]: the declared runtime (python, node, bash,
	// dotnet) is not installed.
	RuntimeUnavailable Code = "RUNTIME_UNAVAILABLE"
	// SystemDepMissing [warning]: a system dependency's program is not on
	// PATH (Doctor), or its check command failed (installing dependencies).
	SystemDepMissing Code = "SYSTEM_DEP_MISSING"
	// VenvMissing [warning]: the skill declares Python dependencies but has no
	// .venv folder.
	VenvMissing Code = "VENV_MISSING"
	// DepsMissing [warning]: the skill declares Node packages but has no
	// node_modules folder.
	DepsMissing Code = "DEPS_MISSING"
	// DeclaredFileMissing [warning]: a file that skill.config.yaml names for
	// the skill's dependencies or setup (the requirements file, the .NET
	// project, the setup script for this system) does not exist, so
	// installing its dependencies would fail.
	DeclaredFileMissing Code = "DECLARED_FILE_MISSING"
	// SkillFileLowercase [info]: the skill file is spelled otherwise than
	// SKILL.md (skill.md, Skill.md, ...), or a second spelling beside the one
	// read is ignored. A warning in strict mode for spellings other than
	// SKILL.md and skill.md, which readers following the specification do
	// not look for.
	SkillFileLowercase Code = "SKILL_FILE_LOWERCASE"
	// ByteOrderMark [info]: the file starts with a UTF-8 byte order mark,
	// which is ignored.
	ByteOrderMark Code = "BYTE_ORDER_MARK"
	// LineEnds [info]: the file ends its lines with a lone CR (classic Mac
	// OS), which is read as LF, as YAML and Python's text files read it.
	LineEnds Code = "LINE_ENDS"
	// NestedSkill [info]: a skill file inside another skill's folder. The
	// outer skill is loaded; the inner one only when the host asks for nested
	// skills. A warning when the outer skill does not load either. Detail:
	// outer (the skill holding it, its folder name when it does not load).
	NestedSkill Code = "NESTED_SKILL"
	// SkillInDotFolder [info]: a skill file under a dot folder that is not a
	// conventional skill root (.claude/skills, .agents/skills, ...); it is
	// not loaded.
	SkillInDotFolder Code = "SKILL_IN_DOT_FOLDER"
	// LimitReached [warning]: a discovery limit (skills, folders, files) cut
	// something; detail names the limit and what was left out.
	LimitReached Code = "LIMIT_REACHED"
	// SymlinkEscape [warning]: a symbolic link points outside its source root
	// and was not followed.
	SymlinkEscape Code = "SYMLINK_ESCAPE"
	// ReadError [error]: a file or folder could not be read.
	ReadError Code = "READ_ERROR"
	// PromptTruncated [warning]: the catalog outgrew its character budget and
	// left skills out; detail lists them.
	PromptTruncated Code = "PROMPT_TRUNCATED"
	// PromptCompacted [warning]: the catalog shortened or left out
	// descriptions to stay within its character budget; detail says how.
	PromptCompacted Code = "PROMPT_COMPACTED"
	// ScanFinding [error, warning or info]: the security scan matched a rule
	// (package scan). The level follows the finding's severity: critical is
	// an error, high a warning, medium and low are info. Detail: rule,
	// severity, line, match.
	ScanFinding Code = "SCAN_FINDING"
	// UnicodeHidden [warning or error]: invisible, bidirectional, tag or
	// control characters in a skill's text, which a reader does not see and
	// a model reads (package scan). Always at least a warning in SKILL.md;
	// an error when they spell hidden text. Detail as for SCAN_FINDING.
	UnicodeHidden Code = "UNICODE_HIDDEN"
	// RemoteInvalid [error]: a skill a remote source publishes (an MCP
	// server's skill entry, a discovery index entry) is malformed, over a
	// limit, or cannot be verified; it is not loaded. Detail: uri or url.
	RemoteInvalid Code = "REMOTE_INVALID"
	// ReplicaBehind [warning]: a replica sharing the registry does not hold
	// what the registry records (it lacks enabled skills, holds other
	// versions, or still holds skills uninstalled elsewhere), or its last
	// sync failed. Detail: replica, host, dir, synced_at, missing, stale,
	// removed, error.
	ReplicaBehind Code = "REPLICA_BEHIND"
	// PublisherUntrusted [warning]: a listed publisher signed the installed
	// version (its git commit or tag, or its archive's Sigstore bundle), but
	// no longer verifies: the key or Sigstore identity is gone from the
	// host's publishers, or the archive's bundle, still beside it, no
	// longer verifies against the host's trusted root. Detail: format,
	// key, issuer, reason.
	PublisherUntrusted Code = "PUBLISHER_UNTRUSTED"
	// SkillModified [error]: an installed skill's files differ from the
	// fingerprint its record holds, the one a person or the trust policy
	// approved; none of its code runs and it gets no secret until its
	// current files are approved. Detail: recorded, current, files.
	SkillModified Code = "SKILL_MODIFIED"
)

// CodeInfo documents one code.
type CodeInfo struct {
	Code    Code
	Level   Level
	Meaning string
}

var codeTable = []CodeInfo{
	{NameCollision, Warning, "two skills declare the same name; the first source wins"},
	{NameInvalid, Warning, "the name breaks the specification's rules or is missing"},
	{NameMismatch, Warning, "the name differs from its folder name"},
	{NameReserved, Warning, `the name contains "anthropic" or "claude"`},
	{DescMissing, Error, "no description; the skill is skipped"},
	{DescTooLong, Warning, "the description is over 1024 characters"},
	{DescHasXML, Warning, "the description holds an XML-like tag"},
	{CompatTooLong, Warning, "compatibility is over 500 characters"},
	{FrontmatterInvalid, Error, "the frontmatter is missing, unclosed, not YAML or not a mapping; the skill is skipped"},
	{FrontmatterRecovered, Warning, "the frontmatter was read only after repairing it"},
	{FieldUnknown, Info, "a field no supported dialect defines"},
	{FieldInvalid, Warning, "a field has the wrong type or value, or a duplicated key"},
	{FileTooLarge, Error, "a file is over the size limit and was not read (a SKILL.md whose frontmatter fits loads, with a warning)"},
	{ReferenceMissing, Warning, "a declared reference file does not exist"},
	{EntrypointMissing, Error, "the entrypoint does not exist; the skill cannot run"},
	{ConfigParseError, Error, "skill.config.yaml is invalid; the skill is readable but cannot run"},
	{FingerprintChanged, Info, "the files differ from the fingerprint recorded at install"},
	{EnvNotConfigured, Warning, "a required environment variable has no value and no default"},
	{RuntimeUnavailable, Error, "the declared runtime is not installed"},
	{SystemDepMissing, Warning, "a system dependency is not installed (not on PATH, or its check failed)"},
	{VenvMissing, Warning, "Python dependencies are declared but .venv is missing"},
	{DepsMissing, Warning, "Node packages are declared but node_modules is missing"},
	{DeclaredFileMissing, Warning, "a file skill.config.yaml names for dependencies or setup does not exist"},
	{SkillFileLowercase, Info, "the skill file is spelled otherwise than SKILL.md, or a second spelling is ignored"},
	{ByteOrderMark, Info, "the file starts with a UTF-8 byte order mark, which is ignored"},
	{LineEnds, Info, "the file ends its lines with a lone CR, read as LF"},
	{NestedSkill, Info, "a skill file inside another skill's folder; the outer skill is loaded"},
	{SkillInDotFolder, Info, "a skill file under a dot folder that is not a skill root; not loaded"},
	{LimitReached, Warning, "a discovery limit left something out"},
	{SymlinkEscape, Warning, "a symbolic link leaves its source root and was not followed"},
	{ReadError, Error, "a file or folder could not be read"},
	{PromptTruncated, Warning, "the catalog left skills out to stay within its budget"},
	{PromptCompacted, Warning, "the catalog shortened or left out descriptions to stay within its budget"},
	{ScanFinding, Warning, "the security scan matched a rule; the level follows the finding's severity"},
	{UnicodeHidden, Warning, "invisible, bidirectional, tag or control characters a reader does not see"},
	{RemoteInvalid, Error, "a skill a remote source publishes is malformed, over a limit or unverifiable; not loaded"},
	{ReplicaBehind, Warning, "a replica sharing the registry lags what it records, or its last sync failed"},
	{PublisherUntrusted, Warning, "the publisher that signed the installed version is no longer among the host's publishers, or its signature no longer verifies"},
	{SkillModified, Error, "the files differ from what was approved; nothing of it runs until they are approved"},
}

// Codes returns the documentation of every code, in a fixed order.
func Codes() []CodeInfo {
	return slices.Clone(codeTable)
}

// Level returns the code's default level; Warning for an unknown code.
func (c Code) Level() Level {
	for _, info := range codeTable {
		if info.Code == c {
			return info.Level
		}
	}
	return Warning
}
