-- A teammate's forget that the user's message didn't ask for clearly waits as a proposal (A5): a
-- suggestion whose target is the item to forget. It has no text of its own — the user sees the
-- item's — so the rule that a live item has content makes room for it.
ALTER TABLE memory_items ADD COLUMN proposes_forget boolean NOT NULL DEFAULT false;

DO $$
DECLARE c text;
BEGIN
    SELECT conname INTO STRICT c FROM pg_constraint
     WHERE conrelid = 'memory_items'::regclass AND contype = 'c'
       AND pg_get_constraintdef(oid) = 'CHECK (((status = ''forgotten''::text) OR (char_length(content) >= 1)))';
    EXECUTE format('ALTER TABLE memory_items DROP CONSTRAINT %I', c);
END $$;

ALTER TABLE memory_items
    ADD CONSTRAINT memory_items_content_required
        CHECK (status = 'forgotten' OR proposes_forget OR char_length(content) >= 1),
    ADD CONSTRAINT memory_items_forget_proposal
        CHECK (NOT proposes_forget OR (target_item_id IS NOT NULL AND status <> 'active' AND content = ''));

CREATE UNIQUE INDEX memory_items_one_forget_proposal ON memory_items (target_item_id)
    WHERE proposes_forget AND status = 'candidate';

-- The text model that items' content_hash was computed with. Version 2 (NFKC, case folding, tokens
-- that keep signs and decimals) replaced version 1 (letters and digits); the API rehashes the live
-- items' texts once at start (memory.Background.RehashTexts) and records the version here.
CREATE TABLE memory_text_model (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    version   integer NOT NULL
);
INSERT INTO memory_text_model (version) VALUES (1);
