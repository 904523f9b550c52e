-- The vector list's index (RULES P3) at 1,536 dimensions is built on each vector's half-precision
-- copy (pgvector's halfvec): half the size of the full-precision index of migration 000002, so more
-- of it stays in shared buffers. Recall re-ranks the
-- index's nearest candidates by their full-precision distance (memory.recallVectorIndexed), so the
-- list's distances and the MEMORY_SEMANTIC_MAX_DISTANCE cut-off are unchanged. The graph is built
-- with a wider candidate list (ef_construction 128) than pgvector's default of 64, for a better
-- connected graph at the same size; at query time recall sets hnsw.ef_search, hnsw.iterative_scan
-- and hnsw.max_scan_tuples itself. docs/PERFORMANCE.md has the measurements.
--
-- The index, like the one it replaces, covers 1,536-dimension embeddings only (an expression on the
-- cast, with the matching predicate); other sizes are searched exactly. A forgotten item's
-- embedding rows are deleted (RULES F1) and the index entries go with them, as before.
CREATE INDEX memory_embeddings_hnsw_1536_half ON memory_embeddings
    USING hnsw ((embedding::halfvec(1536)) halfvec_cosine_ops) WITH (m = 16, ef_construction = 128)
    WHERE dimensions = 1536;

DROP INDEX memory_embeddings_hnsw_1536;
