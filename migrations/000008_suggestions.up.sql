-- Suggestions that say where they came from, stay bounded and settle themselves (RULES A2, A4, A6).
--
-- times_suggested: identical waiting suggestions of a scope are one row that counts how often they
-- were made, so a flood of the same inference is one card. resolution: how a suggestion that no
-- longer waits was settled — confirmed (a proposal applied by the user; a plain suggestion that the
-- user confirms becomes the active item itself and needs none), dismissed by the user, or applied
-- (a proposal whose text the item came to hold anyway). Settling writes a revision, so the
-- suggestion's history says who settled it and when.
ALTER TABLE memory_items
    ADD COLUMN times_suggested integer NOT NULL DEFAULT 1 CHECK (times_suggested >= 1),
    ADD COLUMN resolution text CHECK (resolution IN ('confirmed', 'dismissed', 'applied')),
    ADD CONSTRAINT memory_items_resolution_settled CHECK (resolution IS NULL OR status IN ('dismissed', 'forgotten'));

UPDATE memory_items SET resolution = 'dismissed' WHERE status = 'dismissed';

ALTER TABLE memory_revisions DROP CONSTRAINT memory_revisions_action_check;
ALTER TABLE memory_revisions ADD CONSTRAINT memory_revisions_action_check
    CHECK (action IN ('create', 'edit', 'correct', 'restore', 'undo', 'confirm', 'pin', 'forget', 'dismiss', 'resolve'));

-- The waiting suggestion with the same text (merge) and a run's suggestions (its budget).
CREATE INDEX memory_items_waiting_text ON memory_items (scope, content_hash) WHERE status = 'candidate';
