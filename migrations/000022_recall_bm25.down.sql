-- Not lossy: memory_term_scopes is derived from memory_items, and 000022_recall_bm25.up.sql rebuilds it.
DROP TRIGGER memory_term_scopes_truncate ON memory_items;
DROP TRIGGER memory_term_scopes_update ON memory_items;
DROP TRIGGER memory_term_scopes_delete ON memory_items;
DROP TRIGGER memory_term_scopes_insert ON memory_items;
DROP FUNCTION memory_term_scopes_truncate();
DROP FUNCTION memory_term_scopes_update();
DROP FUNCTION memory_term_scopes_delete();
DROP FUNCTION memory_term_scopes_insert();
DROP FUNCTION memory_term_scopes_add(text[], bigint[]);
DROP TABLE memory_term_scopes;
