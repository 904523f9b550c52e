package memory

// SQL of recall (RULES P1–P7). Every value is a parameter; the statements are assembled from constant
// fragments only. The recall statements share their parameters:
//
//	$1 the teammate id (its scope and the shared scope are visible, P1)
//	$2 the request's words, as requestWords returns them
//	$3 the query vector as a float4[] (unitVector), $4 the embedding model, $5 the maximum cosine
//	   distance, $6 the vector's dimensions (vector statements only), $7 the sketch limit
//	   (qRecallHybrid1536 only)

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

	// recallFullText is the full-text list (P2): items whose stored search vector matches, ordered by
	// BM25 (recallBM25), and every pinned item, matching or not. Pinned items lead the list, pinned
	// lessons first (L2: a lesson reaches every packet, so pinned notes can't push it out of the 30),
	// ordered among themselves by ts_rank_cd (0 when no word matches); the other matches follow by
	// BM25 score (key); ties fall to the item id. Top 30. Each entry also carries its ts_rank_cd, shown by
	// the recall preview.
	//
	// Pinned items are few: their arm ranks each with ts_rank_cd, found by the index
	// memory_items_list. The other matches may be tens of thousands, and reading each item was most
	// of recall's time, so they are scored from memory_terms alone (term frequencies, per scope, kept
	// in the transaction of every write by triggers; migration 000010), the top 30 kept, and only
	// those 30 read, to compute their ts_rank_cd. memory_terms holds the active, unpinned items, with
	// their expiry; its scope and expiry test only narrows the scan (written out: the planner chose a
	// sequential scan of memory_terms when it was memory_visible's), and the 30 are checked against
	// recallVisible once more, so only a visible item can be in the list (P1). They are read by id
	// alone (ranked is materialised so that the check can't be pushed into the read: a generic plan,
	// which doesn't know the scope, would otherwise intersect the ids with a bitmap of the scope's
	// every item). TestRecallBM25MatchReference compares the list with a reference on randomised
	// data.
	recallFullText = recallBM25 + `, ranked AS MATERIALIZED (
		SELECT i.id, i.search, i.pinned, i.scope, i.status, i.expires_at, b.score
		  FROM bm25 b JOIN memory_items i ON i.id = b.item_id
	), fts AS (
		SELECT m.id, m.rank, m.bm25, row_number() OVER (ORDER BY m.pinned DESC, m.lesson DESC, m.key DESC, m.id) AS pos
		  FROM (SELECT p.*, p.rank::float8 AS key
		          FROM (SELECT i.id, true AS pinned, i.kind = 'lesson' AS lesson,
		                       CASE WHEN i.search @@ (SELECT tsq FROM q) THEN ts_rank_cd(i.search, (SELECT tsq FROM q)) ELSE 0 END AS rank,
		                       NULL::float8 AS bm25
		                  FROM memory_items i
		                 WHERE i.pinned AND ` + recallVisible + `) AS p
		        UNION ALL
		        SELECT i.id, false, false, ts_rank_cd(i.search, (SELECT tsq FROM q)), i.score, i.score
		          FROM ranked i
		         WHERE NOT i.pinned AND ` + recallVisible + `
		         ORDER BY pinned DESC, lesson DESC, key DESC, id
		         LIMIT 30) AS m
	)`

	// The vector list's fragments (recallVectorIndexed, recallVectorSketch) are in recall_vector.go.

	// recallCandidatesColumns follows itemColumns with each item's place in the two lists.
	recallCandidateColumns = itemColumns + `, ft_pos, ft_rank, ft_bm25, vec_pos, vec_distance`

	// qRecallFullText: the candidates of the full-text list alone (no embeddings configured, or the
	// query could not be embedded), with their items: the list's first packet.MaxEntries only. With
	// one list the fused order is the list's own (pinned lessons, the other pinned items, then by
	// position: packet.Fuse orders by pinned, pinned lesson and the score 1/(FusionK+position), and
	// no two entries share a position), and the packet keeps at most MaxEntries of it, so no later
	// entry can reach it. Reading and scanning the other 18 items was about a tenth of a recall's
	// time in the service at 1,000 visible (docs/PERFORMANCE.md); TestFullTextCutKeepsThePacket
	// compares the packets with and without the cut.
	qRecallFullText = `WITH ` + recallQuery + `, ` + recallFullText + `
		SELECT ` + recallCandidateColumns + ` FROM (
			SELECT i.*, f.pos AS ft_pos, f.rank::float8 AS ft_rank, f.bm25 AS ft_bm25, NULL::bigint AS vec_pos, NULL::float8 AS vec_distance
			  FROM fts f JOIN memory_items i ON i.id = f.id
			 WHERE f.pos <= ` + packetEntriesText + `
		) AS memory_items`

	// packetEntriesText is packet.MaxEntries in the statement's text.
	packetEntriesText = "12"

	// qRecallHybrid1536 and qRecallHybridSketch: the candidates of both lists, with their items; the
	// first for a 1,536-dimension request (index or sketch scan, recallVectorEither), the second for
	// a request of any other size (sketch scan).
	qRecallHybrid1536   = `WITH ` + recallQuery + `, ` + recallFullText + `, ` + recallVectorEither + recallHybridSelect
	qRecallHybridSketch = `WITH ` + recallQuery + `, ` + recallFullText + `, ` + recallVectorSketchOnly + recallHybridSelect

	recallHybridSelect = `
		SELECT ` + recallCandidateColumns + ` FROM (
			SELECT i.*, f.pos AS ft_pos, f.rank::float8 AS ft_rank, f.bm25 AS ft_bm25, v.pos AS vec_pos, v.distance AS vec_distance
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
