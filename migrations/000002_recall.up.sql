-- Vector recall (RULES P3) at 1,536 dimensions (OpenAI's text-embedding-3-small and ada-002): an HNSW
-- index on cosine distance. HNSW needs a fixed size, so the index covers 1,536-dimension embeddings
-- only (an expression on the cast, with the matching predicate); other sizes are searched exactly.
--
-- Measured with 100,000 visible items of 120,000 (pgvector 0.8, PostgreSQL 15): the nearest 30 by an
-- exact scan of the visible items' embeddings took 1.8 s warm; with this index and
-- hnsw.iterative_scan = relaxed_order, 4 ms, with the same 30 results. For a scope of a few hundred
-- items the planner still prefers the exact scan of that scope (6 ms), so small scopes stay exact.
CREATE INDEX memory_embeddings_hnsw_1536 ON memory_embeddings
    USING hnsw ((embedding::vector(1536)) vector_cosine_ops)
    WHERE dimensions = 1536;
