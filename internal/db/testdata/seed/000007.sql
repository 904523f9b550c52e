-- Keyed tombstones and import hashes, the key's fingerprint and a purge.
INSERT INTO memory_tombstone_key (fingerprint) VALUES (sha256('key fingerprint'::bytea));
INSERT INTO memory_purges (purged_upto) VALUES (now() - interval '1 hour');
UPDATE memory_tombstones SET keyed = true;
UPDATE memory_imports SET keyed = true WHERE content_hash IS NOT NULL;
INSERT INTO memory_tombstones (scope, content_hash, keyed) VALUES
    ('shared', sha256('keyed hash of a forgotten shared text'::bytea), true);
