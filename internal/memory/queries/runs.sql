-- name: RunGet :one
-- Every statement of this file that returns runs returns these columns, in this order: the run's
-- row (runRow in runs.go).
SELECT id, teammate_id, thread_id, status, started_by_user, generation, rating, created_at, ended_at, cancelled_at
  FROM runs WHERE id = @id;

-- name: RunGetForUpdate :one
SELECT id, teammate_id, thread_id, status, started_by_user, generation, rating, created_at, ended_at, cancelled_at
  FROM runs WHERE id = @id FOR UPDATE;

-- name: RunInsert :one
INSERT INTO runs (teammate_id, thread_id, started_by_user, generation, token_hash)
VALUES (@teammate_id, @thread_id, @started_by_user, @generation, @token_hash)
RETURNING id, teammate_id, thread_id, status, started_by_user, generation, rating, created_at, ended_at, cancelled_at;

-- name: RunEnd :one
-- Ends a running run with status; its token stops working. No row: it wasn't running.
UPDATE runs SET status = @status, ended_at = now(), token_hash = NULL,
                cancelled_at = CASE WHEN @status::text = 'cancelled' THEN now() END
 WHERE id = @id AND status = 'running'
RETURNING id, teammate_id, thread_id, status, started_by_user, generation, rating, created_at, ended_at, cancelled_at;

-- name: RunRate :one
UPDATE runs SET rating = @rating WHERE id = @id
RETURNING id, teammate_id, thread_id, status, started_by_user, generation, rating, created_at, ended_at, cancelled_at;

-- name: RunsOfTeammate :many
-- Newest first; the keyset before_* is the last run of the previous page.
SELECT id, teammate_id, thread_id, status, started_by_user, generation, rating, created_at, ended_at, cancelled_at
  FROM runs
 WHERE teammate_id = @teammate_id
   AND (sqlc.narg(before_created)::timestamptz IS NULL
        OR (created_at, id) < (sqlc.narg(before_created)::timestamptz, sqlc.narg(before_id)::uuid))
 ORDER BY created_at DESC, id DESC LIMIT @max_rows::int;

-- name: RunAdopt :exec
UPDATE runs SET generation = @generation WHERE id = @id;

-- name: RunIsRunning :one
SELECT status = 'running' AS running FROM runs WHERE id = @id;

-- name: RunsTeammates :many
SELECT id, teammate_id FROM runs WHERE id = ANY(@ids::uuid[]);

-- name: RunsLockOfTeammate :many
-- A teammate's tool locks its run, then the scopes (runWriteTx): a teammate's deletion locks its
-- runs before its scope, in id order, so the two never wait on each other in opposite orders
-- (tx.go, lock order). NO KEY UPDATE waits for a run's tools (FOR UPDATE) without stopping a
-- writer that holds the scope from inserting a row that names the run (a lesson, an extraction).
SELECT id FROM runs WHERE teammate_id = @teammate_id ORDER BY id FOR NO KEY UPDATE;

-- name: RunAuthenticate :one
-- The running run of a token hash and whether it has been idle for longer than idle. A live run's
-- last activity is moved to now only when it is older than touch_every, so a busy run writes its
-- row at most once per touch_every rather than on every tool call.
WITH r AS (
    SELECT runs.id, runs.teammate_id, runs.last_active_at < now() - @idle::interval AS idle,
           runs.last_active_at < now() - @touch_every::interval AS stale
      FROM runs WHERE runs.token_hash = @token_hash AND runs.status = 'running'
), touched AS (
    UPDATE runs SET last_active_at = now() FROM r WHERE runs.id = r.id AND NOT r.idle AND r.stale
)
SELECT r.id, r.teammate_id, r.idle FROM r;

-- name: RunsEndIdle :many
-- Interrupts the running runs idle for longer than idle: every one, or only_id alone. The idle
-- condition is checked again here, so a run used meanwhile is left alone.
UPDATE runs SET status = 'interrupted', ended_at = now(), token_hash = NULL
 WHERE status = 'running' AND last_active_at < now() - @idle::interval
   AND (sqlc.narg(only_id)::uuid IS NULL OR id = sqlc.narg(only_id)::uuid)
RETURNING id;

-- name: RunExtractSource :one
-- What an extract job needs of a run: its teammate, whether it completed and was started by the
-- user, its user message (none: NULL), whether that message is suppressed (F4), and whether the run
-- was extracted already.
SELECT r.teammate_id, (r.status = 'completed' AND r.started_by_user)::boolean AS eligible,
       m.id AS message_id, m.content AS message,
       EXISTS (SELECT 1 FROM memory_suppressions s WHERE s.message_id = m.id) AS suppressed,
       EXISTS (SELECT 1 FROM memory_items i WHERE i.source_run_id = r.id AND i.source = 'extraction') AS extracted
  FROM runs r
  LEFT JOIN messages m ON m.id = (SELECT u.id FROM messages u WHERE u.run_id = r.id AND u.role = 'user'
                                   ORDER BY u.created_at, u.id LIMIT 1)
 WHERE r.id = @id;
