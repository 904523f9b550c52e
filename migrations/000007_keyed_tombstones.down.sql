DROP TABLE memory_purges;
DROP TABLE memory_tombstone_key;
ALTER TABLE memory_imports DROP COLUMN keyed;
ALTER TABLE memory_tombstones DROP COLUMN keyed;
