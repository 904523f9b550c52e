DROP TABLE memory_text_model;
DELETE FROM memory_items WHERE proposes_forget;
DROP INDEX memory_items_one_forget_proposal;
ALTER TABLE memory_items DROP CONSTRAINT memory_items_forget_proposal,
                         DROP CONSTRAINT memory_items_content_required;
ALTER TABLE memory_items ADD CHECK (status = 'forgotten' OR char_length(content) >= 1);
ALTER TABLE memory_items DROP COLUMN proposes_forget;
