-- Installed skills' files for replicas to fetch: one ZIP archive per
-- fingerprint (registry.PackageStore). stored_at (RFC 3339 text in UTC)
-- is refreshed by every store of the same fingerprint; Prune reads it.
CREATE TABLE skillkit_packages (
	fingerprint TEXT PRIMARY KEY NOT NULL,
	archive     BLOB NOT NULL,
	stored_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- What each replica reported after its last sync (registry.ReplicaStore).
-- skills is a JSON object: skill name to the fingerprint the replica holds.
CREATE TABLE skillkit_replicas (
	id        TEXT PRIMARY KEY NOT NULL,
	host      TEXT NOT NULL DEFAULT '',
	dir       TEXT NOT NULL DEFAULT '',
	synced_at TEXT,
	skills    TEXT NOT NULL DEFAULT '{}',
	error     TEXT NOT NULL DEFAULT ''
);
