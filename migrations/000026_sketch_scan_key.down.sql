-- Reverses 000026_sketch_scan_key.up.sql: the sketch scan's index keyed by its three columns.
CREATE INDEX memory_sketches_scan ON memory_sketches (scope, model, dimensions) INCLUDE (item_id, revision, sketch);
DROP INDEX memory_sketches_by_key;
ALTER TABLE memory_sketches DROP COLUMN scan_key;
DROP FUNCTION memory_sketch_key(text, integer, text);
