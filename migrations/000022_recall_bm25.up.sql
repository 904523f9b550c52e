-- BM25 for the full-text list (RULES P2): the number of ranked items of each scope.
--
-- The full-text list orders the items that match the request's words by BM25: each matching lexeme
-- adds idf × tf × (k1 + 1) / (tf + k1), with idf = ln(1 + (N − df + 0.5) / (df + 0.5)), so a rare
-- word weighs more than a name found in every second item (memory.recallFullText says more). The
-- term frequencies and each lexeme's document frequency (df) come from memory_terms (migration
-- 000010); N, the number of items df is counted among, is kept here: for each scope, its active,
-- unpinned items — the items memory_terms holds, expired or not, with or without a lexeme.
--
-- Triggers on memory_items keep it in the transaction of every write, with the conditions of
-- memory_terms' triggers. A write has taken its scope's lock first (memory_generations, R1), so
-- the row of a scope changes only under that lock and adds no wait of its own.
CREATE TABLE memory_term_scopes (
    scope text COLLATE "C" PRIMARY KEY,
    items bigint NOT NULL
);

-- n is how many ranked items each scope gains (or loses, when negative). A scope left with none
-- loses its row, so that a deleted teammate's id isn't kept here.
CREATE FUNCTION memory_term_scopes_add(scopes text[], n bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_term_scopes AS s (scope, items)
    SELECT d.scope, sum(d.n) FROM unnest(scopes, n) AS d (scope, n) GROUP BY d.scope HAVING sum(d.n) <> 0
     ORDER BY d.scope
    ON CONFLICT (scope) DO UPDATE SET items = s.items + excluded.items;
    DELETE FROM memory_term_scopes WHERE scope = ANY (scopes) AND items = 0;
END $$;

CREATE FUNCTION memory_term_scopes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(n.scope), array_agg(1::bigint))
       FROM new_items n
      WHERE n.status = 'active' AND NOT n.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_term_scopes_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(o.scope), array_agg(-1::bigint))
       FROM old_items o
      WHERE o.status = 'active' AND NOT o.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_term_scopes_update() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE FUNCTION memory_term_scopes_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE memory_term_scopes;
    RETURN NULL;
END $$;

CREATE TRIGGER memory_term_scopes_insert AFTER INSERT ON memory_items
    REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION memory_term_scopes_insert();
CREATE TRIGGER memory_term_scopes_delete AFTER DELETE ON memory_items
    REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION memory_term_scopes_delete();
CREATE TRIGGER memory_term_scopes_update AFTER UPDATE ON memory_items FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.scope IS DISTINCT FROM NEW.scope
          OR OLD.pinned IS DISTINCT FROM NEW.pinned)
    EXECUTE FUNCTION memory_term_scopes_update();
CREATE TRIGGER memory_term_scopes_truncate AFTER TRUNCATE ON memory_items
    FOR EACH STATEMENT EXECUTE FUNCTION memory_term_scopes_truncate();

-- The existing items. The triggers exist first, and their creation locks memory_items against
-- writes until this migration commits, so no write falls between the two.
INSERT INTO memory_term_scopes (scope, items)
SELECT scope, count(*) FROM memory_items WHERE status = 'active' AND NOT pinned GROUP BY scope;
