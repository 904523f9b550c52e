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
// A teammate who sees few items is searched exactly: every visible embedding of the model is
// compared with the request, found through the items' scope index, and the list is the exact
// nearest 30. Above VectorExactLimit visible items that costs more than the HNSW index of migration
// 000021 (each 1,536-dimension vector is read from TOAST, several pages apiece), so the index is
// used: an iterative scan (hnsw.iterative_scan = strict_order), so that the rows of other scopes it
// skips can't leave the list short, with VectorEfSearch candidates a step and at most
// VectorMaxScanTuples rows visited. The index orders by the half-precision copy of each vector; it
// gives 60 rows, which are re-ranked by their exact distance, so the distances and the
// cut-off (MEMORY_SEMANTIC_MAX_DISTANCE) are the full-precision ones.
const (
	// VectorExactLimit is the most visible items a teammate may have for the vector list to be an
	// exact search.
	VectorExactLimit = 3000
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
	recallVectorIndexed = `candidates AS MATERIALIZED (
		SELECT i.id, e.embedding
		  FROM memory_embeddings e
		  JOIN memory_items i ON i.id = e.item_id AND i.revision = e.revision
		 WHERE e.model = $4 AND e.dimensions = 1536 AND ` + recallVisible + `
		 ORDER BY e.embedding::halfvec(1536) <=> $3::text::halfvec(1536)
		 LIMIT 60
	), nearest AS MATERIALIZED (
		SELECT c.id, c.embedding <=> $3::text::vector AS distance
		  FROM candidates c
		 ORDER BY distance, c.id
		 LIMIT 30
	), vec AS (
		SELECT n.id, n.distance, row_number() OVER (ORDER BY n.distance, n.id) AS pos
		  FROM nearest n
		 WHERE n.distance < $5::float8
	)`

	// recallVectorExact is the vector list (P3) by exact search: for any number of dimensions, and
	// for 1,536 when the teammate sees at most VectorExactLimit items. The dimensions are filtered
	// before the distance is computed, as pgvector refuses to compare vectors of different sizes; the
	// ORDER BY is not the index's expression, so the planner reads the visible items by scope.
	recallVectorExact = `nearest AS MATERIALIZED (
		SELECT i.id, e.embedding <=> $3::text::vector AS distance
		  FROM memory_embeddings e
		  JOIN memory_items i ON i.id = e.item_id AND i.revision = e.revision
		 WHERE e.model = $4 AND e.dimensions = $6::int AND ` + recallVisible + `
		 ORDER BY distance, i.id
		 LIMIT 30
	), vec AS (
		SELECT n.id, n.distance, row_number() OVER (ORDER BY n.distance, n.id) AS pos
		  FROM nearest n
		 WHERE n.distance < $5::float8
	)`

	// qRecallPrepare checks that the teammate's scope exists (the first column). When $2 is true (the
	// vector list takes part) it also counts the teammate's visible items up to $3 (an index-only
	// scan of memory_items_recall, cheap by its bound; expiry isn't checked, so the count may be a
	// little high) and sets the index path's settings for the rest of the transaction (harmless to
	// the exact path; pgvector before 0.8 doesn't know them, and its index scans stay as they are).
	qRecallPrepare = `
		SELECT EXISTS (SELECT 1 FROM memory_generations WHERE scope = $1),
		       CASE WHEN $2::boolean THEN (
		           SELECT count(*) FROM (
		               SELECT FROM memory_items i WHERE i.scope IN ('shared', $1::text) AND i.status = 'active'
		                LIMIT $3::int) AS v)
		       ELSE 0 END,
		       (SELECT set_config('hnsw.iterative_scan', 'strict_order', true) ||
		               set_config('hnsw.ef_search', $4::text, true) ||
		               set_config('hnsw.max_scan_tuples', $5::text, true)
		          FROM pg_extension
		         WHERE $2::boolean AND extname = 'vector' AND extversion !~ '^0\.[0-7]\.')`

	// qVectorListIndexed and qVectorListExact are the vector list alone, by the statements recall
	// uses (see VectorList). They take recall's parameters; the words ($2) are unused, and the CTE
	// words only gives the parameter its type.
	qVectorListIndexed = `WITH words AS (SELECT $2::text), ` + recallVectorIndexed + ` SELECT id::text, distance FROM vec ORDER BY pos`
	qVectorListExact   = `WITH words AS (SELECT $2::text), ` + recallVectorExact + ` SELECT id::text, distance FROM vec ORDER BY pos`
)

// prepareVectorTx checks, inside tx, that the teammate's scope exists and, when useVector, readies
// the vector list: it sets the index path's settings for the transaction and says whether the
// teammate sees few enough items for an exact search (at most exactLimit).
func prepareVectorTx(ctx context.Context, tx pgx.Tx, teammateID string, useVector bool, exactLimit int) (exists, exact bool, err error) {
	var (
		visible  int64
		settings *string
	)
	err = tx.QueryRow(ctx, qRecallPrepare, teammateID, useVector, exactLimit+1,
		strconv.Itoa(VectorEfSearch), strconv.Itoa(VectorMaxScanTuples)).Scan(&exists, &visible, &settings)
	if err != nil {
		return false, false, err
	}
	return exists, visible <= int64(exactLimit), nil
}

// useVectorIndex says whether the vector list is read through the index: for 1,536 dimensions when
// the teammate sees more than the exact limit; otherwise it is an exact search. The two statements
// share their parameters (recall_queries.go); the exact one also takes the dimensions.
func useVectorIndex(q RecallQuery, exact bool) (indexed bool) {
	return q.dims == hnswDimensions && !exact
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
	text, ok := vectorText(vector)
	if !ok {
		return nil, false, invalid("vector", "must be a usable vector")
	}
	q := RecallQuery{vector: VectorStatus{State: VectorUsed}, text: text, model: model, dims: len(vector)}
	err = s.inReadTx(ctx, func(tx pgx.Tx) error {
		exists, exact, err := prepareVectorTx(ctx, tx, teammateID, true, s.vectorExactLimit())
		if err != nil {
			return err
		}
		if !exists {
			return ErrNotFound
		}
		query, args := qVectorListExact, []any{teammateID, "", q.text, q.model, maxDistance, q.dims}
		if indexed = useVectorIndex(q, exact); indexed {
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

// vectorExactLimit is the exact limit of this service: VectorExactLimit unless a test set another.
func (s *Service) vectorExactLimit() int {
	if semantic, ok := s.embedder.(semanticRecall); ok && semantic.exactLimit != 0 {
		return semantic.exactLimit
	}
	return VectorExactLimit
}
