-- Reverses 000021_vector_index_half.up.sql.
CREATE INDEX memory_embeddings_hnsw_1536 ON memory_embeddings
    USING hnsw ((embedding::vector(1536)) vector_cosine_ops)
    WHERE dimensions = 1536;

DROP INDEX IF EXISTS memory_embeddings_hnsw_1536_half;
