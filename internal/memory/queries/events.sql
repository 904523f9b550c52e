-- name: EventNotify :exec
-- Delivered when the transaction commits, never if it rolls back.
SELECT pg_notify(@channel, @payload);
