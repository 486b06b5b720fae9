-- Installed skills' files for replicas to fetch: one ZIP archive per
-- fingerprint (registry.PackageStore). stored_at is refreshed by every
-- store of the same fingerprint; Prune reads it.
CREATE TABLE skillkit_packages (
	fingerprint TEXT PRIMARY KEY,
	archive     BYTEA NOT NULL,
	stored_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- What each replica reported after its last sync (registry.ReplicaStore).
-- skills is a JSON object: skill name to the fingerprint the replica holds.
CREATE TABLE skillkit_replicas (
	id        TEXT PRIMARY KEY,
	host      TEXT NOT NULL DEFAULT '',
	dir       TEXT NOT NULL DEFAULT '',
	synced_at TIMESTAMPTZ,
	skills    TEXT NOT NULL DEFAULT '{}',
	error     TEXT NOT NULL DEFAULT ''
);

-- Every change of a registry row is announced on the channel
-- skillkit_registry, its payload the skill's name, so that replicas that
-- LISTEN sync at once.
CREATE OR REPLACE FUNCTION skillkit_registry_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM pg_notify('skillkit_registry', OLD.name);
	ELSE
		PERFORM pg_notify('skillkit_registry', NEW.name);
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER skillkit_registry_notify AFTER INSERT OR UPDATE OR DELETE ON skillkit_registry
	FOR EACH ROW EXECUTE FUNCTION skillkit_registry_notify();
