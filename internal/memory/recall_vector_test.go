package memory_test

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

const vectorModel = "text-embedding-3-small"

// vectorSet is a seeded random set of 1,536-dimension unit vectors shaped like embeddings: each is
// one of a few dozen random topics plus noise, so most vectors have near neighbours and many lie at
// almost the same distance from a request.
type vectorSet struct {
	r      *rand.Rand
	topics [][]float64
}

func newVectorSet(seed uint64, topics int) *vectorSet {
	s := &vectorSet{r: rand.New(rand.NewPCG(seed, 1536))}
	for range topics {
		s.topics = append(s.topics, s.noise(1))
	}
	return s
}

// noise is a random vector of norm about scale.
func (s *vectorSet) noise(scale float64) []float64 {
	v := make([]float64, 1536)
	for i := range v {
		v[i] = s.r.NormFloat64() * scale / math.Sqrt(1536)
	}
	return v
}

// next is a unit vector near a random topic.
func (s *vectorSet) next() []float32 {
	v := s.noise(0.8)
	for i, x := range s.topics[s.r.IntN(len(s.topics))] {
		v[i] += x
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(norm))
	}
	return out
}

// cosineDistance is pgvector's <=> in float64.
func cosineDistance(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return 1 - dot/math.Sqrt(na*nb)
}

// embeddedItems inserts one active item in scope (nil: shared) per vector, each with its embedding
// by vectorModel, and returns their ids in the vectors' order.
func embeddedItems(t testing.TB, f fixture, scope *string, vectors [][]float32) []string {
	t.Helper()
	return embeddedItemsBy(t, f, scope, vectorModel, vectors)
}

// embeddedItemsBy inserts one active item in scope (nil: shared) per vector, each with its
// embedding by model at the vector's own size, and returns their ids in the vectors' order.
func embeddedItemsBy(t testing.TB, f fixture, scope *string, model string, vectors [][]float32) []string {
	t.Helper()
	ctx := context.Background()
	ids, contents, texts, dims := make([]string, len(vectors)), make([]string, len(vectors)), make([]string, len(vectors)), make([]int32, len(vectors))
	for i, v := range vectors {
		ids[i], contents[i], texts[i], dims[i] = uuid.NewString(), "Vector item "+strconv.Itoa(i), vectorLiteral(v), int32(len(v))
	}
	err := pgx.BeginFunc(ctx, f.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `
			INSERT INTO memory_items (id, teammate_id, kind, content, status, source, content_hash)
			SELECT id, $2::uuid, 'fact', c, 'active', 'user', sha256(convert_to(id::text, 'UTF8'))
			  FROM unnest($1::uuid[], $3::text[]) AS n(id, c)`, ids, scope, contents)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor)
			SELECT id, 1, c, 'fact', false, 'create', 'user' FROM unnest($1::uuid[], $2::text[]) AS n(id, c)`, ids, contents)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
			SELECT id, 1, $3, d, v::vector FROM unnest($1::uuid[], $2::text[], $4::int[]) AS n(id, v, d)`, ids, texts, model, dims)
		return err
	})
	require.NoError(t, err)
	return ids
}

// exactNearest is the exact vector list: the k nearest of candidates (ids and vectors) to q closer
// than maxDistance, by distance, then id.
func exactNearest(q []float32, ids []string, vectors [][]float32, k int, maxDistance float64) []memory.VectorMatch {
	var all []memory.VectorMatch
	for i, v := range vectors {
		if d := cosineDistance(q, v); d < maxDistance {
			all = append(all, memory.VectorMatch{ItemID: ids[i], Distance: d})
		}
	}
	slices.SortFunc(all, func(a, b memory.VectorMatch) int {
		return cmp.Or(cmp.Compare(a.Distance, b.Distance), cmp.Compare(a.ItemID, b.ItemID))
	})
	return all[:min(k, len(all))]
}

// vectorFixture is a teammate who sees own+shared embedded items, and another teammate's items it
// must never be given, all from one seeded set.
type vectorFixture struct {
	fixture
	teammate string
	ids      []string // visible
	vectors  [][]float32
	set      *vectorSet
}

func newVectorFixture(t *testing.T, seed uint64, own, shared, others int, opts ...memory.Option) vectorFixture {
	t.Helper()
	f := setup(t)
	f.with(append([]memory.Option{memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel}, 2)}, opts...)...)
	vf := vectorFixture{fixture: f, teammate: f.teammate(t, "Near"), set: newVectorSet(seed, 40)}
	other := f.teammate(t, "Far")
	batch := func(n int) [][]float32 {
		out := make([][]float32, n)
		for i := range out {
			out[i] = vf.set.next()
		}
		return out
	}
	mine, ours, theirs := batch(own), batch(shared), batch(others)
	vf.ids = append(embeddedItems(t, f, &vf.teammate, mine), embeddedItems(t, f, nil, ours)...)
	vf.vectors = append(mine, ours...)
	embeddedItems(t, f, &other, theirs)
	_, err := f.pool.Exec(context.Background(), `ANALYZE memory_items, memory_embeddings`)
	require.NoError(t, err)
	return vf
}

// TestVectorListExactOnSmallScope: a teammate who sees no more items than the sketch scan re-ranks
// (memory.VectorRerank) gets the exact nearest 30 (P3), with their exact distances, whatever other
// scopes hold.
func TestVectorListExactOnSmallScope(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 7, 120, 80, 400)
	require.LessOrEqual(t, len(vf.ids), memory.VectorRerank)
	for i := range 5 {
		q := vf.set.next()
		for _, maxDistance := range []float64{2, 0.5} {
			got, indexed, err := vf.svc.VectorList(worker, vf.teammate, q, vectorModel, maxDistance)
			require.NoError(t, err)
			assert.False(t, indexed, "200 visible items are a sketch scan")
			want := exactNearest(q, vf.ids, vf.vectors, 30, maxDistance)
			require.Len(t, got, len(want), "request %d, cut-off %v", i, maxDistance)
			for j := range want {
				assert.Equal(t, want[j].ItemID, got[j].ItemID, "request %d, place %d", i, j+1)
				assert.InDelta(t, want[j].Distance, got[j].Distance, 1e-5)
			}
		}
	}
}

// TestVectorListSketchRecall: by the sketch scan, a teammate who sees five times more items than
// it re-ranks still gets the exact nearest 12 of a random set (recall@12 ≥ 0.95 over 20 requests),
// only visible items, at exact distances, in order; and the scan reads the sketches' index alone.
func TestVectorListSketchRecall(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 17, 700, 300, 1000)
	visible := map[string]bool{}
	for _, id := range vf.ids {
		visible[id] = true
	}
	recall := listRecall(t, vf, visible, false)
	t.Logf("recall@12 by the sketch scan: %.3f", recall)
	assert.GreaterOrEqual(t, recall, 0.95)

	// Here the teammate sees half the sketches, and the planner would rather read them all than the
	// index's range (for a teammate among many, the range is the cheaper plan): reading the whole
	// table is discouraged for this check's connections, so that what is checked is that the index
	// can serve the scan.
	_, err := vf.pool.Exec(context.Background(), `VACUUM ANALYZE memory_sketches`)
	require.NoError(t, err)
	cfg := vf.pool.Config()
	cfg.ConnConfig.RuntimeParams["enable_seqscan"] = "off"
	cfg.ConnConfig.RuntimeParams["enable_bitmapscan"] = "off"
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	plan := explain(t, pool, memory.QVectorListSketch, vf.teammate, "", vf.set.next(), vectorModel, 2.0, 1536)
	assert.Contains(t, plan, "Index Only Scan using memory_sketches_by_hash")
}

// TestVectorRerankInTheStatement: the sketch scan's statement re-ranks memory.VectorRerank rows.
func TestVectorRerankInTheStatement(t *testing.T) {
	assert.Equal(t, strconv.Itoa(memory.VectorRerank), memory.VectorRerankText)
	assert.Contains(t, memory.QVectorListSketch, "LIMIT "+memory.VectorRerankText+"\n")
}

// listRecall asks vf's service for the vector list of 20 requests of vf's set, checks that each is
// served by the index (indexed) or the sketch scan, is full, holds only visible items in order of
// distance, and gives its first three exact neighbours their exact distance, and returns recall@12
// against exact search.
func listRecall(t *testing.T, vf vectorFixture, visible map[string]bool, indexed bool) float64 {
	t.Helper()
	hits, total := 0, 0
	for i := range 20 {
		q := vf.set.next()
		got, byIndex, err := vf.svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
		require.NoError(t, err)
		require.Equal(t, indexed, byIndex)
		require.Len(t, got, 30, "request %d: the list is full", i)
		for j, m := range got {
			require.True(t, visible[m.ItemID], "request %d: another teammate's item", i)
			if j > 0 {
				require.LessOrEqual(t, got[j-1].Distance, m.Distance)
			}
		}
		want := exactNearest(q, vf.ids, vf.vectors, 12, 2)
		for j, m := range want {
			d := distanceOf(got[:12], m.ItemID)
			if !math.IsNaN(d) {
				hits++
			}
			if j < 3 && !math.IsNaN(d) {
				assert.InDelta(t, m.Distance, d, 1e-5, "request %d: the distance is exact", i)
			}
		}
		total += len(want)
	}
	return float64(hits) / float64(total)
}

// distanceOf is the distance list gives id, or NaN when it doesn't hold it.
func distanceOf(list []memory.VectorMatch, id string) float64 {
	for _, m := range list {
		if m.ItemID == id {
			return m.Distance
		}
	}
	return math.NaN()
}

// explain is the plan of query with args, one line after another.
func explain(t *testing.T, pool *pgxpool.Pool, query string, args ...any) string {
	t.Helper()
	var plan []string
	err := pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(context.Background(), `EXPLAIN `+query, args...)
		if err != nil {
			return err
		}
		plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	require.NoError(t, err)
	return strings.Join(plan, "\n")
}

// TestVectorListCurrentRevisionOnly: an item's earlier revisions keep their embeddings (and
// sketches), but only the current revision's counts (P3), by either path: an item whose old vector
// is the request itself and whose current vector is far is listed at its current distance, once.
func TestVectorListCurrentRevisionOnly(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 19, 300, 100, 100)
	ctx := context.Background()
	q := vf.set.next()
	far := make([]float32, len(q))
	for i, x := range q {
		far[i] = -x
	}
	edited := vf.ids[0]
	_, err := vf.pool.Exec(ctx, `UPDATE memory_embeddings SET embedding = $2::vector WHERE item_id = $1`, edited, vectorLiteral(q))
	require.NoError(t, err)
	err = pgx.BeginFunc(ctx, vf.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor)
			SELECT item_id, 2, content || ' (changed)', kind, pinned, 'edit', 'user' FROM memory_revisions WHERE item_id = $1`, edited); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE memory_items SET revision = 2, content = content || ' (changed)' WHERE id = $1`, edited); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, 2, $2, 1536, $3::vector)`,
			edited, vectorModel, vectorLiteral(far))
		return err
	})
	require.NoError(t, err)
	var sketches int
	require.NoError(t, vf.pool.QueryRow(ctx, `SELECT count(*) FROM memory_sketches WHERE item_id = $1`, edited).Scan(&sketches))
	require.Equal(t, 2, sketches, "each revision's embedding has its sketch")
	vectors := slices.Clone(vf.vectors)
	vectors[0] = far
	for _, limit := range []int{-1, 0} {
		svc := memory.NewService(vf.pool, slog.New(slog.DiscardHandler), memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel}, 2), memory.WithVectorSketchLimit(limit))
		got, indexed, err := svc.VectorList(worker, vf.teammate, q, vectorModel, 2.5)
		require.NoError(t, err)
		assert.Equal(t, limit == -1, indexed)
		for _, m := range got {
			if m.ItemID == edited {
				t.Fatalf("indexed %v: the edited item is listed at %v, by its earlier revision's vector", indexed, m.Distance)
			}
		}
		want := exactNearest(q, vf.ids, vectors, 30, 2.5)
		require.Len(t, got, len(want))
		assert.Equal(t, want[0].ItemID, got[0].ItemID, "indexed %v", indexed)
	}
}

// TestVectorListSketchPastItsFirstSort: when the sketches the first, bounded sort keeps are mostly
// of items the teammate can't be given (here a hundred more waiting suggestions than it keeps, all
// closer than anything visible), the sketch scan walks on past them: the list is still the nearest
// visible items, as exact search gives them.
func TestVectorListSketchPastItsFirstSort(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 29, 200, 100, 0)
	ctx := context.Background()
	q := vf.set.next()
	first, err := strconv.Atoi(memory.VectorSketchNearText)
	require.NoError(t, err)
	near := make([][]float32, first+100)
	for i := range near {
		v := vf.set.noise(0.05)
		var norm float64
		for j := range v {
			v[j] += float64(q[j])
			norm += v[j] * v[j]
		}
		near[i] = make([]float32, len(v))
		for j := range v {
			near[i][j] = float32(v[j] / math.Sqrt(norm))
		}
	}
	waiting := embeddedItems(t, vf.fixture, &vf.teammate, near)
	_, err = vf.pool.Exec(ctx, `UPDATE memory_items SET status = 'candidate' WHERE id = ANY ($1::uuid[])`, waiting)
	require.NoError(t, err)
	got, indexed, err := vf.svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
	require.NoError(t, err)
	require.False(t, indexed)
	want := exactNearest(q, vf.ids, vf.vectors, 30, 2)
	require.Len(t, got, len(want))
	hits := 0
	for _, m := range want[:12] {
		if !math.IsNaN(distanceOf(got, m.ItemID)) {
			hits++
		}
	}
	assert.GreaterOrEqual(t, hits, 11, "recall@12 of the visible items past more nearer suggestions than the first sort keeps")
	for _, m := range got {
		assert.NotContains(t, waiting, m.ItemID, "a waiting suggestion in the vector list")
	}
}

// TestSketchesFollowEmbeddings: an embedding's sketch is its binary quantization, made when the
// embedding is stored, made again when it is replaced by one of another size, and gone with it.
func TestSketchesFollowEmbeddings(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 23, 3, 1, 0)
	ctx := context.Background()
	var wrong int
	require.NoError(t, vf.pool.QueryRow(ctx, `
		SELECT count(*) FROM memory_embeddings e
		  FULL JOIN memory_sketches k USING (item_id, revision, model)
		  LEFT JOIN memory_items i ON i.id = e.item_id
		 WHERE k.sketch IS DISTINCT FROM binary_quantize(e.embedding)::varbit
		    OR k.dimensions IS DISTINCT FROM e.dimensions OR k.scope IS DISTINCT FROM i.scope`).Scan(&wrong))
	assert.Zero(t, wrong, "one sketch per embedding, of its vector, size and scope")

	_, err := vf.pool.Exec(ctx, `UPDATE memory_embeddings SET dimensions = 3, embedding = '[1,-2,3]' WHERE item_id = $1`, vf.ids[1])
	require.NoError(t, err)
	var sketch string
	var dims int
	require.NoError(t, vf.pool.QueryRow(ctx, `SELECT sketch::text, dimensions FROM memory_sketches WHERE item_id = $1`, vf.ids[1]).Scan(&sketch, &dims))
	assert.Equal(t, "101", sketch)
	assert.Equal(t, 3, dims)

	_, err = vf.svc.ForgetMemory(user, vf.ids[1])
	require.NoError(t, err)
	var left int
	require.NoError(t, vf.pool.QueryRow(ctx, `SELECT count(*) FROM memory_sketches WHERE item_id = $1`, vf.ids[1]).Scan(&left))
	assert.Zero(t, left, "a forgotten item's sketches go with its embeddings (F1)")
}

// TestRecallChoosesTheVectorPathInItsStatement: recall's statement for a 1,536-dimension request
// holds both paths of the vector list and runs one: the sketch scan for a teammate who sees no more
// than the sketch limit ($7), the HNSW index's above it, as VectorList chooses; and its packet is
// the one each path gives.
func TestRecallChoosesTheVectorPathInItsStatement(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 23, 300, 100, 100)
	vf.analyze(t)
	q := vf.set.next()
	scans := func(plan, table string) (ran, never int) {
		for line := range strings.Lines(plan) {
			if strings.Contains(line, " on "+table+" ") || strings.HasSuffix(strings.TrimSpace(line), " on "+table) {
				if strings.Contains(line, "never executed") {
					never++
				} else {
					ran++
				}
			}
		}
		return ran, never
	}
	for _, limit := range []int{-1, memory.VectorSketchLimit} {
		plan := explain(t, vf.pool, "(ANALYZE, COSTS OFF, TIMING OFF) "+memory.QRecallHybrid1536,
			vf.teammate, "anything", q, vectorModel, 2.0, 1536, limit)
		sketchRan, _ := scans(plan, "memory_sketches")
		indexRan, indexNever := scans(plan, "memory_embeddings")
		if limit == -1 {
			assert.Zero(t, sketchRan, "the sketch scan ran above the limit:\n%s", plan)
			assert.Positive(t, indexRan, "the index's path didn't run above the limit:\n%s", plan)
		} else {
			assert.Positive(t, sketchRan, "the sketch scan didn't run under the limit:\n%s", plan)
			assert.Positive(t, indexNever, "the index's path is not in the plan:\n%s", plan)
		}
		svc := memory.NewService(vf.pool, slog.New(slog.DiscardHandler),
			memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel, def: q}, 2), memory.WithVectorSketchLimit(limit))
		list, indexed, err := svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
		require.NoError(t, err)
		require.Equal(t, limit == -1, indexed)
		require.NotEmpty(t, list)
		preview, err := svc.RecallPreview(worker, vf.teammate, "which one is nearest")
		require.NoError(t, err)
		for name, p := range map[string]memory.Packet{
			"preview": preview,
			"run":     buildPacketWith(t, svc, vf.pool, vf.teammate, "which one is nearest"),
		} {
			require.Equal(t, memory.VectorUsed, p.Vector.State, name)
			ranked := 0
			for _, e := range p.Entries {
				if e.VectorPos == nil {
					continue
				}
				ranked++
				require.Less(t, *e.VectorPos-1, len(list), name)
				assert.Equal(t, list[*e.VectorPos-1].ItemID, e.Item.ID, "%s, limit %d: vector place %d", name, limit, *e.VectorPos)
				assert.InDelta(t, list[*e.VectorPos-1].Distance, *e.VectorDistance, 1e-9, name)
			}
			assert.Positive(t, ranked, "%s, limit %d: no entry from the vector list", name, limit)
		}
	}
}

// TestVectorListIndexRecall: through the HNSW index (forced here on a set small enough for a test),
// the vector list still finds the exact nearest 12 of a random set: recall@12 ≥ 0.95 over 20
// requests, with only visible items, at exact distances, in order.
func TestVectorListIndexRecall(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 11, 700, 300, 1000)
	// On a set this small the planner would rather sort every visible vector than walk the index
	// (at the sizes the index path is for, the index is the cheaper plan): sorting is discouraged
	// for this service's connections, so that what is measured is the index.
	cfg := vf.pool.Config()
	cfg.ConnConfig.RuntimeParams["enable_sort"] = "off"
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	vf.pool = pool
	vf.svc = memory.NewService(pool, slog.New(slog.DiscardHandler),
		memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel}, 2), memory.WithVectorSketchLimit(-1))
	visible := map[string]bool{}
	for _, id := range vf.ids {
		visible[id] = true
	}
	recall := listRecall(t, vf, visible, true)
	t.Logf("recall@12 through the index: %.3f", recall)
	assert.GreaterOrEqual(t, recall, 0.95)

	// The statement is served by the index, not by a sort of every visible vector.
	plan := explain(t, vf.pool, memory.QVectorListIndexed, vf.teammate, "", vf.set.next(), vectorModel, 2.0)
	assert.Contains(t, plan, "Index Scan using memory_embeddings_hnsw_1536_half")
}

// TestVectorListForgotten: a forgotten item's vector leaves the table (F1), so neither path of the
// vector list can give it.
func TestVectorListForgotten(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 13, 40, 10, 40)
	q := vf.vectors[0]
	for _, limit := range []int{-1, 0} {
		svc := memory.NewService(vf.pool, slog.New(slog.DiscardHandler), memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel}, 2), memory.WithVectorSketchLimit(limit))
		got, _, err := svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
		require.NoError(t, err)
		require.NotEmpty(t, got)
		require.Equal(t, vf.ids[0], got[0].ItemID, "an item is its own nearest")
	}
	_, err := vf.svc.ForgetMemory(user, vf.ids[0])
	require.NoError(t, err)
	var left int
	require.NoError(t, vf.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_embeddings WHERE item_id = $1`, vf.ids[0]).Scan(&left))
	assert.Zero(t, left)
	require.NoError(t, vf.pool.QueryRow(context.Background(), `SELECT count(*) FROM memory_sketches WHERE item_id = $1`, vf.ids[0]).Scan(&left))
	assert.Zero(t, left)
	for _, limit := range []int{-1, 0} {
		svc := memory.NewService(vf.pool, slog.New(slog.DiscardHandler), memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel}, 2), memory.WithVectorSketchLimit(limit))
		got, indexed, err := svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
		require.NoError(t, err)
		assert.Equal(t, limit == -1, indexed)
		for _, m := range got {
			assert.NotEqual(t, vf.ids[0], m.ItemID, "indexed %v", indexed)
		}
	}
}

// TestEmbeddingsStayInTheirRows: a 1,536-dimension vector is kept in its row (migration 000025), so
// the re-rank reads it without the TOAST table; one too large for a page still goes there.
func TestEmbeddingsStayInTheirRows(t *testing.T) {
	t.Parallel()
	f := setup(t)
	teammate := f.teammate(t, "Rows")
	set := newVectorSet(25, 4)
	ctx := context.Background()
	toastSize := func() int64 {
		t.Helper()
		var size int64
		require.NoError(t, f.pool.QueryRow(ctx, `
			SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE oid = 'memory_embeddings'::regclass`).Scan(&size))
		return size
	}
	require.Zero(t, toastSize())
	embeddedItems(t, f, &teammate, [][]float32{set.next(), set.next()})
	assert.Zero(t, toastSize(), "1,536-dimension vectors fit their rows")
	embeddedItemsBy(t, f, &teammate, "large-model", [][]float32{append(set.next(), set.next()...)})
	assert.Positive(t, toastSize(), "a 3,072-dimension vector (12 KB) goes to TOAST")
}

// TestSketchKeyKeepsModelsApart: the sketch scan finds the embeddings of a teammate by one model at
// one size by a single key made of the scope, the size and the model's name (migrations 000026 and
// 000028: memory_sketch_key, hashed by memory_sketch_hash). Names with spaces and digits in them,
// one the prefix of another, and the
// same name at another size or in another teammate's scope can't share a key: a request meets the
// embeddings of its own model, size and visible scopes alone, though every vector here is the
// request's own.
func TestSketchKeyKeepsModelsApart(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ada")
	other := f.teammate(t, "Grace")
	q := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	models := []string{"alpha", "alpha beta", "8 alpha", "alpha 8", " alpha", "alpha "}
	want := map[string][]string{}
	for _, m := range models {
		want[m] = embeddedItemsBy(t, f, &tm, m, [][]float32{q, q})
	}
	want["alpha"] = append(want["alpha"], embeddedItemsBy(t, f, nil, "alpha", [][]float32{q})...) // the shared scope's
	embeddedItemsBy(t, f, &other, "alpha", [][]float32{q, q})                                     // not visible to Ada
	embeddedItemsBy(t, f, &tm, "alpha", [][]float32{q[:4], q[:4]})                                // another size
	for _, m := range models {
		got, indexed, err := f.svc.VectorList(worker, tm, q, m, 2)
		require.NoError(t, err, m)
		assert.False(t, indexed, m)
		ids := make([]string, len(got))
		for i, g := range got {
			ids[i] = g.ItemID
		}
		assert.ElementsMatch(t, want[m], ids, "model %q", m)
	}
}

// TestSketchHashIsSHA256: the sketch scan's key (memory_sketch_hash, migration 000029) is the first
// eight bytes of the SHA-256 digest of memory_sketch_key's text in UTF-8, read as a signed
// big-endian integer, as computed here in Go: a value fixed by a standard, which no PostgreSQL
// upgrade or platform can change under the keys stored in memory_sketches. Every stored key is that
// of its row's scope, size and model.
func TestSketchHashIsSHA256(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	tm := f.teammate(t, "Ada")
	keys := []struct {
		scope      string
		dimensions int
		model      string
	}{
		{"shared", 1536, "text-embedding-3-small"},
		{tm, 1536, "text-embedding-3-small"},
		{tm, 8, "alpha beta"},
		{tm, 16000, "modèle « été » 模型 🙂"},
		{"shared", 1, " "},
	}
	for _, k := range keys {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s %d %s", k.scope, k.dimensions, k.model)))
		want := int64(binary.BigEndian.Uint64(sum[:8]))
		var got int64
		require.NoError(t, f.pool.QueryRow(ctx, `SELECT memory_sketch_hash($1, $2, $3)`, k.scope, k.dimensions, k.model).Scan(&got))
		assert.Equal(t, want, got, "%+v", k)
	}
	embeddedItemsBy(t, f, &tm, "modèle 🙂", [][]float32{{1, 2, 3, 4}, {4, 3, 2, 1}})
	embeddedItemsBy(t, f, nil, "modèle 🙂", [][]float32{{1, 2, 3, 4}})
	rows, err := f.pool.Query(ctx, `SELECT scope, dimensions, model, scan_hash FROM memory_sketches`)
	require.NoError(t, err)
	type stored struct {
		Scope      string
		Dimensions int
		Model      string
		ScanHash   int64
	}
	all, err := pgx.CollectRows(rows, pgx.RowToStructByName[stored])
	require.NoError(t, err)
	require.Len(t, all, 3)
	for _, s := range all {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s %d %s", s.Scope, s.Dimensions, s.Model)))
		assert.Equal(t, int64(binary.BigEndian.Uint64(sum[:8])), s.ScanHash, "%+v", s)
	}
}
