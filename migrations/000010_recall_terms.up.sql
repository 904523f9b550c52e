-- Full-text recall (RULES P2) ranked from term frequencies instead of decoding every match.
--
-- The full-text list ranks the matches of an OR of plain lexemes with ts_rank_cd at its defaults
-- over the stored, unweighted search vector. For that query, ts_rank_cd finds one cover per stored
-- position of a query lexeme and scores each 1/(1/0.1) = 0.1, so the rank is 0.1 × the number of
-- stored positions of the item's lexemes that are in the query: a sum of per-lexeme term
-- frequencies. The frequencies are the vector's own (cardinality of its positions: stop words never
-- reach the vector, repeated words are counted, a lexeme keeps at most 255 positions, the key's words
-- are in it, and two lexemes that share a position — positions are clamped at 16,383 — still count
-- one each). internal/memory's TestRecallRankIsTermFrequency checks each of these against ts_rank_cd.
-- Ranking every match cost about 6 µs a row (the vector is read and decoded); summing frequencies
-- read from this table's index costs a fraction of that, and ts_rank_cd is then computed only for
-- the 30 items kept (memory.recallFullText).
--
-- memory_terms holds, for every item that can be visible and is ranked (active and not pinned:
-- pinned items are few and ranked from memory_items directly), one row per lexeme of its search
-- vector with the term frequency and the item's expiry, keyed by (scope, lexeme, item_id): an
-- index-only scan reads the frequencies of one scope's items for one lexeme. Triggers on
-- memory_items keep it in the same transaction as every write — a revision, a pin, an expiry, a
-- forget (the item's rows are deleted with its text: F1, F5), a deleted teammate — so recall never
-- sees it out of step with the items. Scope and lexeme are compared byte-wise (COLLATE "C"), as
-- tsvector compares lexemes.
CREATE TABLE memory_terms (
    scope      text COLLATE "C" NOT NULL,
    lexeme     text COLLATE "C" NOT NULL,
    item_id    uuid NOT NULL,
    tf         smallint NOT NULL CHECK (tf >= 1),
    expires_at timestamptz,
    PRIMARY KEY (scope, lexeme, item_id) INCLUDE (tf, expires_at)
);

-- The rows of the items of a statement's inserts (new_items) and deletes (old_items). Only active,
-- unpinned items have rows; the same condition is in memory_terms_update.
CREATE FUNCTION memory_terms_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_terms (scope, lexeme, item_id, tf, expires_at)
    SELECT n.scope, t.lexeme, n.id, cardinality(t.positions), n.expires_at
      FROM new_items n, unnest(n.search) AS t
     WHERE n.status = 'active' AND NOT n.pinned;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_terms_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM memory_terms t
     USING old_items o, unnest(tsvector_to_array(o.search)) AS l (lexeme)
     WHERE o.status = 'active' AND NOT o.pinned
       AND t.scope = o.scope AND t.lexeme = l.lexeme AND t.item_id = o.id;
    RETURN NULL;
END $$;

-- An update that changes what the rows hold (the trigger's WHEN) replaces the item's rows. An edit
-- of a ranked item that keeps its scope and expiry touches only the lexemes whose frequency it
-- changed (most of an edited text's lexemes stay): fewer index entries written, and less WAL.
CREATE FUNCTION memory_terms_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'active' AND NOT OLD.pinned AND NEW.status = 'active' AND NOT NEW.pinned
       AND OLD.scope = NEW.scope AND OLD.expires_at IS NOT DISTINCT FROM NEW.expires_at THEN
        DELETE FROM memory_terms t
         USING (SELECT w.lexeme, cardinality(w.positions) FROM unnest(OLD.search) AS w
                EXCEPT
                SELECT w.lexeme, cardinality(w.positions) FROM unnest(NEW.search) AS w) AS gone (lexeme, tf)
         WHERE t.scope = OLD.scope AND t.lexeme = gone.lexeme AND t.item_id = OLD.id;
        INSERT INTO memory_terms (scope, lexeme, item_id, tf, expires_at)
        SELECT NEW.scope, came.lexeme, NEW.id, came.tf, NEW.expires_at
          FROM (SELECT w.lexeme, cardinality(w.positions) FROM unnest(NEW.search) AS w
                EXCEPT
                SELECT w.lexeme, cardinality(w.positions) FROM unnest(OLD.search) AS w) AS came (lexeme, tf);
        RETURN NULL;
    END IF;
    IF OLD.status = 'active' AND NOT OLD.pinned THEN
        DELETE FROM memory_terms
         WHERE scope = OLD.scope AND lexeme = ANY (tsvector_to_array(OLD.search)) AND item_id = OLD.id;
    END IF;
    IF NEW.status = 'active' AND NOT NEW.pinned THEN
        INSERT INTO memory_terms (scope, lexeme, item_id, tf, expires_at)
        SELECT NEW.scope, t.lexeme, NEW.id, cardinality(t.positions), NEW.expires_at
          FROM unnest(NEW.search) AS t;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_terms_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE memory_terms;
    RETURN NULL;
END $$;

-- Inserts and deletes are handled a statement at a time (a bulk import or a deleted teammate's
-- items in one pass); updates a row at a time, and only when the search vector, status, scope, pin
-- or expiry changed, so that the other updates (a touched timestamp, a count) cost nothing here.
CREATE TRIGGER memory_terms_insert AFTER INSERT ON memory_items
    REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_insert();
CREATE TRIGGER memory_terms_delete AFTER DELETE ON memory_items
    REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_delete();
CREATE TRIGGER memory_terms_update AFTER UPDATE ON memory_items FOR EACH ROW
    WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.scope IS DISTINCT FROM NEW.scope OR OLD.pinned IS DISTINCT FROM NEW.pinned
          OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
    EXECUTE FUNCTION memory_terms_update();
CREATE TRIGGER memory_terms_truncate AFTER TRUNCATE ON memory_items
    FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_truncate();

-- The existing items. The triggers exist first, and their creation locks memory_items against
-- writes until this migration commits, so no write falls between the two.
INSERT INTO memory_terms (scope, lexeme, item_id, tf, expires_at)
SELECT i.scope, t.lexeme, i.id, cardinality(t.positions), i.expires_at
  FROM memory_items i, unnest(i.search) AS t
 WHERE i.status = 'active' AND NOT i.pinned;
ANALYZE memory_terms;
