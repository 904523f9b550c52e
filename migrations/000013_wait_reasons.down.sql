-- lossy: why each suggestion waits: the judge's reason code and the words of the user's message
-- that decided it (memory_items.wait_reason and wait_words).
--
-- Back to migration 000001's check of forgotten rows, under the name 000001 gave it, without the wait
-- columns.
ALTER TABLE memory_items DROP CONSTRAINT memory_items_forgotten_blank;
ALTER TABLE memory_items
    ADD CONSTRAINT memory_items_check2 CHECK (status <> 'forgotten' OR (content = '' AND key IS NULL AND evidence IS NULL AND content_hash IS NULL));
ALTER TABLE memory_items DROP COLUMN wait_words, DROP COLUMN wait_reason;
