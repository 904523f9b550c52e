-- Reverses 000027_recall_length.up.sql: the postings and the scopes' counts without lengths, and
-- their triggers as migrations 000010, 000012 and 000022 left them. Not lossy: the lengths are
-- derived from the items' search vectors.
DROP FUNCTION memory_term_scopes_add(text[], bigint[], bigint[]);
CREATE FUNCTION memory_term_scopes_add(scopes text[], n bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_term_scopes AS s (scope, items)
    SELECT d.scope, sum(d.n) FROM unnest(scopes, n) AS d (scope, n) GROUP BY d.scope HAVING sum(d.n) <> 0
     ORDER BY d.scope
    ON CONFLICT (scope) DO UPDATE SET items = s.items + excluded.items;
    DELETE FROM memory_term_scopes WHERE scope = ANY (scopes) AND items = 0;
END $$;
CREATE OR REPLACE FUNCTION memory_term_scopes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(n.scope), array_agg(1::bigint))
       FROM new_items n
      WHERE n.status = 'active' AND NOT n.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION memory_term_scopes_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(o.scope), array_agg(-1::bigint))
       FROM old_items o
      WHERE o.status = 'active' AND NOT o.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION memory_term_scopes_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was boolean := OLD.status = 'active' AND NOT OLD.pinned;
    now_ranked boolean := NEW.status = 'active' AND NOT NEW.pinned;
BEGIN
    IF was AND now_ranked AND OLD.scope = NEW.scope THEN
        RETURN NULL;
    END IF;
    IF was THEN
        PERFORM memory_term_scopes_add(ARRAY[OLD.scope], ARRAY[-1::bigint]);
    END IF;
    IF now_ranked THEN
        PERFORM memory_term_scopes_add(ARRAY[NEW.scope], ARRAY[1::bigint]);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION memory_terms_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_terms (scope, lexeme, item_id, tf, expires_at)
    SELECT n.scope, t.lexeme, n.id, cardinality(t.positions), n.expires_at
      FROM new_items n, unnest(n.search) AS t
     WHERE n.status = 'active' AND NOT n.pinned;
    RETURN NULL;
END $$;

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

ALTER TABLE memory_term_scopes DROP COLUMN length;
ALTER TABLE memory_terms DROP CONSTRAINT memory_terms_pkey,
    ADD PRIMARY KEY (scope, lexeme, item_id) INCLUDE (tf, expires_at);
ALTER TABLE memory_terms DROP COLUMN dl;
