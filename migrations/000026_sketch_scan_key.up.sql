-- One key for the sketch scan (RULES P3; memory.recallVectorSketch).
--
-- The scan reads a teammate's sketches by one model at one size as ranges of an index. Keyed by
-- (scope, model, dimensions), every one of the ten thousand or so entries a request reads compared
-- all three columns again, the model's text under the database's collation; that was about a third
-- of the scan's time (docs/PERFORMANCE.md). The key is now one column, the three values joined by
-- memory_sketch_key, compared byte by byte. It is unambiguous: a scope is 'shared' or a teammate's
-- id, and neither it nor the dimensions' digits hold a space, so whatever follows the second space
-- is the model's name whole.
CREATE FUNCTION memory_sketch_key(scope text, dimensions integer, model text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN scope || ' ' || dimensions::text || ' ' || model;

ALTER TABLE memory_sketches
    ADD COLUMN scan_key text COLLATE "C" GENERATED ALWAYS AS (memory_sketch_key(scope, dimensions, model)) STORED;

CREATE INDEX memory_sketches_by_key ON memory_sketches (scan_key) INCLUDE (item_id, revision, sketch);
DROP INDEX memory_sketches_scan;
