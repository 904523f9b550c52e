-- Not lossy: memory_term_df is derived from memory_terms, and 000023_recall_df.up.sql rebuilds it.
-- The statement of 000022 counts the postings of memory_terms, which stays.
DROP TRIGGER memory_term_df_truncate ON memory_terms;
DROP TRIGGER memory_term_df_move ON memory_terms;
DROP TRIGGER memory_term_df_delete ON memory_terms;
DROP TRIGGER memory_term_df_insert ON memory_terms;
DROP FUNCTION memory_term_df_truncate();
DROP FUNCTION memory_term_df_move();
DROP FUNCTION memory_term_df_delete();
DROP FUNCTION memory_term_df_insert();
DROP TABLE memory_term_df;
