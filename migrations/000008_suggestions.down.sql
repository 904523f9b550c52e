-- lossy: the revisions that record how suggestions were settled (actions dismiss and resolve), how
-- often each suggestion was made (memory_items.times_suggested) and how each settled one was
-- settled (memory_items.resolution). Migrating up again counts every suggestion once and marks only
-- the dismissed ones as dismissed.
--
-- Reverses 000008_suggestions.up.sql.
DROP INDEX memory_items_waiting_text;
DELETE FROM memory_revisions WHERE action IN ('dismiss', 'resolve');
ALTER TABLE memory_revisions DROP CONSTRAINT memory_revisions_action_check;
ALTER TABLE memory_revisions ADD CONSTRAINT memory_revisions_action_check
    CHECK (action IN ('create', 'edit', 'correct', 'restore', 'undo', 'confirm', 'pin', 'forget'));
ALTER TABLE memory_items DROP CONSTRAINT memory_items_resolution_settled,
                         DROP COLUMN resolution,
                         DROP COLUMN times_suggested;
