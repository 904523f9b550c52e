package main

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The BM25 parameters of the baseline: the usual defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// listLength is the length of recall's lists (memory.RecallListLength) and packetLength the
	// entries a packet holds (packet.MaxEntries): the baselines are cut the same way.
	listLength   = 30
	packetLength = 12
	fusionK      = 60
)

// scopeIndex is one scope's active items as PostgreSQL's own lexemes: each item's stored search
// vector (to_tsvector('english', content || ' ' || key), the product's), read back from the
// database, as lexeme → term frequency (the number of positions).
type scopeIndex struct {
	terms  map[string]map[string]int // item id → lexeme → tf
	length map[string]int            // item id → the sum of its term frequencies
	df     map[string]int            // lexeme → the items that hold it
	avgdl  float64
}

// qScopeLexemes is every active item of a scope with its stored lexemes and their frequencies.
//
// sqlcheck:allow the evaluation reads the stored lexemes back to compute its baselines
const qScopeLexemes = `
	SELECT i.id::text, coalesce(t.lexeme, ''), coalesce(cardinality(t.positions), 0)
	  FROM memory_items i LEFT JOIN LATERAL unnest(i.search) AS t ON true
	 WHERE i.scope = $1 AND i.status = 'active'`

// loadScope reads a scope's active items from the database the API serves.
func loadScope(ctx context.Context, pool *pgxpool.Pool, scope string) (*scopeIndex, error) {
	rows, err := pool.Query(ctx, qScopeLexemes, scope) //nolint:rowserrcheck // pgx.ForEachRow checks rows.Err
	if err != nil {
		return nil, err
	}
	idx := &scopeIndex{terms: map[string]map[string]int{}, length: map[string]int{}, df: map[string]int{}}
	var (
		id, lexeme string
		tf         int
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &lexeme, &tf}, func() error {
		if idx.terms[id] == nil {
			idx.terms[id] = map[string]int{}
		}
		if lexeme != "" {
			idx.terms[id][lexeme] = tf
			idx.length[id] += tf
			idx.df[lexeme]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	total := 0
	for _, n := range idx.length {
		total += n
	}
	if len(idx.terms) > 0 {
		idx.avgdl = float64(total) / float64(len(idx.terms))
	}
	return idx, nil
}

// queryLexemes is the request's lexemes, as PostgreSQL normalises it for recall.
func queryLexemes(ctx context.Context, pool *pgxpool.Pool, text string) ([]string, error) {
	var out []string
	// sqlcheck:allow the evaluation turns a question into lexemes the way recall does
	err := pool.QueryRow(ctx, `SELECT coalesce(array_agg(lexeme), '{}') FROM unnest(to_tsvector('english', $1::text))`, text).Scan(&out)
	return out, err
}

type scored struct {
	id    string
	score float64
}

// top orders the scored items, highest first, ties by item id (as recall breaks them), and keeps n.
func top(items []scored, n int) []string {
	slices.SortFunc(items, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	out := make([]string, 0, n)
	for _, it := range items[:min(n, len(items))] {
		out = append(out, it.id)
	}
	return out
}

// bm25 is the BM25 list of the query over the scope: for each item holding at least one of the
// lexemes, the sum over them of idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × length / avgdl)),
// with idf = ln(1 + (N − df + 0.5) / (df + 0.5)), N the scope's items and df those holding the
// lexeme. Top n, ties by id.
func (idx *scopeIndex) bm25(lexemes []string, k1, b float64, n int) []string {
	N := float64(len(idx.terms))
	var items []scored
	for id, terms := range idx.terms {
		s, hit := 0.0, false
		for _, l := range lexemes {
			tf, ok := terms[l]
			if !ok {
				continue
			}
			hit = true
			df := float64(idx.df[l])
			idf := math.Log(1 + (N-df+0.5)/(df+0.5))
			norm := 1 - b + b*float64(idx.length[id])/idx.avgdl
			s += idf * float64(tf) * (k1 + 1) / (float64(tf) + k1*norm)
		}
		if hit {
			items = append(items, scored{id, s})
		}
	}
	return top(items, n)
}

// tsRankCD is the product's full-text list without pinned items: the items holding at least one of
// the lexemes by ts_rank_cd, which for this query is 0.1 × the sum of their term frequencies
// (migration 000010 says why). Top n, ties by id.
func (idx *scopeIndex) tsRankCD(lexemes []string, n int) []string {
	var items []scored
	for id, terms := range idx.terms {
		s := 0
		for _, l := range lexemes {
			s += terms[l]
		}
		if s > 0 {
			items = append(items, scored{id, float64(s)})
		}
	}
	return top(items, n)
}

// rrf fuses lists by reciprocal rank (1/(60 + place), places from 1), ties by id, top n.
func rrf(n int, lists ...[]string) []string {
	sum := map[string]float64{}
	for _, l := range lists {
		for i, id := range l {
			sum[id] += 1 / float64(fusionK+i+1)
		}
	}
	items := make([]scored, 0, len(sum))
	for id, s := range sum {
		items = append(items, scored{id, s})
	}
	return top(items, n)
}
