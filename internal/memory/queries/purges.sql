-- name: PurgeDue :one
-- An item was forgotten, or a teammate deleted (F7), after the last purge.
SELECT (EXISTS (SELECT 1 FROM memory_items
                 WHERE forgotten_at >= coalesce((SELECT purged_upto FROM memory_purges), '-infinity'))
     OR EXISTS (SELECT 1 FROM memory_deletions
                 WHERE deleted_at >= coalesce((SELECT purged_upto FROM memory_purges), '-infinity')))::boolean AS due;

-- name: PurgeDeletionDue :one
-- A teammate was deleted after the last purge: the purge rewrites the conversation tables too.
SELECT EXISTS (SELECT 1 FROM memory_deletions
                WHERE deleted_at >= coalesce((SELECT purged_upto FROM memory_purges), '-infinity'));

-- name: PurgeDeletionRecord :exec
-- A teammate is being deleted: its transaction's start, as a forget's forgotten_at is, so that a
-- purge whose horizon is later covers it and one that began meanwhile leaves it for the next.
INSERT INTO memory_deletions (deleted_at) VALUES (now())
ON CONFLICT (singleton) DO UPDATE SET deleted_at = greatest(memory_deletions.deleted_at, EXCLUDED.deleted_at);

-- name: PurgeHorizon :one
-- The start of the oldest transaction running now (but this one), or now. pg_stat_get_activity(NULL)
-- is the function behind the pg_stat_activity view, which sqlc's catalog doesn't have.
SELECT least(clock_timestamp(), (SELECT min(a.xact_start) FROM pg_stat_get_activity(NULL) a
                                  WHERE a.xact_start IS NOT NULL AND a.pid <> pg_backend_pid()))::timestamptz AS horizon;

-- name: PurgeRecord :exec
INSERT INTO memory_purges (purged_upto) VALUES (@purged_upto)
ON CONFLICT (singleton) DO UPDATE SET purged_upto = greatest(memory_purges.purged_upto, EXCLUDED.purged_upto);
