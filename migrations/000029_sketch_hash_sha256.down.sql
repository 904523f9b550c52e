-- Reverses 000029_sketch_hash_sha256.up.sql: the sketch scan's key hashed by hashtextextended again,
-- and the stored keys computed again with it.
CREATE OR REPLACE FUNCTION memory_sketch_hash(scope text, dimensions integer, model text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN hashtextextended(memory_sketch_key(scope, dimensions, model) COLLATE "C", 0);

DROP INDEX memory_sketches_by_hash;
UPDATE memory_sketches SET scope = scope;
CREATE INDEX memory_sketches_by_hash ON memory_sketches (scan_hash) INCLUDE (item_id, revision, sketch);
