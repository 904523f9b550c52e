-- Reverses 000002_recall.up.sql.
DROP INDEX IF EXISTS memory_embeddings_hnsw_1536;
