-- name: ImportInsert :one
-- The teammate's one MEMORY.md import record; no row: there is one already.
INSERT INTO memory_imports (teammate_id, outcome, content_hash, keyed) VALUES (@teammate_id, @outcome, @content_hash, true)
ON CONFLICT (teammate_id) DO NOTHING
RETURNING teammate_id;

-- name: ImportLinkItem :exec
UPDATE memory_imports SET item_id = @item_id WHERE teammate_id = @teammate_id;

-- name: ImportExists :one
SELECT EXISTS (SELECT 1 FROM memory_imports WHERE teammate_id = @teammate_id);

-- name: ImportsLegacy :many
-- Import records written before keys: their hash is a plain SHA-256.
SELECT teammate_id, content_hash::bytea AS content_hash FROM memory_imports WHERE NOT keyed AND content_hash IS NOT NULL;

-- name: ImportWrap :exec
UPDATE memory_imports SET content_hash = @keyed_hash, keyed = true WHERE teammate_id = @teammate_id;
