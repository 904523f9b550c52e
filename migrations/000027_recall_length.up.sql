-- BM25's length normalisation for the full-text list (RULES P2): each item's length beside its
-- postings, and each scope's total length.
--
-- The list scored each matching lexeme idf × tf × (k1 + 1) / (tf + k1): BM25 with b = 0, no
-- length. Between two items that hold the same request words as often, that gave no preference to
-- the one that is about them (a short "Maya takes oat milk in coffee") over one that mentions
-- them among much else, and the tie went to the item id. With b = 0.75 the denominator is
-- tf + k1 × (1 − b + b × dl / avgdl): dl is the item's length and avgdl the mean length of the
-- items N counts (memory.recallBM25; docs/EVAL.md measures it).
--
-- An item's length is its words counted with repeats: the sum of its lexemes' numbers of
-- positions, as BM25 counts it (the number of distinct lexemes, cheaper to get, measured a question
-- or two below the BM25 baseline on docs/EVAL.md's data). The triggers sum it inline, in their own
-- statements, whose plans PL/pgSQL keeps; a SQL function for it would be planned anew on each call
-- from a trigger. memory_terms.dl is it, on each of the item's postings, so that the list
-- reads it in the same index-only scan as tf. memory_term_scopes.length is the sum of the lengths of each scope's ranked items
-- (active and unpinned, expired or not: the items it counts), so avgdl is one row per visible
-- scope, as N is.
ALTER TABLE memory_terms ADD COLUMN dl integer;
UPDATE memory_terms t SET dl = l.dl
  FROM (SELECT i.id, sum(cardinality(w.positions)) AS dl FROM memory_items i, unnest(i.search) AS w GROUP BY i.id) AS l
 WHERE l.id = t.item_id;
ALTER TABLE memory_terms ALTER COLUMN dl SET NOT NULL, ADD CHECK (dl >= tf),
    DROP CONSTRAINT memory_terms_pkey, ADD PRIMARY KEY (scope, lexeme, item_id) INCLUDE (tf, dl, expires_at);

ALTER TABLE memory_term_scopes ADD COLUMN length bigint NOT NULL DEFAULT 0;
UPDATE memory_term_scopes s SET length = l.length
  FROM (SELECT i.scope, sum(cardinality(w.positions)) AS length FROM memory_items i, unnest(i.search) AS w
         WHERE i.status = 'active' AND NOT i.pinned GROUP BY i.scope) AS l
 WHERE l.scope = s.scope;

-- The postings of inserted items, and of an update that replaces an item's postings, carry the
-- item's length.
CREATE OR REPLACE FUNCTION memory_terms_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_terms (scope, lexeme, item_id, tf, dl, expires_at)
    SELECT n.scope, t.lexeme, n.id, cardinality(t.positions), l.dl, n.expires_at
      FROM new_items n, LATERAL (SELECT sum(cardinality(w.positions))::integer FROM unnest(n.search) AS w) AS l (dl),
           unnest(n.search) AS t
     WHERE n.status = 'active' AND NOT n.pinned;
    RETURN NULL;
END $$;

-- An edit that keeps the item's length touches only the lexemes whose frequency it changed, as
-- before (migration 000012). One that changes it rewrites every posting of the item, since each
-- carries the length (the lexemes that stay have their length updated by the same statement's
-- ON CONFLICT: the EXCEPT is empty then), and adds the difference to its scope's total. That is one
-- statement, as before: the lengths are CTEs of it rather than expressions of the function, each of
-- which would be a statement of its own (the edits' cost is in docs/PERFORMANCE.md). The other
-- branches replace the item's postings; when the item stays ranked in its scope there (a new
-- expiry), they too add the difference of the lengths. memory_term_scopes_update, which doesn't
-- fire on a new text, takes care of an item that becomes ranked or stops being, or moves, with its
-- whole length.
CREATE OR REPLACE FUNCTION memory_terms_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'active' AND NOT OLD.pinned AND NEW.status = 'active' AND NOT NEW.pinned
       AND OLD.scope = NEW.scope AND OLD.expires_at IS NOT DISTINCT FROM NEW.expires_at THEN
        WITH len AS MATERIALIZED (
            SELECT (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(OLD.search) AS w) AS old_dl,
                   (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(NEW.search) AS w) AS new_dl
        ), gone AS (
            DELETE FROM memory_terms t
             WHERE t.scope = OLD.scope AND t.item_id = OLD.id
               AND t.lexeme = ANY (ARRAY(SELECT unnest(tsvector_to_array(OLD.search))
                                         EXCEPT
                                         SELECT unnest(tsvector_to_array(NEW.search))))
        ), total AS (
            UPDATE memory_term_scopes s SET length = s.length + (len.new_dl - len.old_dl)
              FROM len
             WHERE s.scope = NEW.scope AND len.new_dl <> len.old_dl
        )
        INSERT INTO memory_terms AS t (scope, lexeme, item_id, tf, dl, expires_at)
        SELECT NEW.scope, came.lexeme, NEW.id, came.tf, len.new_dl, NEW.expires_at
          FROM len, (SELECT w.lexeme, cardinality(w.positions) FROM unnest(NEW.search) AS w
                     EXCEPT
                     SELECT w.lexeme, cardinality(w.positions) FROM unnest(OLD.search) AS w
                      WHERE (SELECT old_dl = new_dl FROM len)) AS came (lexeme, tf)
        ON CONFLICT (scope, lexeme, item_id) DO UPDATE SET tf = excluded.tf, dl = excluded.dl;
        RETURN NULL;
    END IF;
    IF OLD.status = 'active' AND NOT OLD.pinned AND NEW.status = 'active' AND NOT NEW.pinned
       AND OLD.scope = NEW.scope AND OLD.search IS DISTINCT FROM NEW.search THEN
        UPDATE memory_term_scopes
           SET length = length + (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(NEW.search) AS w) - (SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(OLD.search) AS w)
         WHERE scope = NEW.scope;
    END IF;
    IF OLD.status = 'active' AND NOT OLD.pinned THEN
        DELETE FROM memory_terms
         WHERE scope = OLD.scope AND lexeme = ANY (tsvector_to_array(OLD.search)) AND item_id = OLD.id;
    END IF;
    IF NEW.status = 'active' AND NOT NEW.pinned THEN
        INSERT INTO memory_terms (scope, lexeme, item_id, tf, dl, expires_at)
        SELECT NEW.scope, t.lexeme, NEW.id, cardinality(t.positions), l.dl, NEW.expires_at
          FROM (SELECT sum(cardinality(w.positions))::integer FROM unnest(NEW.search) AS w) AS l (dl),
               unnest(NEW.search) AS t;
    END IF;
    RETURN NULL;
END $$;

-- memory_term_scopes: n items and length of them that each scope gains (or loses, when negative).
-- A scope left with no ranked item loses its row (its length is 0 then).
DROP FUNCTION memory_term_scopes_add(text[], bigint[]);
CREATE FUNCTION memory_term_scopes_add(scopes text[], n bigint[], length bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_term_scopes AS s (scope, items, length)
    SELECT d.scope, sum(d.n), sum(d.length) FROM unnest(scopes, n, length) AS d (scope, n, length)
     GROUP BY d.scope HAVING sum(d.n) <> 0 OR sum(d.length) <> 0
     ORDER BY d.scope
    ON CONFLICT (scope) DO UPDATE SET items = s.items + excluded.items, length = s.length + excluded.length;
    DELETE FROM memory_term_scopes WHERE scope = ANY (scopes) AND items = 0;
END $$;

CREATE OR REPLACE FUNCTION memory_term_scopes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(n.scope), array_agg(1::bigint), array_agg((SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(n.search) AS w)))
       FROM new_items n
      WHERE n.status = 'active' AND NOT n.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION memory_term_scopes_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memory_term_scopes_add(array_agg(o.scope), array_agg(-1::bigint), array_agg(-(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(o.search) AS w)))
       FROM old_items o
      WHERE o.status = 'active' AND NOT o.pinned
     HAVING count(*) > 0;
    RETURN NULL;
END $$;

-- An item that becomes ranked or stops being, or moves, takes its length along.
CREATE OR REPLACE FUNCTION memory_term_scopes_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was boolean := OLD.status = 'active' AND NOT OLD.pinned;
    now_ranked boolean := NEW.status = 'active' AND NOT NEW.pinned;
BEGIN
    IF was AND now_ranked AND OLD.scope = NEW.scope THEN
        RETURN NULL;
    END IF;
    IF was THEN
        PERFORM memory_term_scopes_add(ARRAY[OLD.scope], ARRAY[-1::bigint], ARRAY[-(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(OLD.search) AS w)]);
    END IF;
    IF now_ranked THEN
        PERFORM memory_term_scopes_add(ARRAY[NEW.scope], ARRAY[1::bigint], ARRAY[(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(NEW.search) AS w)]);
    END IF;
    RETURN NULL;
END $$;
