-- The publisher's signature of what was installed (registry.Record.Signer),
-- as JSON; '' when none was checked.
ALTER TABLE skillkit_registry ADD COLUMN signer TEXT NOT NULL DEFAULT '';
