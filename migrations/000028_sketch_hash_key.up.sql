-- The sketch scan's key as a number (RULES P3; memory.recallVectorSketch).
--
-- Migration 000026 keyed the scan's index by one text column, scope, size and model joined by
-- memory_sketch_key: for the bench's teammate some 60 bytes of every one of the ten thousand or so
-- index entries a request reads, beside the 192-byte sketch. The key is now that text's 64-bit hash
-- (memory_sketch_hash), so each entry is a quarter smaller and its key one integer. The recall
-- statement over the bench's vector database (10,000 visible of 20,000, psql, generic plans,
-- alternated) went from a median of 4.4–4.75 ms to 4.2–4.25 ms (docs/PERFORMANCE.md).
--
-- Two keys that share a hash (a chance of about one in 2^64 for a pair) would put one key's sketches
-- in the other's scan. Nothing unsafe follows: every sketch the scan keeps is checked against its
-- item (current revision, visible to the teammate) and re-ranked by its own model's embedding, so a
-- stranger's sketch only takes a place among the few hundred nearest; at another size the Hamming
-- distance refuses to compare it and the request fails rather than answer from it.
CREATE FUNCTION memory_sketch_hash(scope text, dimensions integer, model text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN hashtextextended(memory_sketch_key(scope, dimensions, model) COLLATE "C", 0);

ALTER TABLE memory_sketches
    ADD COLUMN scan_hash bigint GENERATED ALWAYS AS (memory_sketch_hash(scope, dimensions, model)) STORED;

CREATE INDEX memory_sketches_by_hash ON memory_sketches (scan_hash) INCLUDE (item_id, revision, sketch);

-- The text key's index goes; the column stays, as a migration here only adds columns: a process
-- still running the previous version's statement reads the same rows, without the index.
DROP INDEX memory_sketches_by_key;
