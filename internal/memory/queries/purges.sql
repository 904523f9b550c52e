-- name: PurgeDue :one
-- An item was forgotten after the last purge.
SELECT EXISTS (SELECT 1 FROM memory_items
                WHERE forgotten_at >= coalesce((SELECT purged_upto FROM memory_purges), '-infinity'));

-- name: PurgeHorizon :one
-- The start of the oldest transaction running now (but this one), or now. pg_stat_get_activity(NULL)
-- is the function behind the pg_stat_activity view, which sqlc's catalog doesn't have.
SELECT least(clock_timestamp(), (SELECT min(a.xact_start) FROM pg_stat_get_activity(NULL) a
                                  WHERE a.xact_start IS NOT NULL AND a.pid <> pg_backend_pid()))::timestamptz AS horizon;

-- name: PurgeRecord :exec
INSERT INTO memory_purges (purged_upto) VALUES (@purged_upto)
ON CONFLICT (singleton) DO UPDATE SET purged_upto = greatest(memory_purges.purged_upto, EXCLUDED.purged_upto);
