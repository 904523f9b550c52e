-- lossy: every forget proposal (the items marked proposes_forget: a teammate's forget that waits
-- for the user), with its revisions, and the version of the text model the content hashes were
-- computed with (memory_text_model). The live items' hashes stay those of the current text model,
-- which the older code doesn't compute, so its comparisons of duplicates and of copies of a
-- forgotten text can miss them. Migrating up again records version 1, and the API rehashes the live
-- items at start.
--
-- Reverses 000006_forget_proposals.up.sql.
DROP TABLE memory_text_model;
DELETE FROM memory_items WHERE proposes_forget;
DROP INDEX memory_items_one_forget_proposal;
ALTER TABLE memory_items DROP CONSTRAINT memory_items_forget_proposal,
                         DROP CONSTRAINT memory_items_content_required;
-- Migration 000001's check, under the name 000001 gave it.
ALTER TABLE memory_items ADD CONSTRAINT memory_items_check1 CHECK (status = 'forgotten' OR char_length(content) >= 1);
ALTER TABLE memory_items DROP COLUMN proposes_forget;
