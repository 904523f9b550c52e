-- name: TombstoneInsert :exec
INSERT INTO memory_tombstones (scope, content_hash, item_id, keyed) VALUES (@scope, @content_hash, @item_id::uuid, true)
ON CONFLICT (scope, content_hash) DO UPDATE SET item_id = EXCLUDED.item_id, forgotten_at = now();

-- name: TombstoneExists :one
-- hashes are every value a tombstone of the text may have (Service.tombstoneHashes).
SELECT EXISTS (SELECT 1 FROM memory_tombstones WHERE scope = @scope AND content_hash = ANY(@hashes::bytea[]));

-- name: TombstoneKeyInsert :exec
-- Records the installation's tombstone key by its fingerprint, once: the first key used.
INSERT INTO memory_tombstone_key (fingerprint) VALUES (@fingerprint) ON CONFLICT DO NOTHING;

-- name: TombstoneKeyGetForUpdate :one
SELECT fingerprint FROM memory_tombstone_key FOR UPDATE;

-- name: TombstonesLegacy :many
-- Tombstones written before keys: their hash is a plain SHA-256.
SELECT scope, content_hash FROM memory_tombstones WHERE NOT keyed;

-- name: TombstoneWrap :exec
UPDATE memory_tombstones SET content_hash = @keyed_hash, keyed = true
 WHERE scope = @scope AND content_hash = @content_hash AND NOT keyed;
