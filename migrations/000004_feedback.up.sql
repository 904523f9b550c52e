-- Lessons may live in the shared scope too (a user can file any item as a lesson), and a retry is a
-- user message that waits for the worker to start its run (L3).
ALTER TABLE lessons ALTER COLUMN teammate_id DROP NOT NULL;
CREATE INDEX messages_pending_retry ON messages (created_at) WHERE redo_of_run_id IS NOT NULL AND run_id IS NULL;
