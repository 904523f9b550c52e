-- Reverses 000024_vector_sketch.up.sql.
DROP TRIGGER IF EXISTS memory_sketches_insert ON memory_embeddings;
DROP TRIGGER IF EXISTS memory_sketches_update ON memory_embeddings;
DROP FUNCTION IF EXISTS memory_sketches_insert();
DROP FUNCTION IF EXISTS memory_sketches_update();
DROP TABLE IF EXISTS memory_sketches;
