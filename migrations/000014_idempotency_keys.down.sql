-- lossy: every idempotency key and the answer it recorded (idempotency_keys): a retry of a write
-- whose answer was lost is no longer recognised and writes again.
--
-- Reverses 000014_idempotency_keys.up.sql.
DROP TABLE idempotency_keys;
