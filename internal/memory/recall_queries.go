package memory

// SQL of recall (RULES P1–P7). Every value is a parameter; the statements are assembled from constant
// fragments only. The recall statements share their parameters:
//
//	$1 the teammate id (its scope and the shared scope are visible, P1)
//	$2 the request's words, as requestWords returns them
//	$3 the query vector in pgvector's text form, $4 the embedding model, $5 the maximum cosine
//	   distance, $6 the vector's dimensions (vector statements only)

const (
	// recallVisible is P1, asked of its one home, memory_visible (migration 000011).
	recallVisible = `memory_visible(i.scope, i.status, i.expires_at, $1::text)`

	// recallQuery turns the request into an OR of its lexemes (P2). PostgreSQL normalises the words
	// exactly as it normalised the items (to_tsvector 'english': lower case, stems, no stop words);
	// each lexeme is then quoted as a tsquery literal, so no input can be read as tsquery syntax. No
	// lexeme (only stop words, or nothing) gives NULL, which matches nothing. lexemes is the same
	// lexemes as an array (NULL when there are none), for memory_terms.
	recallQuery = `q AS (
		SELECT array_to_string(array_agg('''' || replace(replace(w.lexeme, '\', '\\'), '''', '''''') || ''''), ' | ')::tsquery AS tsq,
		       array_agg(w.lexeme) AS lexemes
		  FROM unnest(to_tsvector('english', $2::text)) AS w
	)`

	// recallFullText is the full-text list (P2): items whose stored search vector matches, ranked by
	// ts_rank_cd, and every pinned item, matching or not (rank 0 when no word matches). Pinned items
	// lead the list, pinned lessons first (L2: a lesson reaches every packet, so pinned notes can't
	// push it out of the 30), each group ordered by rank; ties fall to the item id. Top 30.
	//
	// Pinned items are few: their arm ranks each with ts_rank_cd, found by the index
	// memory_items_list. The other matches may be tens of thousands, and ranking each with
	// ts_rank_cd (reading and decoding its vector, about 6 µs a row) was most of recall's time. For
	// this query — an OR of plain lexemes over an unweighted vector, default weights and
	// normalisation — ts_rank_cd is 0.1 × the number of stored positions of the query's lexemes in
	// the item (migration 000010 says why; TestRecallRankIsTermFrequency checks the corner cases): a
	// strictly increasing function of the sum of those lexemes' term frequencies. So the other arm
	// sums the frequencies memory_terms holds for the query's lexemes in the two visible scopes (an
	// index-only scan of its primary key; no item is read), keeps the top 30 by that sum, then id,
	// and computes ts_rank_cd for those 30 alone: the list and its ranks are the ones ranking every
	// match gives (TestRecallTermsMatchReference compares them on randomised data). memory_terms
	// holds the active, unpinned items, with their expiry, and changes in the transaction of every
	// write (triggers); its scope and expiry test only narrows the scan (written out: the planner
	// chose a sequential scan of memory_terms when it was memory_visible's), and the 30 are checked
	// against recallVisible once more, so only a visible item can be in the list (P1). They are read by id alone (ranked is materialised so that the check
	// can't be pushed into the read: a generic plan, which doesn't know the scope, would otherwise
	// intersect the ids with a bitmap of the scope's every item).
	recallFullText = `ranked AS MATERIALIZED (
		SELECT i.id, i.search, i.pinned, i.scope, i.status, i.expires_at
		  FROM memory_items i
		 WHERE i.id = ANY (ARRAY(
		           SELECT t.item_id
		             FROM memory_terms t
		            WHERE t.scope IN ('shared', $1::text) AND t.lexeme = ANY ((SELECT lexemes FROM q)::text[])
		              AND (t.expires_at IS NULL OR t.expires_at > now())
		            GROUP BY t.item_id
		            ORDER BY sum(t.tf) DESC, t.item_id
		            LIMIT 30))
	), fts AS (
		SELECT m.id, m.rank, row_number() OVER (ORDER BY m.pinned DESC, m.lesson DESC, m.rank DESC, m.id) AS pos
		  FROM (SELECT i.id, true AS pinned, i.kind = 'lesson' AS lesson,
		               CASE WHEN i.search @@ (SELECT tsq FROM q) THEN ts_rank_cd(i.search, (SELECT tsq FROM q)) ELSE 0 END AS rank
		          FROM memory_items i
		         WHERE i.pinned AND ` + recallVisible + `
		        UNION ALL
		        SELECT i.id, false, false, ts_rank_cd(i.search, (SELECT tsq FROM q))
		          FROM ranked i
		         WHERE NOT i.pinned AND ` + recallVisible + `
		         ORDER BY pinned DESC, lesson DESC, rank DESC, id
		         LIMIT 30) AS m
	)`

	// The vector list's fragments (recallVectorIndexed, recallVectorExact) are in recall_vector.go.

	// recallCandidatesColumns follows itemColumns with each item's place in the two lists.
	recallCandidateColumns = itemColumns + `, ft_pos, ft_rank, vec_pos, vec_distance`

	// qRecallFullText: the candidates of the full-text list alone (no embeddings configured, or the
	// query could not be embedded), with their items.
	qRecallFullText = `WITH ` + recallQuery + `, ` + recallFullText + `
		SELECT ` + recallCandidateColumns + ` FROM (
			SELECT i.*, f.pos AS ft_pos, f.rank::float8 AS ft_rank, NULL::bigint AS vec_pos, NULL::float8 AS vec_distance
			  FROM fts f JOIN memory_items i ON i.id = f.id
		) AS memory_items`

	// qRecallHybridIndexed and qRecallHybridExact: the candidates of both lists, with their items.
	qRecallHybridIndexed = `WITH ` + recallQuery + `, ` + recallFullText + `, ` + recallVectorIndexed + recallHybridSelect
	qRecallHybridExact   = `WITH ` + recallQuery + `, ` + recallFullText + `, ` + recallVectorExact + recallHybridSelect

	recallHybridSelect = `
		SELECT ` + recallCandidateColumns + ` FROM (
			SELECT i.*, f.pos AS ft_pos, f.rank::float8 AS ft_rank, v.pos AS vec_pos, v.distance AS vec_distance
			  FROM fts f FULL JOIN vec v ON v.id = f.id
			  JOIN memory_items i ON i.id = coalesce(f.id, v.id)
		) AS memory_items`

	// qRecallWords checks, before recall embeds a request (prepareRecall), that the teammate's scope
	// exists and counts the request's lexemes (no lexeme: no vector search, P6), so that neither
	// spends a request of the AI budget.
	qRecallWords = `SELECT EXISTS (SELECT 1 FROM memory_generations WHERE scope = $1), length(to_tsvector('english', $2::text))`

	// qRecallPrepare is in recall_vector.go.

	// qContextsInsert records the entries given to a run, in packet order (P7).
	qContextsInsert = `
		INSERT INTO memory_contexts (run_id, item_id, revision, position, truncated)
		SELECT $1, c.item_id, c.revision, c.position, c.truncated
		  FROM unnest($2::uuid[], $3::int[], $4::int[], $5::boolean[]) AS c (item_id, revision, position, truncated)`

	qRunTeammate = `SELECT teammate_id::text FROM runs WHERE id = $1`

	// qContexts lists what a run was given with each item's current state; expiry is judged by the
	// database clock, like recall's.
	qContexts = `
		SELECT ` + itemColumns + `, given_revision, position, truncated, expired FROM (
			SELECT i.*, c.revision AS given_revision, c.position, c.truncated,
			       i.expires_at IS NOT NULL AND i.expires_at <= now() AS expired
			  FROM memory_contexts c JOIN memory_items i ON i.id = c.item_id
			 WHERE c.run_id = $1
		) AS memory_items
		ORDER BY position`
)
