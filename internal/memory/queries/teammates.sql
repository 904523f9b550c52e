-- name: TeammateInsert :one
-- Its scope (the generation row) comes with it, from a trigger (migration 000001).
INSERT INTO teammates (name) VALUES (@name) RETURNING *;

-- name: TeammateGet :one
SELECT * FROM teammates WHERE id = @id;

-- name: TeammatesList :many
-- Oldest first; only_id, when set, keeps that teammate alone.
SELECT * FROM teammates
 WHERE sqlc.narg(only_id)::uuid IS NULL OR id = sqlc.narg(only_id)::uuid
 ORDER BY created_at, id;

-- name: TeammatesByIDs :many
SELECT * FROM teammates WHERE id = ANY(@ids::uuid[]);

-- name: TeammateRename :one
UPDATE teammates SET name = @name WHERE id = @id RETURNING *;

-- name: TeammateExists :one
SELECT EXISTS (SELECT 1 FROM teammates WHERE id = @id);

-- name: TeammatesExist :one
SELECT EXISTS (SELECT 1 FROM teammates);

-- name: TeammateName :one
SELECT name FROM teammates WHERE id = @id;

-- name: TeammateLock :one
-- The deletion's first lock (tx.go, lock order): it waits for starts of the teammate's runs
-- under way and makes new ones wait (TeammateStartLock), but not the inserts of its running runs'
-- tools, whose foreign keys take the row's KEY SHARE lock. No row: no such teammate.
SELECT id FROM teammates WHERE id = @id FOR NO KEY UPDATE;

-- name: TeammateStartLock :one
-- A run's start locks its teammate first (tx.go, lock order): starts don't wait for each other,
-- but a deletion waits for them and they for it. No row: no such teammate.
SELECT id FROM teammates WHERE id = @id FOR SHARE;

-- name: TeammateConversationCounts :one
SELECT (SELECT count(*) FROM bot_threads b WHERE b.teammate_id = @id) AS threads,
       (SELECT count(*) FROM messages m JOIN bot_threads t ON t.id = m.thread_id WHERE t.teammate_id = @id) AS messages;

-- name: TeammateDelete :exec
-- Everything else of the teammate goes with this row through ON DELETE CASCADE (migration 000001):
-- its scope's generation row and tombstones, its items with their revisions, embeddings, contexts
-- and jobs, its threads, runs, messages and suppressions, its MEMORY.md import record and lessons
-- rows. Shared items that came from its runs or messages keep their text and lose only the link
-- (ON DELETE SET NULL).
DELETE FROM teammates WHERE id = @id;

-- name: TeammatesActivity :many
-- The activity of the teammates ids in one statement: each count is an index-only lookup on
-- memory_items_list, the newest run one on runs_teammate. (sqlc takes a LATERAL column for NOT
-- NULL, so whether the teammate ever ran is a column of its own.)
SELECT t.id,
       (SELECT count(*) FROM memory_items i WHERE i.scope = t.id::text AND i.status = 'active')::int AS memories,
       (SELECT count(*) FROM memory_items i WHERE i.scope = t.id::text AND i.status = 'candidate')::int AS suggestions,
       (r.last IS NOT NULL)::boolean AS has_run,
       coalesce(r.last, t.created_at)::timestamptz AS last_conversation_at,
       greatest(t.created_at, r.last,
                (SELECT max(i.updated_at) FROM memory_items i
                  WHERE i.scope = t.id::text AND i.status IN ('active', 'candidate')))::timestamptz AS last_activity_at
  FROM teammates t
  LEFT JOIN LATERAL (SELECT max(created_at) AS last FROM runs WHERE teammate_id = t.id) r ON true
 WHERE t.id = ANY(@ids::uuid[]);

-- name: TeammateNamedAs :many
-- The teammate, other than except_id, whose name is name ignoring case and the spaces around it
-- (teammates_name_key: at most one).
SELECT name FROM teammates
 WHERE lower(btrim(name)) = lower(btrim(@name::text))
   AND (sqlc.narg(except_id)::uuid IS NULL OR id <> sqlc.narg(except_id)::uuid);

-- name: TeammateSwitches :one
-- The teammate's memory switches (switch.go), read inside the transaction of the read or the write
-- they govern. No row: no such teammate.
SELECT use_memory, save_memory FROM teammates WHERE id = @id;

-- name: TeammateSetSwitches :one
-- A null leaves that switch as it is.
UPDATE teammates
   SET use_memory = coalesce(sqlc.narg(use_memory)::boolean, use_memory),
       save_memory = coalesce(sqlc.narg(save_memory)::boolean, save_memory)
 WHERE id = @id
RETURNING *;
