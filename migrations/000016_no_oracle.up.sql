-- No tombstone oracle (RULES F3) and evidence that stays with its teammate (RULES S4).
--
-- memory_suppressed: the suggestions a run made of a text the user forgot. The tombstone drops them
-- (the user never sees them), but the run is answered exactly as for an ordinary suggestion — the
-- same outcome, an id, a place in its suggestion budget — and this row is what keeps that answer
-- consistent afterwards: the id names it (so an update, a forget or a read of the id fails as it
-- does for a waiting suggestion), the run's budget counts it, and a second suggestion of the same text
-- is merged into it as into a waiting one. It holds no text: keyed_hash is an HMAC of the text's
-- content hash under the installation's tombstone key (like the tombstones themselves, a dump alone
-- can't be tried against it), and sealed is what the run was told about the suggestion (its text,
-- key, evidence …), encrypted under a key derived from the same installation key and padded to a
-- whole number of 4 KiB blocks, so a dump holds neither the text nor its length (F5).
CREATE TABLE memory_suppressed (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    scope           text NOT NULL REFERENCES memory_generations (scope) ON DELETE CASCADE,
    run_id          uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    keyed_hash      bytea NOT NULL CHECK (octet_length(keyed_hash) = 32),
    target_item_id  uuid REFERENCES memory_items (id) ON DELETE CASCADE,
    sealed          bytea NOT NULL,
    times_suggested integer NOT NULL DEFAULT 1 CHECK (times_suggested >= 1),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memory_suppressed_text ON memory_suppressed (scope, keyed_hash);
CREATE INDEX memory_suppressed_run ON memory_suppressed (run_id);

-- S4: evidence is a conversation. An item's evidence (and the words of the user's message that
-- made it wait, A8) quote the message of the run it came from; when that run goes — its teammate
-- was deleted, and the cascade sets source_run_id to NULL — they go with it, from every item,
-- shared ones included. The cascade's own UPDATE fires this trigger, so no code path can forget it.
CREATE FUNCTION memory_items_evidence_follows_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.source_run_id IS NULL THEN
        NEW.evidence := NULL;
        NEW.wait_words := NULL;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER memory_items_evidence_follows_run
    BEFORE UPDATE OF source_run_id ON memory_items
    FOR EACH ROW WHEN (OLD.source_run_id IS NOT NULL AND NEW.source_run_id IS NULL)
    EXECUTE FUNCTION memory_items_evidence_follows_run();

-- Evidence left behind by teammates deleted before this migration: its run is gone.
UPDATE memory_items SET evidence = NULL, wait_words = NULL
 WHERE source_run_id IS NULL AND (evidence IS NOT NULL OR wait_words IS NOT NULL);
