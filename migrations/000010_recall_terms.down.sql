-- Not lossy: memory_terms is derived from memory_items, and 000010_recall_terms.up.sql rebuilds it.
DROP TRIGGER memory_terms_truncate ON memory_items;
DROP TRIGGER memory_terms_update ON memory_items;
DROP TRIGGER memory_terms_delete ON memory_items;
DROP TRIGGER memory_terms_insert ON memory_items;
DROP FUNCTION memory_terms_truncate();
DROP FUNCTION memory_terms_update();
DROP FUNCTION memory_terms_delete();
DROP FUNCTION memory_terms_insert();
DROP TABLE memory_terms;
