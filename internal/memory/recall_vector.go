package memory

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// How the vector list (RULES P3) is searched. docs/PERFORMANCE.md has the measurements behind the
// numbers.
//
// Each 1,536-dimension vector is 6 KB, most of a page (kept in its row since migration 000025),
// so comparing the request with every visible vector reads them all. Each embedding has a sketch (memory_sketches, migration
// 000024): its binary quantization, one bit per dimension, whose Hamming distance to the request's
// follows the angle between the two vectors. A teammate's sketches are one range of an index that
// holds them, so the sketch scan ranks the teammate's embeddings by sketch, takes the nearest
// VectorRerank of the visible items' current revisions, and only those are read whole and ranked
// by their exact distance: the list's distances and the cut-off (MEMORY_SEMANTIC_MAX_DISTANCE) are
// the full-precision ones, and a teammate who sees at most VectorRerank embedded items gets the
// exact list.
//
// The sketch scan grows with what the teammate sees. Above VectorSketchLimit visible items, a
// 1,536-dimension request is served by the HNSW index of migration 000021 instead, whose cost barely
// grows: an iterative scan (hnsw.iterative_scan = strict_order), so that the rows of other scopes it
// skips can't leave the list short, with VectorEfSearch candidates a step and at most
// VectorMaxScanTuples rows visited. The index orders by the half-precision copy of each vector; it
// gives 60 rows, which are re-ranked by their exact distance too.
const (
	// VectorSketchLimit is the most visible items a teammate may have for the vector list to be a
	// sketch scan; above it, 1,536-dimension requests use the HNSW index.
	VectorSketchLimit = 20000
	// VectorRerank is how many of the sketch scan's nearest are ranked by their exact distance.
	VectorRerank = 200
	// VectorEfSearch is hnsw.ef_search for the index path.
	VectorEfSearch = 400
	// VectorMaxScanTuples is hnsw.max_scan_tuples for the index path.
	VectorMaxScanTuples = 20000
)

const (
	// recallVectorIndexed is the vector list (P3) for 1,536-dimension embeddings through the partial
	// HNSW index memory_embeddings_hnsw_1536_half (migration 000021): the ORDER BY is the index's
	// expression, so the planner walks the index and filters each row it gives by model, current
	// revision and visibility. The nearest 60 by that order are then re-ranked by the
	// exact distance, cut at the maximum distance, and ordered by distance, then id.
	recallVectorIndexed = `ix_candidates AS MATERIALIZED (
		SELECT i.id, e.embedding
		  FROM memory_embeddings e
		  JOIN memory_items i ON i.id = e.item_id AND i.revision = e.revision
		 WHERE e.model = $4 AND e.dimensions = 1536 AND ` + recallVisible + `
		 ORDER BY e.embedding::halfvec(1536) <=> $3::real[]::halfvec(1536)
		 LIMIT 60
	), ix_nearest AS MATERIALIZED (
		SELECT c.id, c.embedding <=> (SELECT $3::real[]::vector) AS distance
		  FROM ix_candidates c
		 ORDER BY distance, c.id
		 LIMIT 30
	), ix_vec AS (
		SELECT n.id, n.distance, row_number() OVER (ORDER BY n.distance, n.id) AS pos
		  FROM ix_nearest n
		 WHERE n.distance < $5::float8
	)`

	// recallVectorSketch is the vector list (P3) by the sketch scan, for any number of dimensions.
	// The sketches of the visible scopes' embeddings by the model and of the request's size, in the
	// order of their Hamming distance to the request's sketch (ties by item id), are walked one
	// after the other, each kept if it is of its item's current revision and the item is visible,
	// until VectorRerank are kept. The walk starts on the nearest vectorSketchNearText sketches,
	// kept by a bounded sort (sketch_near); only when fewer than VectorRerank of them can be kept
	// while more sketches exist does it sort them all and walk again (the second half of sketched,
	// which the one-time conditions leave unrun otherwise): the same rows either way, and the full
	// sort was two thirds of the scan's time. The check is a subquery per row walked, after the
	// sort (OFFSET 0 keeps the planner from moving it before): a join there measured twice the time
	// of the whole list, as it read every visible item's row to keep the few hundred nearest. Those
	// kept are then read whole, one vector each by key, ranked by exact distance, and cut and
	// ordered as the index path does. The dimensions are filtered before any distance is computed,
	// as pgvector refuses to compare sizes that differ. The request's vector and sketch are
	// subqueries, so that they are made once, not once a row (a generic plan, which pgx's cached
	// statements come to, evaluated the request's vector, then sent as text, for each of the 10,000
	// rows of the bench's scan: a second a request). The vector comes as a float4[] ($3), which
	// PostgreSQL receives in binary and pgvector's cast copies: parsing it from text, twice, measured
	// a third of a millisecond of the statement. The sketches are found by their one-column key, a
	// hash of the scope, the size and the model (migrations 000026, 000028 and 000029,
	// memory_sketch_hash: the first eight bytes of a SHA-256 digest): the visible scopes' two ranges
	// of one index.
	recallVectorSketch = `sketch_near AS MATERIALIZED (
		SELECT k.item_id, k.revision, k.sketch <~> (SELECT binary_quantize($3::real[]::vector)) AS hamming
		  FROM memory_sketches k
		 WHERE k.scan_hash IN (memory_sketch_hash('shared', $6::int, $4), memory_sketch_hash($1::text, $6::int, $4))
		 ORDER BY hamming, k.item_id
		 LIMIT ` + vectorSketchNearText + `
	), sketched_near AS MATERIALIZED (
		SELECT n.item_id AS id, n.revision
		  FROM (SELECT * FROM sketch_near ORDER BY hamming, item_id OFFSET 0) AS n
		 WHERE (SELECT ` + recallVisible + ` FROM memory_items i WHERE i.id = n.item_id AND i.revision = n.revision)
		 LIMIT ` + vectorRerankText + `
	), sketched AS MATERIALIZED (
		SELECT id, revision FROM sketched_near
		 WHERE (SELECT count(*) FROM sketched_near) = ` + vectorRerankText + `
		    OR (SELECT count(*) FROM sketch_near) < ` + vectorSketchNearText + `
		UNION ALL
		(SELECT k.item_id, k.revision
		   FROM (SELECT k.item_id, k.revision
		           FROM memory_sketches k
		          WHERE k.scan_hash IN (memory_sketch_hash('shared', $6::int, $4), memory_sketch_hash($1::text, $6::int, $4))
		          ORDER BY k.sketch <~> (SELECT binary_quantize($3::real[]::vector)), k.item_id
		         OFFSET 0) AS k
		  WHERE (SELECT count(*) FROM sketched_near) < ` + vectorRerankText + `
		    AND (SELECT count(*) FROM sketch_near) = ` + vectorSketchNearText + `
		    AND (SELECT ` + recallVisible + ` FROM memory_items i WHERE i.id = k.item_id AND i.revision = k.revision)
		  LIMIT ` + vectorRerankText + `)
	), sk_nearest AS MATERIALIZED (
		SELECT s.id, (SELECT x.embedding FROM memory_embeddings x
		               WHERE x.item_id = s.id AND x.revision = s.revision AND x.model = $4) <=> (SELECT $3::real[]::vector) AS distance
		  FROM sketched s
		 ORDER BY distance, s.id
		 LIMIT 30
	), sk_vec AS (
		SELECT n.id, n.distance, row_number() OVER (ORDER BY n.distance, n.id) AS pos
		  FROM sk_nearest n
		 WHERE n.distance < $5::float8
	)`

	// recallVectorEither is the vector list (P3) of a 1,536-dimension request by the path
	// useVectorIndex would choose, chosen inside the statement: the index's when the teammate sees
	// more than the sketch limit ($7) of active, unpinned items (memory_term_scopes, as
	// qRecallPrepare counts them), the sketch scan otherwise. Both paths are in the plan and a
	// one-time condition runs one of them, so recall sends its statement without first asking for
	// the count: a preview is one batch (buildPacketOnce) and a run's packet one round trip in its
	// transaction, whatever the request's size. $6 is 1536 here.
	recallVectorEither = recallVectorIndexed + `, ` + recallVectorSketch + `, vector_path AS MATERIALIZED (
		SELECT coalesce(sum(s.items), 0) > $7::bigint AS indexed
		  FROM memory_term_scopes s
		 WHERE s.scope IN ('shared', $1::text)
	), vec AS (
		SELECT id, distance, pos FROM ix_vec WHERE (SELECT indexed FROM vector_path)
		UNION ALL
		SELECT id, distance, pos FROM sk_vec WHERE NOT (SELECT indexed FROM vector_path)
	)`

	// recallVectorSketchOnly is the vector list by the sketch scan alone: a request of another size
	// than the index's.
	recallVectorSketchOnly = recallVectorSketch + `, vec AS (SELECT id, distance, pos FROM sk_vec)`

	// vectorRerankText is VectorRerank in the statement's text.
	vectorRerankText = "200"
	// vectorSketchNearText is how many of the nearest sketches the sketch scan first keeps by a
	// bounded sort, in the statement's text: twice VectorRerank, so that half of them may be of
	// items not visible (other revisions, suggestions, forgotten or expired) before the walk needs
	// the full sort. Five times VectorRerank, as it was, made the bounded sort a third of the scan's
	// time; the rows the list keeps are the same either way (docs/PERFORMANCE.md).
	vectorSketchNearText = "400"

	// qRecallPrepare checks that the teammate's scope exists (the first column) and reads its "Use
	// memory" switch (the last; in the same round trip, as recall's other reads). When $2 is true (the
	// vector list takes part) it also gives the number of items the teammate sees, as
	// memory_term_scopes keeps it (active and unpinned: the few pinned ones aside, what the sketch
	// scan reads; VectorList chooses its path by it, recall's statement counts them itself), and
	// sets, for the rest of the transaction, the index path's settings (harmless to
	// the sketch scan; pgvector before 0.8 doesn't know them, and its index scans stay as they are)
	// and no parallel workers: recall is one of many requests on a few cores, and a sketch scan
	// split among workers measured several times slower under load.
	//
	// Always, it makes the rest of the transaction use generic plans (plan_cache_mode). Recall's
	// statements are long: planning one for the request's values (a custom plan) measured 1.6–2.7 ms
	// for the full-text statement and 4–5 ms for the hybrid one, two to four times the cost of
	// running it, and PostgreSQL's own choice (auto) kept custom plans on some connections for the
	// requests whose words are common. The statements are written for a generic plan: the request's
	// words and vector are one-time subqueries, and every list reads an index by scope
	// (docs/PERFORMANCE.md).
	qRecallPrepare = `
		SELECT EXISTS (SELECT 1 FROM memory_generations WHERE scope = $1),
		       CASE WHEN $2::boolean THEN (
		           SELECT coalesce(sum(s.items), 0) FROM memory_term_scopes s WHERE s.scope IN ('shared', $1::text))
		       ELSE 0 END,
		       set_config('plan_cache_mode', 'force_generic_plan', true) ||
		           CASE WHEN $2::boolean THEN set_config('max_parallel_workers_per_gather', '0', true) ELSE '' END,
		       (SELECT set_config('hnsw.iterative_scan', 'strict_order', true) ||
		               set_config('hnsw.ef_search', $3::text, true) ||
		               set_config('hnsw.max_scan_tuples', $4::text, true)
		          FROM pg_extension
		         WHERE $2::boolean AND extname = 'vector' AND extversion !~ '^0\.[0-7]\.'),
		       (SELECT t.use_memory FROM teammates t WHERE t.id = $1::uuid)`

	// qVectorListIndexed and qVectorListSketch are the vector list alone, by the statements recall
	// uses (see VectorList). They take recall's parameters; the words ($2) are unused, and the CTE
	// words only gives the parameter its type.
	qVectorListIndexed = `WITH words AS (SELECT $2::text), ` + recallVectorIndexed + ` SELECT id::text, distance FROM ix_vec ORDER BY pos`
	qVectorListSketch  = `WITH words AS (SELECT $2::text), ` + recallVectorSketch + ` SELECT id::text, distance FROM sk_vec ORDER BY pos`
)

// recallPrepared is what qRecallPrepare read: whether the teammate's scope exists, whether the
// teammate uses memory (RULES W1; false when the teammate is gone) and, when the vector list takes
// part, whether the teammate sees more items than the sketch limit, so that a 1,536-dimension
// request would use the index (VectorList; recall's statement makes the same choice itself,
// recallVectorEither).
type recallPrepared struct {
	exists, useMemory, many bool
}

// prepareArgs are qRecallPrepare's arguments for teammateID.
func prepareArgs(teammateID string, useVector bool) []any {
	return []any{teammateID, useVector, strconv.Itoa(VectorEfSearch), strconv.Itoa(VectorMaxScanTuples)}
}

// scanPrepared reads qRecallPrepare's row, comparing the count of visible items with sketchLimit.
func scanPrepared(row pgx.Row, sketchLimit int) (recallPrepared, error) {
	var (
		p                  recallPrepared
		visible            int64
		parallel, settings *string
		use                *bool
	)
	if err := row.Scan(&p.exists, &visible, &parallel, &settings, &use); err != nil {
		return recallPrepared{}, err
	}
	p.useMemory, p.many = use != nil && *use, visible > int64(sketchLimit)
	return p, nil
}

// prepareVectorTx runs qRecallPrepare inside tx: the settings it makes (generic plans always, the
// vector list's when useVector) last for the rest of tx.
func prepareVectorTx(ctx context.Context, tx pgx.Tx, teammateID string, useVector bool, sketchLimit int) (recallPrepared, error) {
	return scanPrepared(tx.QueryRow(ctx, qRecallPrepare, prepareArgs(teammateID, useVector)...), sketchLimit)
}

// useVectorIndex says whether VectorList reads the list through the index: for 1,536 dimensions
// when the teammate sees more than the sketch limit; otherwise it is a sketch scan (the choice
// recallVectorEither makes inside recall's statement). The two statements share their parameters
// (recall_queries.go); the sketch scan also takes the dimensions.
func useVectorIndex(q RecallQuery, many bool) (indexed bool) {
	return q.dims == hnswDimensions && many
}

// VectorMatch is an item of the vector list with its cosine distance to the request.
type VectorMatch struct {
	ItemID   string
	Distance float64
}

// VectorList is the vector list recall would give teammateID for a request embedded as vector by
// model (RULES P3: the nearest 30 visible items' current embeddings closer than maxDistance), by
// the same statement and settings, in a read-only transaction; indexed says whether the HNSW index
// served it. The benchmark and the tests compare it with exact search. Only the user and the worker
// may call it.
func (s *Service) VectorList(ctx context.Context, teammateID string, vector []float32, model string, maxDistance float64) (list []VectorMatch, indexed bool, err error) {
	if _, err := require(ctx, CredentialUser, CredentialWorker); err != nil {
		return nil, false, err
	}
	if teammateID, err = parseID("teammateId", teammateID); err != nil {
		return nil, false, err
	}
	unit, ok := unitVector(vector)
	if !ok {
		return nil, false, invalid("vector", "must be a usable vector")
	}
	q := RecallQuery{vector: VectorStatus{State: VectorUsed}, vector32: unit, model: model, dims: len(vector)}
	err = s.inReadTx(ctx, func(tx pgx.Tx) error {
		pre, err := prepareVectorTx(ctx, tx, teammateID, true, s.vectorSketchLimit())
		if err != nil {
			return err
		}
		if !pre.exists {
			return ErrNotFound
		}
		query, args := qVectorListSketch, []any{teammateID, "", q.vector32, q.model, maxDistance, q.dims}
		if indexed = useVectorIndex(q, pre.many); indexed {
			query, args = qVectorListIndexed, args[:5]
		}
		rows, err := tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		list, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (VectorMatch, error) {
			var m VectorMatch
			return m, row.Scan(&m.ItemID, &m.Distance)
		})
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("vector list: %w", err)
	}
	return list, indexed, nil
}

// WithVectorSketchLimit replaces VectorSketchLimit for a service built WithSemanticRecall (give it
// after that option); -1 makes every 1,536-dimension search use the index's statement. For tests,
// and for the benchmark's exact reference (that statement with index scans off sorts every visible
// vector).
func WithVectorSketchLimit(n int) Option {
	return func(s *Service) {
		if semantic, ok := s.embedder.(semanticRecall); ok {
			semantic.sketchLimit = n
			s.embedder = semantic
		}
	}
}

// vectorSketchLimit is the sketch limit of this service: VectorSketchLimit unless a test set another.
func (s *Service) vectorSketchLimit() int {
	if semantic, ok := s.embedder.(semanticRecall); ok && semantic.sketchLimit != 0 {
		return semantic.sketchLimit
	}
	return VectorSketchLimit
}
