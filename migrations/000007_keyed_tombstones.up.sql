-- Tombstones are keyed (F3): HMAC-SHA-256 with an installation secret kept outside the
-- database, so a dump alone can't be brute-forced. Rows written before were plain SHA-256 of the
-- normalised text; the API wraps them at start (memory.Background.UseTombstoneKey: the new value is
-- an HMAC of the old one) and marks them keyed. The import record's hash of a MEMORY.md is wrapped
-- the same way.
ALTER TABLE memory_tombstones ADD COLUMN keyed boolean NOT NULL DEFAULT false;
ALTER TABLE memory_imports ADD COLUMN keyed boolean NOT NULL DEFAULT false;

-- A fingerprint of the key the tombstones are keyed with (an HMAC of a fixed label, which reveals
-- nothing of the key), so that a process started with another key refuses to run instead of
-- silently matching nothing.
CREATE TABLE memory_tombstone_key (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    fingerprint bytea NOT NULL CHECK (octet_length(fingerprint) = 32),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- When forgotten text was last purged from the data files (memory.Background.Purge; embedded
-- cluster only): a forget after it means a purge is due.
CREATE TABLE memory_purges (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    purged_upto timestamptz NOT NULL
);
