-- Why a suggestion waits (RULES A8): the judge's reason and the words of the user's message that
-- decided it, kept beside a teammate's suggestion, proposed change or proposed forget so that the
-- user sees in plain words why it waits.
--
-- wait_reason is the judge's stable code (intent.Reason: "taken_back", "protected" …), never any
-- text: lower-case letters and underscores only. wait_words quote the user's message (intent.Quote,
-- at most 120 characters; 200 leaves room), so they are erased exactly where evidence is — the
-- forget blanks them (ItemForget), and a forgotten row may not keep them.
ALTER TABLE memory_items
    ADD COLUMN wait_reason text CONSTRAINT memory_items_wait_reason_code
        CHECK (char_length(wait_reason) BETWEEN 1 AND 40 AND wait_reason ~ '^[a-z_]+$'),
    ADD COLUMN wait_words text CONSTRAINT memory_items_wait_words_length
        CHECK (char_length(wait_words) BETWEEN 1 AND 200);

-- Migration 000001's unnamed CHECK that a forgotten row keeps no text becomes a named one that
-- covers wait_words too.
DO $$
DECLARE c text;
BEGIN
    SELECT conname INTO STRICT c FROM pg_constraint
     WHERE conrelid = 'memory_items'::regclass AND contype = 'c'
       AND pg_get_constraintdef(oid) LIKE '%evidence IS NULL%';
    EXECUTE format('ALTER TABLE memory_items DROP CONSTRAINT %I', c);
END $$;

ALTER TABLE memory_items ADD CONSTRAINT memory_items_forgotten_blank
    CHECK (status <> 'forgotten'
           OR (content = '' AND key IS NULL AND evidence IS NULL AND wait_words IS NULL AND content_hash IS NULL));
