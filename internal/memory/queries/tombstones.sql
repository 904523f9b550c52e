-- name: TombstoneInsert :exec
INSERT INTO memory_tombstones (scope, content_hash, item_id, keyed) VALUES (@scope, @content_hash, @item_id::uuid, true)
ON CONFLICT (scope, content_hash) DO UPDATE SET item_id = EXCLUDED.item_id, forgotten_at = now();

-- name: TombstoneExists :one
-- hashes are every value a tombstone of the text may have (Service.tombstoneHashes).
SELECT EXISTS (SELECT 1 FROM memory_tombstones WHERE scope = @scope AND content_hash = ANY(@hashes::bytea[]));
