-- lossy: everything the service holds: every table of the model and its rows (teammates, memories
-- and their history, conversations, runs, tombstones, jobs, settings).
--
-- Reverses 000001_init.up.sql. The vector extension stays: it may have been created by a superuser
-- before the migration ran, and other schemas may use it.
DROP TABLE IF EXISTS settings, lessons, memory_ai_usage, memory_imports, memory_suppressions,
    memory_tombstones, memory_jobs, memory_contexts, memory_embeddings, memory_revisions, memory_items,
    messages, runs, bot_threads, memory_generations, teammates;
DROP FUNCTION IF EXISTS memory_generations_for_teammate();
