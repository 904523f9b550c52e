-- Reverses 000028_sketch_hash_key.up.sql: the sketch scan's index keyed by the text of 000026.
CREATE INDEX memory_sketches_by_key ON memory_sketches (scan_key) INCLUDE (item_id, revision, sketch);
DROP INDEX memory_sketches_by_hash;
ALTER TABLE memory_sketches DROP COLUMN scan_hash;
DROP FUNCTION memory_sketch_hash(text, integer, text);
