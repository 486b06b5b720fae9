-- The registry: one row per installed skill (registry.Record). revision
-- grows with every write; conditional writes compare it.
CREATE TABLE skillkit_registry (
	name         TEXT PRIMARY KEY,
	version      TEXT NOT NULL DEFAULT '',
	source       TEXT NOT NULL DEFAULT '',
	url          TEXT NOT NULL DEFAULT '',
	ref          TEXT NOT NULL DEFAULT '',
	commit_hash  TEXT NOT NULL DEFAULT '',
	subdir       TEXT NOT NULL DEFAULT '',
	tree         TEXT NOT NULL DEFAULT '',
	fingerprint  TEXT NOT NULL DEFAULT '',
	installed_at TIMESTAMPTZ,
	updated_at   TIMESTAMPTZ,
	enabled      BOOLEAN NOT NULL,
	pinned       BOOLEAN NOT NULL,
	install_id   TEXT NOT NULL DEFAULT '',
	revision     BIGINT NOT NULL DEFAULT 1
);

-- Sealed secret values, never plaintext: one row per variable of a skill.
CREATE TABLE skillkit_secrets (
	skill  TEXT NOT NULL,
	name   TEXT NOT NULL,
	sealed BYTEA NOT NULL,
	PRIMARY KEY (skill, name)
);
