-- name: LedgerForgetInsert :exec
-- A forgotten item, in the forget's transaction (RULES F8).
INSERT INTO memory_forget_ledger (kind, item_id, scope, actor, hashes)
VALUES ('forget', @item_id::uuid, @scope::text, @actor::text, coalesce(@hashes::bytea[], '{}'));

-- name: LedgerDeletionInsert :exec
-- A deleted teammate, in the deletion's transaction.
INSERT INTO memory_forget_ledger (kind, teammate_id) VALUES ('delete-teammate', @teammate_id::uuid);

-- name: LedgerReplayedInsert :exec
-- An entry of the ledger file applied again after a restore: known from now on, and already written.
INSERT INTO memory_forget_ledger (id, at, kind, item_id, scope, actor, hashes, teammate_id, written_at)
VALUES (@id::uuid, @at, @kind, sqlc.narg(item_id)::uuid, sqlc.narg(scope), sqlc.narg(actor), coalesce(@hashes::bytea[], '{}'),
        sqlc.narg(teammate_id)::uuid, now())
ON CONFLICT (id) DO NOTHING;

-- name: LedgerUnwritten :many
-- Entries not yet copied to the ledger file, oldest first.
SELECT id, at, kind, item_id, scope, actor, hashes, teammate_id FROM memory_forget_ledger
 WHERE written_at IS NULL ORDER BY seq LIMIT @max_rows;

-- name: LedgerMarkWritten :exec
UPDATE memory_forget_ledger SET written_at = now() WHERE id = ANY(@ids::uuid[]) AND written_at IS NULL;

-- name: LedgerKnown :many
-- Which of ids this database holds: the rest were forgotten after its backup was made.
SELECT id FROM memory_forget_ledger WHERE id = ANY(@ids::uuid[]);

-- name: TombstoneRestore :exec
-- A tombstone the ledger recorded, written again after a restore; its scope must still exist.
INSERT INTO memory_tombstones (scope, content_hash, item_id, keyed)
SELECT @scope, @content_hash, (SELECT id FROM memory_items WHERE id = sqlc.narg(item_id)::uuid), true
 WHERE EXISTS (SELECT 1 FROM memory_generations WHERE scope = @scope)
ON CONFLICT (scope, content_hash) DO NOTHING;

-- name: LedgerAll :many
-- Every entry, oldest first: what the ledger file must hold (a file lost or cut short is made whole
-- from it).
SELECT id, at, kind, item_id, scope, actor, hashes, teammate_id FROM memory_forget_ledger ORDER BY seq;
