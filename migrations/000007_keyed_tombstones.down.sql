-- lossy: which tombstone and MEMORY.md import hashes are keyed (their keyed columns), the tombstone
-- key's fingerprint (memory_tombstone_key) and the time of the last purge (memory_purges). The
-- keyed hashes themselves stay: HMACs under the installation key, which the older code takes for
-- plain SHA-256, so no forgotten text matches its tombstone any more. Migrating up again marks
-- every hash unkeyed and the API wraps each a second time at start, so those tombstones never match
-- again; a start with another key is no longer refused, and the next start finds a purge due.
--
-- Reverses 000007_keyed_tombstones.up.sql.
DROP TABLE memory_purges;
DROP TABLE memory_tombstone_key;
ALTER TABLE memory_imports DROP COLUMN keyed;
ALTER TABLE memory_tombstones DROP COLUMN keyed;
