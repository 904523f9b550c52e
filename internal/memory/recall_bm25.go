package memory

// recallBM25 orders the full-text list (RULES P2): the list holds the items that match the
// request's words, and BM25 decides which 30 and in what order, so that a rare word weighs more
// than a name found in every second item (ts_rank_cd counts every matching position alike).
// docs/EVAL.md has the measurements that chose it. Parameters as in recall_queries.go.
//
// For each of the request's lexemes, idf = ln(1 + (N − df + 0.5) / (df + 0.5)), where N is the
// visible scopes' ranked items (active and unpinned, memory_term_scopes) and df those of them that
// hold the lexeme (memory_terms' rows, expired or not: the statistics are the scopes', expiry only
// decides which items may be listed), kept per scope and lexeme in memory_term_df (migration
// 000023) so that the postings are read once, to score them. Each unexpired item that holds a
// lexeme scores the sum over its matching lexemes of
//
//	idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × dl / avgdl)), k1 = 1.2, b = 0.75
//
// (the usual saturation: a lexeme's weight in an item grows with its frequency tf, towards k1 + 1,
// and shrinks as the item is longer than most), where dl is the item's length, the sum of its
// lexemes' frequencies, kept on each of its postings (memory_terms.dl, migration 000027), and
// avgdl the mean length of the N items (memory_term_scopes.length / items). In the statement the
// denominator is tf + 0.3 + (0.9 / avgdl) × dl, with 0.9 / avgdl computed once per request. Without
// the length (b = 0, as it was), an item about the request's words and one that mentions them in
// passing tied, and the tie went to the item id; docs/EVAL.md measures both. Scores are rounded to 9
// decimal places (in floating point, half to even: numeric arithmetic here cost twice the time) —
// sums taken in another order may differ in their last bits, and the rounded score keeps the order
// the same however the database sums them — and the top 30 kept, ties by item id. The idf step
// reads two rows of memory_term_df per lexeme by its primary key. The bm25 step reads each lexeme's
// postings from memory_terms' primary key alone (an index-only scan, tf and dl included), in a
// nested loop over the idf rows, so that each posting finds its weight as a column of the row that
// found it: against one row of two arrays looked up per posting (array_position) this took about a
// sixth off the statement at 100,000 visible items, and a hash join of the postings with the idf
// rows cost about a third more (docs/PERFORMANCE.md).
//
// sqlcheck:allow a fragment of recall's statements, assembled in recall_queries.go
const recallBM25 = `idf AS MATERIALIZED (
		SELECT d.lexeme, ln(1 + (n.items - d.df + 0.5) / (d.df + 0.5)) AS weight, 0.9::float8 / n.avgdl AS per_length
		  FROM (SELECT f.lexeme, sum(f.df)::bigint AS df
		          FROM memory_term_df f
		         WHERE f.scope IN ('shared', $1::text) AND f.lexeme = ANY ((SELECT lexemes FROM q)::text[])
		         GROUP BY f.lexeme) AS d,
		       (SELECT coalesce(sum(s.items), 0)::float8 AS items,
		               greatest(coalesce(sum(s.length), 0), 1)::float8 / greatest(coalesce(sum(s.items), 0), 1)::float8 AS avgdl
		          FROM memory_term_scopes s WHERE s.scope IN ('shared', $1::text)) AS n
	), bm25 AS MATERIALIZED (
		SELECT t.item_id, round(sum(t.score) * 1e9::float8) / 1e9::float8 AS score
		  FROM idf w CROSS JOIN LATERAL (
		        SELECT t.item_id, w.weight * t.tf * 2.2::float8 / (t.tf + 0.3::float8 + w.per_length * t.dl) AS score
		          FROM memory_terms t
		         WHERE t.scope IN ('shared', $1::text) AND t.lexeme = w.lexeme
		           AND (t.expires_at IS NULL OR t.expires_at > now())) AS t
		 GROUP BY t.item_id
		 ORDER BY score DESC, t.item_id
		 LIMIT 30
	)`
