-- Every edit paid for two things recall no longer needs.
--
-- 1. The GIN index on (scope, search) of active items. Recall ranks from memory_terms (migration
--    000010), and every other full-text filter (the list's search, searchMemory, the run's
--    search tool) ORs the words with an ILIKE of the text, which a GIN index can't serve: those
--    read the scope's items by memory_items_recall or memory_items_list. Each revision still wrote
--    one entry per lexeme into it.
DROP INDEX memory_items_recall_search;

-- 2. The edit branch of memory_terms_update ran two statements (a DELETE and an INSERT, each planned
--    afresh for its row). One statement now does both: the rows of lexemes the new text no longer
--    has are deleted, and a lexeme that is new or whose frequency changed is inserted or has its
--    frequency updated. The two sets of rows are disjoint (a lexeme is either gone from the new
--    vector or in it), so neither part sees the other's rows. The other branches are unchanged.
CREATE OR REPLACE FUNCTION memory_terms_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'active' AND NOT OLD.pinned AND NEW.status = 'active' AND NOT NEW.pinned
       AND OLD.scope = NEW.scope AND OLD.expires_at IS NOT DISTINCT FROM NEW.expires_at THEN
        WITH gone AS (
            DELETE FROM memory_terms t
             WHERE t.scope = OLD.scope AND t.item_id = OLD.id
               AND t.lexeme = ANY (ARRAY(SELECT unnest(tsvector_to_array(OLD.search))
                                         EXCEPT
                                         SELECT unnest(tsvector_to_array(NEW.search)))))
        INSERT INTO memory_terms AS t (scope, lexeme, item_id, tf, expires_at)
        SELECT NEW.scope, came.lexeme, NEW.id, came.tf, NEW.expires_at
          FROM (SELECT w.lexeme, cardinality(w.positions) FROM unnest(NEW.search) AS w
                EXCEPT
                SELECT w.lexeme, cardinality(w.positions) FROM unnest(OLD.search) AS w) AS came (lexeme, tf)
        ON CONFLICT (scope, lexeme, item_id) DO UPDATE SET tf = excluded.tf;
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
