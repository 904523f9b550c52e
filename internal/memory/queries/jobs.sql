-- name: JobsCancelOfItem :exec
-- The item's pending jobs; a job already running holds a lease and re-checks the item under lock
-- before it writes (F2).
UPDATE memory_jobs SET status = 'cancelled', updated_at = now() WHERE item_id = @item_id::uuid AND status = 'pending';
