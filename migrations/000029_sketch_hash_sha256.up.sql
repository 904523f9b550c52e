-- The sketch scan's key hashed by SHA-256 (RULES P3; memory.recallVectorSketch).
--
-- Migration 000028 keyed the scan by hashtextextended, PostgreSQL's internal hash of a text. Its
-- values are stored (memory_sketches.scan_hash) and compared with the function's on every request,
-- so they must never change under the stored rows; PostgreSQL's own hash functions are not promised
-- to stay the same across major versions or platforms (pg_dump's --load-via-partition-root exists
-- because hash partitions can differ between them), and a changed hash would not fail: the vector
-- list would find nothing, silently, until the column was computed again. The key is now the first
-- eight bytes of the SHA-256 digest of its UTF-8 text, as a signed big-endian integer: a standard
-- whose values are the same everywhere (TestSketchHashIsSHA256 computes it in Go from the
-- definition and compares). SHA-256 rather than MD5, which PostgreSQL refuses
-- where OpenSSL runs in FIPS mode.
--
-- convert_to is marked STABLE because it looks conversions up by name; from the database's
-- encoding to UTF8 on a UTF8 database it returns its argument, so the function stays IMMUTABLE.
CREATE OR REPLACE FUNCTION memory_sketch_hash(scope text, dimensions integer, model text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ('x' || left(encode(sha256(convert_to(memory_sketch_key(scope, dimensions, model), 'UTF8')), 'hex'), 16))::bit(64)::bigint;

-- The stored keys are computed again (an UPDATE recomputes a row's generated columns), with the
-- scan's index dropped first and built again after: updated in place it would keep an entry for
-- every old row too and stay twice its size, so every scan would read twice the pages. Dropping the
-- index locks memory_sketches until the migration commits, as 000028's rewrite did: vector recall,
-- and the writes that add or remove sketches (an embedding stored, an embedded item forgotten or
-- purged), wait for it.
DROP INDEX memory_sketches_by_hash;
UPDATE memory_sketches SET scope = scope;
CREATE INDEX memory_sketches_by_hash ON memory_sketches (scan_hash) INCLUDE (item_id, revision, sketch);
