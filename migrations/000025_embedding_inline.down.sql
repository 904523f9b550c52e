-- Reverses 000025_embedding_inline.up.sql: pgvector's default storage for vectors.
ALTER TABLE memory_embeddings ALTER COLUMN embedding SET STORAGE EXTERNAL;
