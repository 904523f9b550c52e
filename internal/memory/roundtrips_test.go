package memory_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

// roundTrips counts the round trips a pool's connections make to the server: each statement sent
// on its own (BEGIN and COMMIT included) and each batch (however many statements it holds).
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (*roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (*roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (*roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// count returns how many round trips f makes.
func (r *roundTrips) count(f func()) int64 {
	before := r.n.Load()
	f()
	return r.n.Load() - before
}

// countedPool is a pool of one connection by cfg whose round trips are counted.
func countedPool(t *testing.T, cfg *pgxpool.Config) (*pgxpool.Pool, *roundTrips) {
	t.Helper()
	cfg.MaxConns = 1
	trips := &roundTrips{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool, trips
}

// An edit is three round trips, one fewer than the floor's shape: BEGIN travelling with the one that
// locks (the scope, then the item), one that writes everything (revision, item, generation, lesson
// projection, NOTIFY, the embed job, the check for proposals it applies), COMMIT — with embeddings
// off and on (writes near their floor, docs/WRITES.md). An edit that conflicts (R2) is two: BEGIN
// with the locks, ROLLBACK. Counted on one warmed-up connection, so statement preparation doesn't
// count.
func TestEditRoundTrips(t *testing.T) {
	t.Parallel()
	cfg, err := pgxpool.ParseConfig(dbtest.URL(t))
	require.NoError(t, err)
	pool, trips := countedPool(t, cfg)

	for _, embeddings := range []bool{false, true} {
		var opts []memory.Option
		name := "Ada"
		if embeddings {
			name = "Ada, with embeddings"
			opts = append(opts, memory.WithEmbeddings("test-model", 3))
		}
		svc := memory.NewService(pool, slog.New(slog.DiscardHandler), opts...)
		tm, err := svc.CreateTeammate(user, name)
		require.NoError(t, err)
		item, err := svc.CreateMemory(user, memory.CreateInput{Scope: memory.Scope{TeammateID: &tm.ID}, Content: "Likes tea"})
		require.NoError(t, err)
		edit := func(content string) {
			out, err := svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: item.Revision, Content: &content})
			require.NoError(t, err)
			item = out
		}
		edit("Likes green tea") // warms the connection's statement cache
		assert.EqualValues(t, 3, trips.count(func() { edit("Likes oolong tea") }), "embeddings %v", embeddings)
		stale := "Likes black tea"
		assert.EqualValues(t, 2, trips.count(func() {
			_, err := svc.EditMemory(user, memory.EditInput{ID: item.ID, BaseRevision: item.Revision - 1, Content: &stale})
			var conflict *memory.ConflictError
			require.ErrorAs(t, err, &conflict)
			assert.Equal(t, item.Revision, conflict.Current)
		}), "embeddings %v", embeddings)
	}
}

// TestRecallPreviewRoundTrips: a preview is one round trip (the prepare and the lists' statement in
// one batch, the statement choosing the vector list's path itself), after the count of the
// request's words when an embedder is set, whatever the request's size; the user's preview with
// what it left out keeps its read-only transaction. Every packet is the one StartRun's path
// (BuildPacketTx inside a transaction) builds.
func TestRecallPreviewRoundTrips(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ada")
	for i := range 40 {
		f.create(t, &tm, fmt.Sprintf("Ada takes ferry number %d to the island on Fridays", i))
	}
	small := make([][]float32, 30)
	for i := range small {
		small[i] = []float32{float32(i + 1), 1, float32(i % 3), 2, 0, 1, float32(i % 5), 3}
	}
	embeddedItemsBy(t, f, &tm, "small-model", small)
	set := newVectorSet(3, 10)
	large := make([][]float32, 30)
	for i := range large {
		large[i] = set.next()
	}
	embeddedItems(t, f, &tm, large)

	pool, trips := countedPool(t, f.pool.Config())

	const request = "which ferry on Fridays?"
	for _, c := range []struct {
		name     string
		opts     []memory.Option
		leftOut  bool
		trips    int64
		vectored bool
	}{
		{name: "full text", trips: 1},
		{name: "full text, with what it left out", leftOut: true, trips: 4},
		{name: "8 dimensions", opts: []memory.Option{memory.WithSemanticRecall(&fakeEmbedder{model: "small-model", def: small[4]}, 2)}, trips: 2, vectored: true},
		{name: "1,536 dimensions", opts: []memory.Option{memory.WithSemanticRecall(&fakeEmbedder{model: vectorModel, def: set.next()}, 2)}, trips: 2, vectored: true},
	} {
		svc := memory.NewService(pool, slog.New(slog.DiscardHandler), c.opts...)
		preview := func() memory.Packet {
			p, err := svc.RecallPreview(worker, tm, request)
			if c.leftOut {
				p, err = svc.RecallPreviewWithLeftOut(user, tm, request)
			}
			require.NoError(t, err, c.name)
			return p
		}
		preview() // warms the connection's statement cache
		var got memory.Packet
		assert.Equal(t, c.trips, trips.count(func() { got = preview() }), c.name)
		want := buildPacketWith(t, svc, f.pool, tm, request)
		assert.Equal(t, want.Text, got.Text, c.name)
		assert.Equal(t, packetIDs(want), packetIDs(got), c.name)
		assert.Equal(t, c.vectored, got.Vector.State == memory.VectorUsed, c.name)
		assert.NotEmpty(t, got.Entries, c.name)
	}
}

// TestRecallPlansAreGeneric: after recall's prepare, the rest of the transaction uses generic plans
// (qRecallPrepare: planning recall's statements for the request's values costs more than running
// them), and the setting ends with the transaction.
func TestRecallPlansAreGeneric(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tm := f.teammate(t, "Ada")
	f.create(t, &tm, "Ada takes the ferry on Fridays")
	ctx := context.Background()
	conn, err := f.pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	mode := func(q pgx.Tx) (m string) {
		var err error
		if q == nil {
			err = conn.QueryRow(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&m)
		} else {
			err = q.QueryRow(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&m)
		}
		require.NoError(t, err)
		return m
	}
	require.Equal(t, "auto", mode(nil))
	q, err := memory.PrepareRecall(ctx, f.svc, tm, "ferry")
	require.NoError(t, err)
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		p, err := memory.BuildPacketTx(ctx, f.svc, tx, tm, q)
		require.NoError(t, err)
		assert.Len(t, p.Entries, 1)
		assert.Equal(t, "force_generic_plan", mode(tx))
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, "auto", mode(nil))
}
