DROP INDEX memory_items_waiting_text;
DELETE FROM memory_revisions WHERE action IN ('dismiss', 'resolve');
ALTER TABLE memory_revisions DROP CONSTRAINT memory_revisions_action_check;
ALTER TABLE memory_revisions ADD CONSTRAINT memory_revisions_action_check
    CHECK (action IN ('create', 'edit', 'correct', 'restore', 'undo', 'confirm', 'pin', 'forget'));
ALTER TABLE memory_items DROP CONSTRAINT memory_items_resolution_settled,
                         DROP COLUMN resolution,
                         DROP COLUMN times_suggested;
