-- Back to migration 000010's trigger function and 000005's index.
CREATE OR REPLACE FUNCTION memory_terms_update() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE INDEX memory_items_recall_search ON memory_items USING gin (scope, search) WHERE status = 'active';
