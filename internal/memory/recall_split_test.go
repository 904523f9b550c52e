package memory_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/memory/packet"
)

// grants counts a spare-connection grant's uses (memory.WithSpareConnection).
type grants struct {
	deny          bool
	taken, given  atomic.Int64
	mu            sync.Mutex
	releasedTwice bool
}

func (g *grants) ctx(ctx context.Context) context.Context {
	return memory.WithSpareConnection(ctx, func() (func(), bool) {
		if g.deny {
			return nil, false
		}
		g.taken.Add(1)
		var once atomic.Bool
		return func() {
			if !once.CompareAndSwap(false, true) {
				g.mu.Lock()
				g.releasedTwice = true
				g.mu.Unlock()
			}
			g.given.Add(1)
		}, true
	})
}

// embedCurrent gives every active item with no embedding of its current revision by model one of
// dims dimensions from set (dims 1,536) or from a random source (any other size).
func embedCurrent(t *testing.T, pool *pgxpool.Pool, set *vectorSet, rng *rand.Rand, model string, dims int) {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `
		SELECT i.id::text, i.revision FROM memory_items i
		 WHERE i.status = 'active'
		   AND NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.item_id = i.id AND e.revision = i.revision AND e.model = $1)
		 ORDER BY i.id`, model)
	require.NoError(t, err)
	type ref struct {
		id       string
		revision int
	}
	refs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (r ref, err error) {
		return r, row.Scan(&r.id, &r.revision)
	})
	require.NoError(t, err)
	var b pgx.Batch
	for _, r := range refs {
		b.Queue(`INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, $2, $3, $4, $5::vector)`,
			r.id, r.revision, model, dims, vectorLiteral(vectorOf(set, rng, dims)))
	}
	require.NoError(t, pool.SendBatch(ctx, &b).Close())
	_, err = pool.Exec(ctx, `ANALYZE memory_embeddings, memory_sketches`)
	require.NoError(t, err)
}

// vectorOf is a vector of dims dimensions: set's for 1,536, uniform noise otherwise.
func vectorOf(set *vectorSet, rng *rand.Rand, dims int) []float32 {
	if dims == 1536 {
		return set.next()
	}
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// TestPreviewListsApartMatchOneStatement: a preview whose two lists are read apart, on two
// connections, and fused in Go (a spare connection granted) is the preview one statement gives —
// text, entries in order, revisions, places and distances in both lists, ranks, BM25 and fused
// scores, truncation — on a randomised corpus with embeddings, through writes of every kind
// between rounds, with pinned lessons filling packets, by each path of the vector list: the sketch
// scan, the HNSW index, and the sketch scan of another size. Each grant taken is given back once.
func TestPreviewListsApartMatchOneStatement(t *testing.T) {
	t.Parallel()
	f := setup(t)
	seed := *recallSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -recall-seed %d)", seed, seed)
	c := recallCorpus{rng: rand.New(rand.NewPCG(seed, 13))}
	set := newVectorSet(seed, 12)
	a, b := f.teammate(t, "A"), f.teammate(t, "B")
	scopes := []*string{nil, &a, &b}
	seedRecallCorpus(t, f, c, scopes, []int{60, 90, 50})
	type path struct {
		name  string
		model string
		dims  int
		limit int
	}
	paths := []path{{"sketch scan", vectorModel, 1536, memory.VectorSketchLimit}, {"index", vectorModel, 1536, -1}, {"other size", "small-64", 64, memory.VectorSketchLimit}}
	embedders := map[string]*fakeEmbedder{}
	services := map[string]*memory.Service{}
	for _, p := range paths {
		if embedders[p.model] == nil {
			embedders[p.model] = &fakeEmbedder{model: p.model}
		}
		services[p.name] = memory.NewService(f.pool, slog.New(slog.DiscardHandler),
			memory.WithSemanticRecall(embedders[p.model], 0.9), memory.WithVectorSketchLimit(p.limit))
	}
	var g grants
	both, vectorOnly, compared, full := 0, 0, 0, 0
	check := func() {
		for _, p := range paths {
			embedCurrent(t, f.pool, set, c.rng, p.model, p.dims)
		}
		for i := range 90 {
			p := paths[i%len(paths)]
			viewer, request := []string{a, b}[i/3%2], c.request()
			embedders[p.model].def = vectorOf(set, c.rng, p.dims)
			svc := services[p.name]
			one, err := svc.RecallPreview(worker, viewer, request)
			require.NoError(t, err)
			before := g.taken.Load()
			apart, err := svc.RecallPreview(g.ctx(worker), viewer, request)
			require.NoError(t, err)
			require.Equal(t, before+1, g.taken.Load(), "the grant was asked for")
			require.Equal(t, one, apart, "%s: request %q of %s", p.name, request, viewer)
			compared++
			if one.Vector.State != memory.VectorUsed {
				continue
			}
			if len(one.Entries) == packet.MaxEntries {
				full++
			}
			for _, e := range one.Entries {
				switch {
				case e.VectorPos != nil && e.FullTextPos != nil:
					both++
				case e.VectorPos != nil:
					vectorOnly++
				}
			}
		}
	}
	writes := map[string]int{}
	for round := range 3 {
		if round > 0 {
			writeRandomly(t, f, c, scopes, writes)
		}
		check()
	}
	for i := range packet.MaxEntries + 3 {
		_, err := f.svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &a}, Kind: memory.KindLesson,
			Content: fmt.Sprintf("Lesson %d: %s", i, c.sentence()), Pinned: true})
		require.NoError(t, err)
	}
	check()
	assert.Equal(t, g.taken.Load(), g.given.Load(), "every grant taken was given back")
	assert.False(t, g.releasedTwice, "no grant was given back twice")
	assert.Positive(t, both, "some entries were in both lists")
	assert.Positive(t, vectorOnly, "some entries came from the vector list alone")
	assert.Positive(t, full, "some packets were full")
	t.Logf("%d previews compared, %d full; entries in both lists %d, in the vector list alone %d; writes %v",
		compared, full, both, vectorOnly, writes)
}

// TestPreviewSpareConnectionGrant: a preview asks for a spare connection only when it has an
// embedder; without a grant, or when the grant is refused, it reads its lists by one statement;
// whatever becomes of the preview (an unknown teammate, a request with no words, a cancelled
// context, a user's preview with what it left out, which reads in one transaction) a grant taken
// is given back exactly once.
func TestPreviewSpareConnectionGrant(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 41, 40, 10, 10)
	vf.with(memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel, def: vf.set.next()}, 2))
	var g grants
	p, err := vf.svc.RecallPreview(g.ctx(worker), vf.teammate, "vector item")
	require.NoError(t, err)
	require.Equal(t, memory.VectorUsed, p.Vector.State)
	require.NotEmpty(t, p.Entries)
	require.EqualValues(t, 1, g.taken.Load())

	noWords, err := vf.svc.RecallPreview(g.ctx(worker), vf.teammate, "the of and")
	require.NoError(t, err)
	assert.Equal(t, memory.VectorReasonNoWords, noWords.Vector.Reason)

	_, err = vf.svc.RecallPreview(g.ctx(worker), "00000000-0000-0000-0000-0000000000aa", "vector item")
	require.ErrorIs(t, err, memory.ErrNotFound)

	cancelled, cancel := context.WithCancel(g.ctx(worker))
	cancel()
	_, err = vf.svc.RecallPreview(cancelled, vf.teammate, "vector item")
	require.ErrorIs(t, err, context.Canceled)

	taken := g.taken.Load()
	withLeftOut, err := vf.svc.RecallPreviewWithLeftOut(g.ctx(user), vf.teammate, "vector item")
	require.NoError(t, err)
	require.NotNil(t, withLeftOut.LeftOut)
	assert.Equal(t, taken, g.taken.Load(), "a preview with what it left out reads in one transaction")
	assert.Equal(t, p.Entries, withLeftOut.Entries)

	assert.Eventually(t, func() bool { return g.taken.Load() == g.given.Load() }, 5*time.Second, 10*time.Millisecond,
		"every grant taken was given back")
	assert.False(t, g.releasedTwice)

	refused := grants{deny: true}
	again, err := vf.svc.RecallPreview(refused.ctx(worker), vf.teammate, "vector item")
	require.NoError(t, err)
	assert.Equal(t, p, again, "refused, the preview is read by one statement")

	plain := setup(t)
	tm := plain.teammate(t, "Plain")
	plain.create(t, &tm, "Vector item without embeddings")
	var none grants
	_, err = plain.svc.RecallPreview(none.ctx(worker), tm, "vector item")
	require.NoError(t, err)
	assert.Zero(t, none.taken.Load(), "no embedder, no second connection")
}

// TestPreviewListsApartOnASmallPool: previews that always get their spare connection, many at
// once on a pool of two connections, all finish with the packet one statement gives: a preview
// never holds a connection while it waits for another.
func TestPreviewListsApartOnASmallPool(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 43, 300, 50, 50)
	cfg := vf.pool.Config()
	cfg.MaxConns = 2
	small, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(small.Close)
	svc := memory.NewService(small, slog.New(slog.DiscardHandler), memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel, def: vf.set.next()}, 2))
	want, err := svc.RecallPreview(worker, vf.teammate, "vector item")
	require.NoError(t, err)
	var g grants
	ctx, cancel := context.WithTimeout(g.ctx(worker), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			for range 10 {
				got, err := svc.RecallPreview(ctx, vf.teammate, "vector item")
				if err == nil && !assert.ObjectsAreEqual(want, got) {
					err = fmt.Errorf("a packet differs from the one statement's")
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.EqualValues(t, 160, g.taken.Load())
	assert.Equal(t, g.taken.Load(), g.given.Load())
}

// TestPreviewListsApartSeeChangesBetween: a change committed between the preview's full-text list
// and its vector list (the hook runs there). An item edited and embedded again in between is in
// both lists at two revisions: its entry is the later revision, with its places in both lists. An
// item forgotten in between is at most in the full-text list, with the content it had when that
// list was read — the preview as of a moment before the forget — and in no preview after.
func TestPreviewListsApartSeeChangesBetween(t *testing.T) {
	t.Parallel()
	vf := newVectorFixture(t, 47, 60, 0, 0)
	q := vf.set.next()
	svc := memory.NewService(vf.pool, slog.New(slog.DiscardHandler), memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel, def: q}, 2))
	item := vf.create(t, &vf.teammate, "Quince paste recipe from grandma")
	_, err := vf.pool.Exec(context.Background(), `INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, 1, $2, 1536, $3::vector)`,
		item.ID, vectorModel, vectorLiteral(q))
	require.NoError(t, err)
	var g grants
	entry := func(p memory.Packet) *memory.PacketEntry {
		for i, e := range p.Entries {
			if e.Item.ID == item.ID {
				return &p.Entries[i]
			}
		}
		return nil
	}

	svc.SetBetweenPreviewLists(func() {
		edited, err := svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: 1, Content: ptr("Quince paste recipe from grandpa")})
		require.NoError(t, err)
		_, err = vf.pool.Exec(context.Background(), `INSERT INTO memory_embeddings (item_id, revision, model, dimensions, embedding) VALUES ($1, $2, $3, 1536, $4::vector)`,
			item.ID, edited.Revision, vectorModel, vectorLiteral(q))
		require.NoError(t, err)
	})
	p, err := svc.RecallPreview(g.ctx(worker), vf.teammate, "quince paste")
	require.NoError(t, err)
	e := entry(p)
	require.NotNil(t, e, "the item is in the packet")
	assert.Equal(t, 2, e.Item.Revision, "the later revision")
	assert.Equal(t, "Quince paste recipe from grandpa", e.Item.Content)
	require.NotNil(t, e.FullTextPos, "its place in the full-text list, read before the edit")
	require.NotNil(t, e.VectorPos, "its place in the vector list, read after it")
	assert.Equal(t, 1, *e.VectorPos)
	assert.InDelta(t, 0, *e.VectorDistance, 1e-6)

	svc.SetBetweenPreviewLists(func() {
		_, err := svc.ForgetMemory(user, item.ID)
		require.NoError(t, err)
	})
	p, err = svc.RecallPreview(g.ctx(worker), vf.teammate, "quince paste")
	require.NoError(t, err)
	if e := entry(p); e != nil {
		assert.Nil(t, e.VectorPos, "the vector list, read after the forget, doesn't have it")
		assert.Equal(t, "Quince paste recipe from grandpa", e.Item.Content, "the content it had when the full-text list was read")
	}
	svc.SetBetweenPreviewLists(nil)
	p, err = svc.RecallPreview(g.ctx(worker), vf.teammate, "quince paste")
	require.NoError(t, err)
	assert.Nil(t, entry(p), "forgotten, it is in no later preview")
	assert.Equal(t, g.taken.Load(), g.given.Load())
}
