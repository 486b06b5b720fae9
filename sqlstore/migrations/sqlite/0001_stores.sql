-- The registry: one row per installed skill (registry.Record). revision
-- grows with every write; conditional writes compare it. Times are
-- RFC 3339 text in UTC with nanoseconds; booleans 0 or 1.
CREATE TABLE skillkit_registry (
	name         TEXT PRIMARY KEY NOT NULL,
	version      TEXT NOT NULL DEFAULT '',
	source       TEXT NOT NULL DEFAULT '',
	url          TEXT NOT NULL DEFAULT '',
	ref          TEXT NOT NULL DEFAULT '',
	commit_hash  TEXT NOT NULL DEFAULT '',
	subdir       TEXT NOT NULL DEFAULT '',
	tree         TEXT NOT NULL DEFAULT '',
	fingerprint  TEXT NOT NULL DEFAULT '',
	installed_at TEXT,
	updated_at   TEXT,
	enabled      INTEGER NOT NULL,
	pinned       INTEGER NOT NULL,
	install_id   TEXT NOT NULL DEFAULT '',
	revision     INTEGER NOT NULL DEFAULT 1
);

-- Sealed secret values, never plaintext: one row per variable of a skill.
CREATE TABLE skillkit_secrets (
	skill  TEXT NOT NULL,
	name   TEXT NOT NULL,
	sealed BLOB NOT NULL,
	PRIMARY KEY (skill, name)
);
