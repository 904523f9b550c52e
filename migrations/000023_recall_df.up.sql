-- BM25's document frequencies for the full-text list (RULES P2), kept per scope and lexeme.
--
-- The list's idf needs, for each of the request's lexemes, df: how many of the visible scopes'
-- ranked items hold it, expired or not (memory.recallBM25). Counting memory_terms' postings for it
-- read every posting of a common lexeme a second time, after the pass that scores them; at 100,000
-- visible items that second pass cost about as much as the first. memory_term_df holds the count of
-- memory_terms' rows per (scope, lexeme) — memory_terms has one row per ranked item and lexeme, so
-- that count is df — and the statement sums the two visible scopes' rows of each lexeme instead.
-- Its column types and collations are memory_terms' own.
CREATE TABLE memory_term_df (
    scope  text COLLATE "C" NOT NULL,
    lexeme text COLLATE "C" NOT NULL,
    df     bigint NOT NULL,
    PRIMARY KEY (scope, lexeme)
);

-- Triggers on memory_terms keep it in the transaction of every write: a statement that inserts or
-- deletes postings adds or takes one per posting from its (scope, lexeme) row, aggregated over the
-- statement, and a row left at 0 is deleted (so that no lexeme of a forgotten item stays here, F1).
-- The rows are upserted in (scope, lexeme) order, one lock order for every write. An update of a
-- posting's frequency or expiry (memory_terms_update, migrations 000010 and 000012) keeps its key
-- and so its count; an update of its key, which no write makes, moves the posting between counts.
-- Every write has taken its scope's lock first (memory_generations, R1), so the rows of a scope
-- change only under that lock, one write at a time, and the triggers add no wait of their own.
CREATE FUNCTION memory_term_df_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_term_df AS d (scope, lexeme, df)
    SELECT n.scope, n.lexeme, count(*) FROM new_terms n GROUP BY n.scope, n.lexeme ORDER BY n.scope, n.lexeme
    ON CONFLICT (scope, lexeme) DO UPDATE SET df = d.df + excluded.df;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_term_df_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO memory_term_df AS d (scope, lexeme, df)
    SELECT o.scope, o.lexeme, -count(*) FROM old_terms o GROUP BY o.scope, o.lexeme ORDER BY o.scope, o.lexeme
    ON CONFLICT (scope, lexeme) DO UPDATE SET df = d.df + excluded.df;
    DELETE FROM memory_term_df d
     USING (SELECT DISTINCT o.scope, o.lexeme FROM old_terms o) AS o
     WHERE d.scope = o.scope AND d.lexeme = o.lexeme AND d.df = 0;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_term_df_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE memory_term_df SET df = df - 1 WHERE scope = OLD.scope AND lexeme = OLD.lexeme;
    DELETE FROM memory_term_df WHERE scope = OLD.scope AND lexeme = OLD.lexeme AND df = 0;
    INSERT INTO memory_term_df AS d (scope, lexeme, df) VALUES (NEW.scope, NEW.lexeme, 1)
    ON CONFLICT (scope, lexeme) DO UPDATE SET df = d.df + 1;
    RETURN NULL;
END $$;

CREATE FUNCTION memory_term_df_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE memory_term_df;
    RETURN NULL;
END $$;

CREATE TRIGGER memory_term_df_insert AFTER INSERT ON memory_terms
    REFERENCING NEW TABLE AS new_terms FOR EACH STATEMENT EXECUTE FUNCTION memory_term_df_insert();
CREATE TRIGGER memory_term_df_delete AFTER DELETE ON memory_terms
    REFERENCING OLD TABLE AS old_terms FOR EACH STATEMENT EXECUTE FUNCTION memory_term_df_delete();
CREATE TRIGGER memory_term_df_move AFTER UPDATE ON memory_terms FOR EACH ROW
    WHEN (OLD.scope IS DISTINCT FROM NEW.scope OR OLD.lexeme IS DISTINCT FROM NEW.lexeme)
    EXECUTE FUNCTION memory_term_df_move();
CREATE TRIGGER memory_term_df_truncate AFTER TRUNCATE ON memory_terms
    FOR EACH STATEMENT EXECUTE FUNCTION memory_term_df_truncate();

-- The existing postings. The triggers exist first, and their creation locks memory_terms against
-- writes until this migration commits, so no write falls between the two.
INSERT INTO memory_term_df (scope, lexeme, df)
SELECT scope, lexeme, count(*) FROM memory_terms GROUP BY scope, lexeme;
ANALYZE memory_term_df;
