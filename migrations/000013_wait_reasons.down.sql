-- Back to migration 000001's check of forgotten rows, without the wait columns.
ALTER TABLE memory_items DROP CONSTRAINT memory_items_forgotten_blank;
ALTER TABLE memory_items
    ADD CHECK (status <> 'forgotten' OR (content = '' AND key IS NULL AND evidence IS NULL AND content_hash IS NULL));
ALTER TABLE memory_items DROP COLUMN wait_words, DROP COLUMN wait_reason;
