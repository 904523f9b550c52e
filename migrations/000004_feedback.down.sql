-- lossy: the lessons projection's rows of shared-scope lessons (lessons with no teammate), which
-- the older schema can't hold. Their items stay in memory_items, but migrating up again doesn't
-- bring the rows back.
--
-- Reverses 000004_feedback.up.sql.
DROP INDEX IF EXISTS messages_pending_retry;
DELETE FROM lessons WHERE teammate_id IS NULL;
ALTER TABLE lessons ALTER COLUMN teammate_id SET NOT NULL;
