-- An embedding of the size the HNSW index of migration 000002 covers.
INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES
    ('e0000000-0000-4000-8000-000000000002', 1, 'text-embedding-3-small', 1536,
     array_fill(0.025::real, ARRAY[1536])::vector);
