-- name: MessageInsert :one
INSERT INTO messages (thread_id, run_id, role, content, redo_of_run_id)
VALUES (@thread_id, @run_id, @role, @content, @redo_of_run_id)
RETURNING id;

-- name: MessageAttach :exec
UPDATE messages SET run_id = @run_id, thread_id = @thread_id WHERE id = @id;

-- name: MessageDetach :exec
-- Puts a retry's message back to waiting, in its thread, when its run failed to start.
UPDATE messages SET run_id = NULL, thread_id = @thread_id WHERE id = @id;

-- name: MessageUserOfRun :one
SELECT id, content FROM messages WHERE run_id = @run_id::uuid AND role = 'user' ORDER BY created_at LIMIT 1;

-- name: MessageReplyOfRun :one
SELECT content FROM messages WHERE run_id = @run_id::uuid AND role = 'assistant' ORDER BY created_at DESC LIMIT 1;

-- name: MessageRequestOfRun :one
-- A run's user message and, when the run is a retry, the run it redoes.
SELECT content, redo_of_run_id FROM messages WHERE run_id = @run_id::uuid AND role = 'user' ORDER BY created_at LIMIT 1;

-- name: MessageRetryGet :one
-- A retry's stored message and the run it redoes, without claiming it.
SELECT content, redo_of_run_id FROM messages WHERE id = @id;

-- name: MessageRetryGetForUpdate :one
-- Claims a retry's message that no run has picked up yet.
SELECT m.content, t.teammate_id, m.thread_id, m.redo_of_run_id::uuid AS redo_of_run_id
  FROM messages m JOIN bot_threads t ON t.id = m.thread_id
 WHERE m.id = @id AND m.redo_of_run_id IS NOT NULL AND m.run_id IS NULL FOR UPDATE OF m;

-- name: MessageRetryCancel :one
-- Deletes a retry's message that no run has picked up yet; the run it redoes stays as it is.
DELETE FROM messages
 WHERE id = @id AND redo_of_run_id IS NOT NULL AND run_id IS NULL
RETURNING thread_id, redo_of_run_id::uuid AS redo_of_run_id, content, created_at;

-- name: MessageRetryState :one
-- Whether a message is a retry's, and whether a run has picked it up.
SELECT (redo_of_run_id IS NOT NULL)::boolean AS is_retry, (run_id IS NOT NULL)::boolean AS started FROM messages WHERE id = @id;

-- name: MessagesRetryWaiting :many
-- Redo messages no run has picked up yet, oldest first.
SELECT m.id, t.teammate_id, m.thread_id, m.redo_of_run_id::uuid AS redo_of_run_id, m.content, m.created_at
  FROM messages m JOIN bot_threads t ON t.id = m.thread_id
 WHERE m.redo_of_run_id IS NOT NULL AND m.run_id IS NULL
 ORDER BY m.created_at LIMIT 100;

-- name: MessagesSearchOfTeammate :many
-- P8: the teammate's own conversations, never another teammate's: messages matching words or
-- containing pattern (ILIKE), best first.
SELECT m.id, m.thread_id, m.run_id, m.role, m.content, m.created_at
  FROM messages m JOIN bot_threads t ON t.id = m.thread_id
 WHERE t.teammate_id = @teammate_id AND (m.search @@ plainto_tsquery('english', @words) OR m.content ILIKE @pattern::text)
 ORDER BY ts_rank_cd(m.search, plainto_tsquery('english', @words)) DESC, m.created_at DESC
 LIMIT @max_rows::int;
