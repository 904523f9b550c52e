-- name: JobInsert :exec
-- Enqueues a job and wakes runners on channel; NOTIFY is delivered at commit, never on rollback.
-- run_after NULL: now.
WITH j AS (
    INSERT INTO memory_jobs (kind, item_id, revision, run_id, run_after)
    VALUES (@kind, sqlc.narg(item_id)::uuid, sqlc.narg(revision)::int, sqlc.narg(run_id)::uuid,
            coalesce(sqlc.narg(run_after)::timestamptz, now()))
    RETURNING id, kind
)
SELECT id, pg_notify(@channel, kind) FROM j;

-- name: JobsInsertUnique :one
-- Enqueues the jobs of the arrays (kind, item, revision, run; an empty string and 0 for none), in order, each
-- unless the same job is already pending or running, and wakes runners on channel if it added any.
-- The ids, and so the claim order, follow the arrays' order.
WITH wanted AS (
    SELECT DISTINCT ON (k, i, r, ru) k AS kind, nullif(i, '')::uuid AS item_id, nullif(r, 0) AS revision,
           nullif(ru, '')::uuid AS run_id, ord
      FROM (SELECT (@kinds::text[])[n] AS k, (@item_ids::text[])[n] AS i, (@revisions::int[])[n] AS r,
                   (@run_ids::text[])[n] AS ru, n AS ord
              FROM generate_series(1, cardinality(@kinds::text[])) AS n) AS w
     ORDER BY k, i, r, ru, ord
), added AS (
    INSERT INTO memory_jobs (kind, item_id, revision, run_id)
    SELECT w.kind, w.item_id, w.revision, w.run_id FROM wanted w
     WHERE NOT EXISTS (
        SELECT 1 FROM memory_jobs j
         WHERE j.status IN ('pending', 'running') AND j.kind = w.kind
           AND j.item_id IS NOT DISTINCT FROM w.item_id AND j.revision IS NOT DISTINCT FROM w.revision
           AND j.run_id IS NOT DISTINCT FROM w.run_id)
     ORDER BY w.ord
    RETURNING kind
), notified AS (
    SELECT pg_notify(@channel, kind) FROM (SELECT DISTINCT kind FROM added) k
)
SELECT (SELECT count(*) FROM added)::int AS added, (SELECT count(*) FROM notified) AS notified;

-- name: JobsClaim :many
-- Takes up to max_jobs due jobs of kinds, oldest due first, and leases them to locked_by until now +
-- lease_ms. SKIP LOCKED lets concurrent runners claim disjoint batches without waiting. now NULL:
-- the database's now() (the injectable clock of every statement here).
WITH next AS (
    SELECT id FROM memory_jobs
     WHERE status = 'pending' AND run_after <= coalesce(sqlc.narg(now)::timestamptz, now()) AND kind = ANY(sqlc.arg(kinds)::text[])
     ORDER BY run_after, id
     LIMIT sqlc.arg(max_jobs)::int
     FOR UPDATE SKIP LOCKED
)
UPDATE memory_jobs j
   SET status = 'running', attempts = j.attempts + 1, locked_by = sqlc.arg(locked_by)::text,
       lease_until = coalesce(sqlc.narg(now)::timestamptz, now()) + sqlc.arg(lease_ms)::bigint * interval '1 millisecond',
       updated_at = now()
  FROM next
 WHERE j.id = next.id
RETURNING j.id, j.kind, j.item_id, j.revision, j.run_id, j.attempts;

-- name: JobsCompleteMany :execrows
-- Marks the jobs ids (with their attempts) done, fenced on their claims (see JobRetry).
UPDATE memory_jobs j SET status = 'done', lease_until = NULL, last_error = NULL, updated_at = now()
  FROM (SELECT unnest(@ids::bigint[]) AS id, unnest(@attempts::int[]) AS attempts) AS c
 WHERE j.id = c.id AND j.attempts = c.attempts AND j.status = 'running' AND j.locked_by = @locked_by::text;

-- name: JobRetry :execrows
-- Records a failed attempt: back to pending after delay_ms from now, or failed when fail says so.
-- Like every update of a claimed job it is fenced on the claim: still running, still ours, still the
-- same claim (a rescued and re-claimed job has another attempt number or another owner).
UPDATE memory_jobs
   SET status = CASE WHEN sqlc.arg(fail)::boolean THEN 'failed' ELSE 'pending' END,
       run_after = CASE WHEN sqlc.arg(fail)::boolean THEN run_after
                        ELSE coalesce(sqlc.narg(now)::timestamptz, now()) + sqlc.arg(delay_ms)::bigint * interval '1 millisecond' END,
       locked_by = CASE WHEN sqlc.arg(fail)::boolean THEN locked_by END,
       lease_until = NULL, last_error = sqlc.arg(last_error)::text, updated_at = now()
 WHERE id = sqlc.arg(id) AND status = 'running' AND locked_by = sqlc.arg(locked_by)::text AND attempts = sqlc.arg(attempts);

-- name: JobSnooze :execrows
-- Puts a job back to wait until run_after (NULL: now) without counting the attempt (the AI budget
-- is spent until tomorrow; the runner is shutting down); fenced on the claim like JobRetry.
UPDATE memory_jobs
   SET status = 'pending', attempts = attempts - 1, run_after = coalesce(sqlc.narg(run_after)::timestamptz, now()),
       locked_by = NULL, lease_until = NULL, last_error = coalesce(sqlc.narg(last_error), last_error), updated_at = now()
 WHERE id = @id AND status = 'running' AND locked_by = @locked_by::text AND attempts = @attempts;

-- name: JobsRescue :execrows
-- Re-queues (or, out of attempts, fails) every job whose lease ran out: its runner died or hung.
-- The attempt counts: a job that kills its runner every time must stop.
UPDATE memory_jobs
   SET status = CASE WHEN attempts >= @max_attempts::int THEN 'failed' ELSE 'pending' END,
       run_after = coalesce(sqlc.narg(now)::timestamptz, now()),
       locked_by = NULL, lease_until = NULL, last_error = @last_error::text, updated_at = now()
 WHERE status = 'running' AND lease_until < coalesce(sqlc.narg(now)::timestamptz, now());

-- name: JobsPrune :exec
-- Deletes finished jobs older than the retention; failed ones stay for inspection (they hold no
-- text) until ten times as long.
DELETE FROM memory_jobs
 WHERE (status IN ('done', 'cancelled') AND updated_at < coalesce(sqlc.narg(now)::timestamptz, now()) - sqlc.arg(retention_ms)::bigint * interval '1 millisecond')
    OR (status = 'failed' AND updated_at < coalesce(sqlc.narg(now)::timestamptz, now()) - sqlc.arg(retention_ms)::bigint * interval '10 milliseconds');

-- name: JobsQueueDepth :many
-- The pending and running jobs by kind and status, with the age of the oldest of each (metrics).
SELECT kind, status, count(*)::int AS jobs,
       extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
  FROM memory_jobs
 WHERE status IN ('pending', 'running')
 GROUP BY kind, status
 ORDER BY kind, status;
