package memory_test

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// These tests attack the vector list (RULES P3) from outside: they build what the rules say must
// never count — earlier revisions, other models and sizes, items a teammate may not see — as close
// to the request as possible, and check the list the service gives against the rules. Each attack
// runs on every path the list can take (attackPaths).

// attackPath is one way the service can build the vector list.
type attackPath struct {
	name    string
	svc     *memory.Service
	indexed bool // VectorList must say the index served it
	// approximate: the HNSW index itself is walked, so the list may miss a few of the exact nearest
	// (TestVectorListIndexRecall bounds how many); everything else must still hold.
	approximate bool
}

// attackPaths are the services of every path of the vector list on pool, with maxDistance as the
// configured cut-off: the sketch scan (the default for a teammate who sees up to 20,000 items), the
// index's statement as the planner runs it, and the index's statement with sorting discouraged so
// that the HNSW index itself is walked, as it is at the sizes that path is for.
func attackPaths(t *testing.T, pool *pgxpool.Pool, e memory.QueryEmbedder) []attackPath {
	t.Helper()
	cfg := pool.Config()
	cfg.ConnConfig.RuntimeParams["enable_sort"] = "off"
	walk, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(walk.Close)
	log := slog.New(slog.DiscardHandler)
	return []attackPath{
		{name: "sketch", svc: memory.NewService(pool, log, memory.WithSemanticRecall(e, 2))},
		{name: "index", svc: memory.NewService(pool, log, memory.WithSemanticRecall(e, 2), memory.WithVectorSketchLimit(-1)), indexed: true},
		{name: "hnsw", svc: memory.NewService(walk, log, memory.WithSemanticRecall(e, 2), memory.WithVectorSketchLimit(-1)), indexed: true, approximate: true},
	}
}

// reviseItem makes item id's embedded revision 1 the first of len(old) earlier revisions embedded
// by oldModel as old, and adds a current revision len(old)+1 embedded by vectorModel as current
// (no embedding when current is nil).
func reviseItem(t testing.TB, f fixture, id, oldModel string, old [][]float32, current []float32) {
	t.Helper()
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, f.pool, func(tx pgx.Tx) error {
		revs, texts := []int32{}, []string{}
		for i, v := range old {
			revs, texts = append(revs, int32(i+1)), append(texts, vectorLiteral(v))
		}
		n := len(old) + 1
		if _, err := tx.Exec(ctx, `DELETE FROM memory_embeddings WHERE item_id = $1`, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO memory_revisions (item_id, revision, content, kind, pinned, action, actor)
			SELECT $1, r, 'Attack revision ' || r, 'fact', false, 'edit', 'user' FROM generate_series(2, $2::int) AS r`, id, n); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE memory_items SET revision = $2::int, content = 'Attack revision ' || $2::int WHERE id = $1`, id, n); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
			SELECT $1, r, $4, vector_dims(v::vector), v::vector FROM unnest($2::int[], $3::text[]) AS n(r, v)`, id, revs, texts, oldModel); err != nil {
			return err
		}
		if current == nil {
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, $2, $3, $4, $5::vector)`,
			id, n, vectorModel, len(current), vectorLiteral(current))
		return err
	})
	require.NoError(t, err)
}

// near is a unit vector at a small random angle from q.
func (s *vectorSet) near(q []float32, scale float64) []float32 {
	v := s.noise(scale)
	var norm float64
	for i := range v {
		v[i] += float64(q[i])
		norm += v[i] * v[i]
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(norm))
	}
	return out
}

func (vf vectorFixture) analyze(t *testing.T) {
	t.Helper()
	_, err := vf.pool.Exec(context.Background(), `ANALYZE memory_items, memory_embeddings, memory_sketches`)
	require.NoError(t, err)
}

// checkList asserts that got is a vector list of path for q: ordered by distance, every item
// allowed and at its exact distance to q (vectors by id), and equal to want — exactly, or, on an
// approximate path, as long as want with at least minRecall of want's items.
func checkList(t *testing.T, path attackPath, label string, got, want []memory.VectorMatch, q []float32, vectors map[string][]float32, minRecall float64) {
	t.Helper()
	for j, m := range got {
		v, ok := vectors[m.ItemID]
		if !assert.True(t, ok, "%s %s: place %d holds an item that must not be listed", path.name, label, j+1) {
			continue
		}
		assert.InDelta(t, cosineDistance(q, v), m.Distance, 1e-5, "%s %s: place %d is not at its current distance", path.name, label, j+1)
		if j > 0 {
			assert.LessOrEqual(t, got[j-1].Distance, m.Distance, "%s %s: out of order at %d", path.name, label, j+1)
		}
	}
	seen := map[string]bool{}
	for _, m := range got {
		assert.False(t, seen[m.ItemID], "%s %s: %s listed twice", path.name, label, m.ItemID)
		seen[m.ItemID] = true
	}
	if !path.approximate {
		require.Len(t, got, len(want), "%s %s", path.name, label)
		for j := range want {
			assert.Equal(t, want[j].ItemID, got[j].ItemID, "%s %s: place %d", path.name, label, j+1)
			assert.InDelta(t, want[j].Distance, got[j].Distance, 1e-5, "%s %s: place %d", path.name, label, j+1)
		}
		return
	}
	require.Len(t, got, len(want), "%s %s: the list is not filled", path.name, label)
	hits := 0
	for _, m := range want {
		if seen[m.ItemID] {
			hits++
		}
	}
	if len(want) > 0 {
		assert.GreaterOrEqual(t, float64(hits)/float64(len(want)), minRecall, "%s %s: recall", path.name, label)
	}
}

func byID(ids []string, vectors [][]float32) map[string][]float32 {
	m := make(map[string][]float32, len(ids))
	for i, id := range ids {
		m[id] = vectors[i]
	}
	return m
}

// TestVectorAttackEarlierRevisions: earlier revisions' embeddings never count (P3). One item's
// earlier revision is the request itself and its current one the request's opposite; 40 more items
// each have 50 earlier revisions crowding the request's neighbourhood and a current revision
// somewhere else; and an item whose current revision has no embedding yet had one at the request.
// Every path must list the items at their current distances, and the nearest current ones.
func TestVectorAttackEarlierRevisions(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 31, 100, 40, 50)
	q := vf.set.next()
	far := make([]float32, len(q))
	for i, x := range q {
		far[i] = -x
	}
	current := slices.Clone(vf.vectors)
	// The item whose earlier revision is the request.
	reviseItem(t, vf.fixture, vf.ids[0], vectorModel, [][]float32{q}, far)
	current[0] = far
	// Crowds: 40 items with 50 earlier revisions each, all nearer the request than any current one.
	for i := 1; i <= 40; i++ {
		old := make([][]float32, 50)
		for j := range old {
			old[j] = vf.set.near(q, 0.05)
		}
		current[i] = vf.set.next()
		reviseItem(t, vf.fixture, vf.ids[i], vectorModel, old, current[i])
	}
	// An edit not embedded yet: its item has no current embedding, so it is not listed at all.
	unembedded := vf.ids[41]
	reviseItem(t, vf.fixture, unembedded, vectorModel, [][]float32{q}, nil)
	ids := slices.Delete(slices.Clone(vf.ids), 41, 42)
	current = slices.Delete(current, 41, 42)
	vf.analyze(t)
	var crowd, sketches int
	require.NoError(t, vf.pool.QueryRow(context.Background(), `
		SELECT count(*) FILTER (WHERE e.revision < i.revision AND e.embedding <=> $2::vector < 0.01),
		       (SELECT count(*) FROM memory_sketches WHERE item_id = ANY($1))
		  FROM memory_embeddings e JOIN memory_items i ON i.id = e.item_id
		 WHERE e.item_id = ANY($1)`, vf.ids[1:41], vectorLiteral(q)).Scan(&crowd, &sketches))
	require.Equal(t, 40*50, crowd, "the crowd of earlier revisions surrounds the request")
	require.Equal(t, 40*51, sketches, "every revision's embedding has its sketch")

	vectors := byID(ids, current)
	for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel}) {
		for _, maxDistance := range []float64{2, 1, 0.5} {
			label := "cut-off " + strconv.FormatFloat(maxDistance, 'g', -1, 64)
			got, indexed, err := path.svc.VectorList(worker, vf.teammate, q, vectorModel, maxDistance)
			require.NoError(t, err)
			assert.Equal(t, path.indexed, indexed, path.name)
			for _, m := range got {
				assert.NotEqual(t, unembedded, m.ItemID, "%s %s: an item listed by an earlier revision's embedding", path.name, label)
				if m.ItemID == vf.ids[0] {
					assert.InDelta(t, 2, m.Distance, 1e-5, "%s %s: the edited item is listed at its earlier distance", path.name, label)
				}
			}
			checkList(t, path, label, got, exactNearest(q, ids, current, 30, maxDistance), q, vectors, 0.9)
		}
	}
}

// TestVectorAttackInvisibleNeighbours: hundreds of items nearer the request than any visible one —
// another teammate's, candidates, dismissed, expired (in the teammate's own scope and the shared
// one) and forgotten ones — are never listed, and they don't starve the list: the 30 nearest
// visible items still come back.
func TestVectorAttackInvisibleNeighbours(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 37, 100, 60, 0)
	ctx := context.Background()
	q := vf.set.next()
	batch := func(n int) [][]float32 {
		out := make([][]float32, n)
		for i := range out {
			out[i] = vf.set.near(q, 0.05)
		}
		return out
	}
	other := vf.fixture.teammate(t, "Other")
	embeddedItemsBy(t, vf.fixture, &other, vectorModel, batch(100))
	gone := vf.fixture.teammate(t, "Gone")
	embeddedItemsBy(t, vf.fixture, &gone, vectorModel, batch(20))
	_, err := vf.svc.DeleteTeammate(user, gone)
	require.NoError(t, err)
	for _, scope := range []*string{&vf.teammate, nil} {
		candidates := embeddedItemsBy(t, vf.fixture, scope, vectorModel, batch(50))
		_, err := vf.pool.Exec(ctx, `UPDATE memory_items SET status = 'candidate' WHERE id = ANY($1)`, candidates)
		require.NoError(t, err)
		dismissed := embeddedItemsBy(t, vf.fixture, scope, vectorModel, batch(50))
		_, err = vf.pool.Exec(ctx, `UPDATE memory_items SET status = 'dismissed', resolution = 'dismissed' WHERE id = ANY($1)`, dismissed)
		require.NoError(t, err)
		expired := embeddedItemsBy(t, vf.fixture, scope, vectorModel, batch(50))
		_, err = vf.pool.Exec(ctx, `UPDATE memory_items SET expires_at = now() - interval '1 minute' WHERE id = ANY($1)`, expired)
		require.NoError(t, err)
		forgotten := embeddedItemsBy(t, vf.fixture, scope, vectorModel, batch(20))
		for _, id := range forgotten {
			_, err := vf.svc.ForgetMemory(user, id)
			require.NoError(t, err)
		}
		// Items that expire later are visible, and nearer than the rest of the visible ones.
		later := batch(3)
		laterIDs := embeddedItemsBy(t, vf.fixture, scope, vectorModel, later)
		_, err = vf.pool.Exec(ctx, `UPDATE memory_items SET expires_at = now() + interval '1 day' WHERE id = ANY($1)`, laterIDs)
		require.NoError(t, err)
		vf.ids, vf.vectors = append(vf.ids, laterIDs...), append(vf.vectors, later...)
	}
	vf.analyze(t)

	vectors := byID(vf.ids, vf.vectors)
	for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel}) {
		for _, maxDistance := range []float64{2, 1} {
			label := "cut-off " + strconv.FormatFloat(maxDistance, 'g', -1, 64)
			got, indexed, err := path.svc.VectorList(worker, vf.teammate, q, vectorModel, maxDistance)
			require.NoError(t, err)
			assert.Equal(t, path.indexed, indexed, path.name)
			want := exactNearest(q, vf.ids, vf.vectors, 30, maxDistance)
			require.Len(t, want, 30, "the fixture has 30 visible items under the cut-off")
			checkList(t, path, label, got, want, q, vectors, 0.9)
			require.NotEmpty(t, got)
			assert.Less(t, got[0].Distance, 0.05, "%s %s: the items that expire later lead the list", path.name, label)
		}
		// The other teammate sees its own items, and the shared ones, but never the first's.
		got, _, err := path.svc.VectorList(worker, other, q, vectorModel, 2)
		require.NoError(t, err)
		require.Len(t, got, 30, path.name)
		mine := map[string]bool{}
		for _, id := range vf.ids[:100] {
			mine[id] = true
		}
		for _, m := range got {
			assert.False(t, mine[m.ItemID], "%s: another teammate's item", path.name)
			assert.Less(t, m.Distance, 0.05, "%s: the other teammate's own near items come first", path.name)
		}
	}
}

// TestVectorAttackOtherModelsAndSizes: embeddings made by another model, or by the configured model
// at another size, lie in the same scope right at the request; an item's current revision is
// embedded by another model while its earlier one, by the configured model, is the request. None of
// them is compared with a 1,536-dimension request and nothing fails; a request of another size is
// compared only with embeddings of its own size.
func TestVectorAttackOtherModelsAndSizes(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 41, 90, 30, 20)
	q := vf.set.next()
	nearQ := func(n int) [][]float32 {
		out := make([][]float32, n)
		for i := range out {
			out[i] = vf.set.near(q, 0.02)
		}
		return out
	}
	sized := func(n, dims int) [][]float32 {
		out := make([][]float32, n)
		for i := range out {
			v := make([]float32, dims)
			for j := range v {
				v[j] = float32(vf.set.r.NormFloat64())
			}
			out[i] = v
		}
		return out
	}
	embeddedItemsBy(t, vf.fixture, &vf.teammate, "other-model", nearQ(40))
	embeddedItemsBy(t, vf.fixture, nil, "other-model", nearQ(40))
	threes, sevens := sized(25, 3), sized(25, 768)
	threeIDs := embeddedItemsBy(t, vf.fixture, &vf.teammate, vectorModel, threes)
	sevenIDs := embeddedItemsBy(t, vf.fixture, nil, vectorModel, sevens)
	switched := embeddedItemsBy(t, vf.fixture, &vf.teammate, vectorModel, nearQ(1))[0]
	// Revision 1 (configured model) is the request; revision 2 is embedded only by another model.
	reviseItem(t, vf.fixture, switched, vectorModel, [][]float32{q}, nil)
	_, err := vf.pool.Exec(context.Background(), `
		INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
		VALUES ($1, 2, 'other-model', 1536, $2::vector)`, switched, vectorLiteral(q))
	require.NoError(t, err)
	// A visible item's current revision embedded by both models: the other model's vector is the
	// request, the configured model's one is whatever it is.
	both := vf.ids[5]
	_, err = vf.pool.Exec(context.Background(), `
		INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding)
		VALUES ($1, 1, 'other-model', 1536, $2::vector)`, both, vectorLiteral(q))
	require.NoError(t, err)
	vf.analyze(t)

	vectors := byID(vf.ids, vf.vectors)
	for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel}) {
		got, indexed, err := path.svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
		require.NoError(t, err)
		assert.Equal(t, path.indexed, indexed, path.name)
		checkList(t, path, "1,536", got, exactNearest(q, vf.ids, vf.vectors, 30, 2), q, vectors, 0.9)
		if d := distanceOf(got, both); !math.IsNaN(d) {
			assert.InDelta(t, cosineDistance(q, vf.vectors[5]), d, 1e-5, "%s: listed at another model's distance", path.name)
		}

		// The same request under another model's name finds that model's embeddings alone.
		got, _, err = path.svc.VectorList(worker, vf.teammate, q, "other-model", 2)
		require.NoError(t, err, path.name)
		require.Len(t, got, 30, path.name)
		for _, m := range got {
			assert.Less(t, m.Distance, 0.01, "%s: another model's list holds an item of the configured model", path.name)
		}

		// Requests of 3 and 768 dimensions meet their own size alone.
		for _, set := range []struct {
			ids     []string
			vectors [][]float32
		}{{threeIDs, threes}, {sevenIDs, sevens}} {
			r := sized(1, len(set.vectors[0]))[0]
			label := strconv.Itoa(len(r)) + " dimensions"
			got, _, err := path.svc.VectorList(worker, vf.teammate, r, vectorModel, 2)
			require.NoError(t, err, "%s %s", path.name, label)
			want := exactNearest(r, set.ids, set.vectors, 30, 2)
			p := path
			p.approximate = false // no index serves these sizes
			checkList(t, p, label, got, want, r, byID(set.ids, set.vectors), 1)
		}
	}
}

// unit is the 1,536-dimension vector with the given first components.
func unit(first ...float32) []float32 {
	v := make([]float32, 1536)
	copy(v, first)
	return v
}

// TestVectorAttackCutOff: the list holds items strictly below the cut-off (P3), at the boundary
// itself (3:4 is exactly 0.4 from the request's axis, the opposite exactly 2) and a hair's breadth
// either side of it.
func TestVectorAttackCutOff(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Edge")
	hair := func(d float64) []float32 { // a vector at distance d from the first axis
		c := 1 - d
		return unit(float32(c), float32(math.Sqrt(1-c*c)))
	}
	vectors := [][]float32{
		unit(3, 4),         // 0.4
		unit(4, 3),         // 0.2
		hair(0.4 - 2e-4),   // just below 0.4
		hair(0.4 + 2e-4),   // just above 0.4
		unit(-1),           // 2
		unit(2),            // 0: the request's direction
		unit(0, 1),         // 1
		hair(1 - 2e-4),     // just below 1
		unit(-1, 1e-3),     // just below 2
		unit(0, 0, 0, 5),   // 1
		unit(1, 0, 0, 0.1), // small
	}
	ids := embeddedItemsBy(t, f, &tm, vectorModel, vectors)
	_, err := f.pool.Exec(context.Background(), `ANALYZE memory_items, memory_embeddings, memory_sketches`)
	require.NoError(t, err)
	byId := byID(ids, vectors)
	q := unit(1)
	for _, path := range attackPaths(t, f.pool, &fakeEmbedder{model: vectorModel}) {
		for _, maxDistance := range []float64{0.4, 1, 2, 0.2, 1e-6, 1e-12} {
			label := "cut-off " + strconv.FormatFloat(maxDistance, 'g', -1, 64)
			got, _, err := path.svc.VectorList(worker, tm, q, vectorModel, maxDistance)
			require.NoError(t, err, "%s %s", path.name, label)
			want := exactNearest(q, ids, vectors, 30, maxDistance)
			p := path
			p.approximate = false // eleven items: even the index's walk finds them all
			checkList(t, p, label, got, want, q, byId, 1)
			for _, m := range got {
				assert.Less(t, m.Distance, maxDistance, "%s %s: at or above the cut-off", path.name, label)
			}
		}
		// A request in no item's direction, with a tiny cut-off: nothing.
		got, _, err := path.svc.VectorList(worker, tm, unit(1, 1, 1), vectorModel, 1e-6)
		require.NoError(t, err, path.name)
		assert.Empty(t, got, path.name)
	}
	// The boundary cases the list above relies on.
	assert.Equal(t, 0.4, cosineDistance(q, vectors[0]))
	assert.Equal(t, 2.0, cosineDistance(q, vectors[4]))
	assert.Zero(t, cosineDistance(q, vectors[5]))
}

// TestVectorAttackExactOnFewItems: a teammate who sees no more than 200 items gets exactly the
// nearest 30 by both statements, in order, at their distances, for every cut-off; the index's walk
// finds nearly all of them.
func TestVectorAttackExactOnFewItems(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 43, 130, 70, 300)
	vectors := byID(vf.ids, vf.vectors)
	requests := [][]float32{vf.vectors[3], vf.vectors[150]} // an item's own vector: distance 0 first
	for range 4 {
		requests = append(requests, vf.set.next())
	}
	for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel}) {
		for i, q := range requests {
			for _, maxDistance := range []float64{2, 0.6, 0.45} {
				label := "request " + strconv.Itoa(i) + ", cut-off " + strconv.FormatFloat(maxDistance, 'g', -1, 64)
				got, indexed, err := path.svc.VectorList(worker, vf.teammate, q, vectorModel, maxDistance)
				require.NoError(t, err, label)
				assert.Equal(t, path.indexed, indexed, path.name)
				checkList(t, path, label, got, exactNearest(q, vf.ids, vf.vectors, 30, maxDistance), q, vectors, 0.9)
			}
		}
	}
}

// TestVectorAttackOddRequests: a teammate without items gets an empty list; a deleted or unknown
// teammate is NOT_FOUND; a request vector that has no direction (zeros), or holds NaN or infinity,
// or is empty, is refused with an error, never a panic or a list.
func TestVectorAttackOddRequests(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 47, 20, 0, 20)
	empty := vf.fixture.teammate(t, "Empty")
	gone := vf.fixture.teammate(t, "Gone")
	embeddedItemsBy(t, vf.fixture, &gone, vectorModel, [][]float32{vf.vectors[0]})
	_, err := vf.svc.DeleteTeammate(user, gone)
	require.NoError(t, err)
	q := vf.set.next()
	nan, inf := slices.Clone(q), slices.Clone(q)
	nan[7] = float32(math.NaN())
	inf[7] = float32(math.Inf(1))
	for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel}) {
		got, _, err := path.svc.VectorList(worker, empty, q, vectorModel, 2)
		require.NoError(t, err, path.name)
		assert.Empty(t, got, path.name)

		_, _, err = path.svc.VectorList(runOf(vf.teammate), vf.teammate, q, vectorModel, 2)
		assert.True(t, errors.Is(err, memory.ErrForbidden), "%s: a run's credential: %v", path.name, err)

		for name, tm := range map[string]string{"deleted": gone, "unknown": uuid.NewString()} {
			_, _, err := path.svc.VectorList(worker, tm, q, vectorModel, 2)
			assert.True(t, errors.Is(err, memory.ErrNotFound), "%s: a %s teammate: %v", path.name, name, err)
		}

		for name, r := range map[string][]float32{"zeros": make([]float32, 1536), "NaN": nan, "infinity": inf, "empty": {}} {
			var got []memory.VectorMatch
			var err error
			require.NotPanics(t, func() { got, _, err = path.svc.VectorList(worker, vf.teammate, r, vectorModel, 2) }, "%s %s", path.name, name)
			assert.Error(t, err, "%s: a request of %s", path.name, name)
			assert.Empty(t, got, "%s: a request of %s", path.name, name)
		}
	}
}

// TestVectorAttackThroughRecall: recall itself (the user's preview and a run's packet) puts the
// vector list's items in the packet with their places and distances, and never an item forgotten,
// expired, or edited since its embedding was made.
func TestVectorAttackThroughRecall(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 53, 60, 20, 40)
	q := vf.set.next()
	const request = "zyxwv qqqq" // shares no word with any item: the full-text list is empty
	paths := attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel, def: q})

	check := func(label string, hidden map[string]bool) {
		t.Helper()
		for _, path := range paths {
			list, _, err := path.svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
			require.NoError(t, err)
			require.Len(t, list, 30, "%s %s", path.name, label)
			preview, err := path.svc.RecallPreview(user, vf.teammate, request)
			require.NoError(t, err, "%s %s", path.name, label)
			run := buildPacketWith(t, path.svc, vf.pool, vf.teammate, request)
			for name, p := range map[string]memory.Packet{"preview": preview, "run": run} {
				require.Len(t, p.Entries, 12, "%s %s %s: the top 12 of the vector list", path.name, label, name)
				for j, e := range p.Entries {
					assert.False(t, hidden[e.Item.ID], "%s %s %s: a hidden item in the packet", path.name, label, name)
					assert.Nil(t, e.FullTextPos, "%s %s %s", path.name, label, name)
					if assert.NotNil(t, e.VectorPos, "%s %s %s: place %d", path.name, label, name, j+1) {
						assert.Equal(t, j+1, *e.VectorPos, "%s %s %s: place %d", path.name, label, name, j+1)
					}
					assert.Equal(t, list[j].ItemID, e.Item.ID, "%s %s %s: place %d", path.name, label, name, j+1)
					if assert.NotNil(t, e.VectorDistance) {
						assert.InDelta(t, list[j].Distance, *e.VectorDistance, 1e-5)
					}
					assert.Contains(t, p.Text, "[memory:"+e.Item.ID+"@"+strconv.Itoa(e.Item.Revision)+";")
				}
				for id := range hidden {
					assert.NotContains(t, p.Text, id, "%s %s %s", path.name, label, name)
				}
			}
		}
	}
	check("untouched", nil)

	// The three nearest: forgotten, expired, and edited (the new revision has no embedding yet).
	first, _, err := vf.svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(first), 3)
	_, err = vf.svc.ForgetMemory(user, first[0].ItemID)
	require.NoError(t, err)
	_, err = vf.pool.Exec(context.Background(), `UPDATE memory_items SET expires_at = now() - interval '1 second' WHERE id = $1`, first[1].ItemID)
	require.NoError(t, err)
	_, err = vf.svc.EditMemory(user, memory.EditInput{ID: first[2].ItemID, BaseRevision: 1, Content: ptr("Changed entirely")})
	require.NoError(t, err)
	check("changed", map[string]bool{first[0].ItemID: true, first[1].ItemID: true, first[2].ItemID: true})
}

// TestVectorAttackUnusableEmbedding: when the endpoint answers the request with a vector that has no
// direction (zeros), holds NaN or infinity, or is empty, recall never fails: the packet comes from
// the full-text list alone and says the vector was unusable (P3), on every path.
func TestVectorAttackUnusableEmbedding(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 59, 20, 10, 10)
	nan, inf := vf.set.next(), vf.set.next()
	nan[3] = float32(math.NaN())
	inf[3] = float32(math.Inf(-1))
	const request = "vector zyxwv" // "vector" is in every item's content
	for name, v := range map[string][]float32{"zeros": make([]float32, 1536), "NaN": nan, "infinity": inf, "empty": {}} {
		for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel, def: v}) {
			label := path.name + " " + name
			var preview memory.Packet
			var err error
			require.NotPanics(t, func() { preview, err = path.svc.RecallPreview(user, vf.teammate, request) }, label)
			require.NoError(t, err, label)
			run := buildPacketWith(t, path.svc, vf.pool, vf.teammate, request)
			for which, p := range map[string]memory.Packet{"preview": preview, "run": run} {
				assert.Equal(t, memory.VectorStatus{State: memory.VectorFailed, Reason: memory.VectorReasonUnusable}, p.Vector, "%s %s", label, which)
				assert.Len(t, p.Entries, 12, "%s %s: the full-text list alone", label, which)
				for _, e := range p.Entries {
					assert.Nil(t, e.VectorPos, "%s %s", label, which)
					assert.NotNil(t, e.FullTextPos, "%s %s", label, which)
				}
			}
		}
	}
}

// TestVectorAttackRequestScale: cosine distance does not depend on a vector's length, so a request
// embedded without normalisation — its vector scaled up or down — gets the same list as the unit
// request, on every path, and recall neither fails nor loses its vector hits.
func TestVectorAttackRequestScale(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 61, 120, 60, 60)
	vectors := byID(vf.ids, vf.vectors)
	q := vf.set.next()
	want := exactNearest(q, vf.ids, vf.vectors, 30, 2)
	for _, scale := range []float32{1e-6, 1e-4, 1e-3, 1e3, 1e5, 1e7} {
		r := make([]float32, len(q))
		for i, x := range q {
			r[i] = x * scale
		}
		for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel, def: r}) {
			label := "scale " + strconv.FormatFloat(float64(scale), 'g', -1, 32)
			got, _, err := path.svc.VectorList(worker, vf.teammate, r, vectorModel, 2)
			if assert.NoError(t, err, "%s %s", path.name, label) {
				checkList(t, path, label, got, want, q, vectors, 0.9)
			}
			p, err := path.svc.RecallPreview(user, vf.teammate, "zyxwv qqqq")
			if assert.NoError(t, err, "%s %s: recall fails", path.name, label) {
				assert.Equal(t, memory.VectorUsed, p.Vector.State, "%s %s", path.name, label)
				if assert.Len(t, p.Entries, 12, "%s %s: the vector hits", path.name, label) && !path.approximate {
					assert.Equal(t, want[0].ItemID, p.Entries[0].Item.ID, "%s %s", path.name, label)
				}
			}
		}
	}
}

// TestVectorAttackTies: 40 items at exactly the request's direction (distance 0), in the teammate's
// own scope and the shared one, tie for the list: it holds 30 of them once each, at distance 0, the
// same 30 every time.
func TestVectorAttackTies(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 71, 30, 30, 30)
	q := vf.set.next()
	same := make([][]float32, 20)
	for i := range same {
		same[i] = slices.Clone(q)
	}
	tied := map[string]bool{}
	for _, id := range append(embeddedItemsBy(t, vf.fixture, &vf.teammate, vectorModel, same), embeddedItemsBy(t, vf.fixture, nil, vectorModel, same)...) {
		tied[id] = true
	}
	vf.analyze(t)
	for _, path := range attackPaths(t, vf.pool, &fakeEmbedder{model: vectorModel}) {
		first, _, err := path.svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
		require.NoError(t, err, path.name)
		require.Len(t, first, 30, path.name)
		seen := map[string]bool{}
		for _, m := range first {
			assert.True(t, tied[m.ItemID], "%s: an item farther than 40 tied ones", path.name)
			assert.InDelta(t, 0, m.Distance, 1e-6, path.name)
			assert.False(t, seen[m.ItemID], "%s: listed twice", path.name)
			seen[m.ItemID] = true
		}
		for range 2 {
			again, _, err := path.svc.VectorList(worker, vf.teammate, q, vectorModel, 2)
			require.NoError(t, err, path.name)
			assert.Equal(t, first, again, "%s: the same request gives the same list", path.name)
		}
	}
}
