-- name: IdempotencyKeyFreeExpired :exec
-- An expired key the sweeper hasn't deleted yet is free again: it goes before the claim.
DELETE FROM idempotency_keys WHERE owner = @owner AND key_hash = @key_hash AND expires_at <= now();

-- name: IdempotencyKeyClaim :one
-- Claims the key for this transaction's write. No row: the key is taken — by a committed write, or
-- by a concurrent one this statement waited for until it committed.
INSERT INTO idempotency_keys (owner, run_id, key_hash, operation, fingerprint, expires_at)
VALUES (@owner, @run_id, @key_hash, @operation, @fingerprint, now() + @lifetime::interval)
ON CONFLICT (owner, key_hash) DO NOTHING
RETURNING true AS claimed;

-- name: IdempotencyKeyGet :one
SELECT operation, fingerprint, item_ids, teammate_id, outcome, reason, message, adopted, unchanged
  FROM idempotency_keys WHERE owner = @owner AND key_hash = @key_hash;

-- name: IdempotencyKeyAnswer :exec
-- Records the answer of the write that claimed the key, in its transaction.
UPDATE idempotency_keys
   SET item_ids = @item_ids::uuid[], teammate_id = @teammate_id, outcome = @outcome, reason = @reason,
       message = @message, adopted = @adopted, unchanged = @unchanged
 WHERE owner = @owner AND key_hash = @key_hash;

-- name: IdempotencyKeysDeleteExpired :execrows
DELETE FROM idempotency_keys WHERE expires_at <= now();
