DROP INDEX IF EXISTS messages_pending_retry;
DELETE FROM lessons WHERE teammate_id IS NULL;
ALTER TABLE lessons ALTER COLUMN teammate_id SET NOT NULL;
