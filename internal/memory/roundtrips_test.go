package memory_test

import (
	"context"
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

// An edit is the floor's shape — BEGIN, one round trip that locks (the scope, then the item), one
// that writes everything (revision, item, generation, lesson projection, NOTIFY, the embed job, the
// check for proposals it applies), COMMIT — with embeddings off and on (writes near their floor,
// docs/WRITES.md). Counted on one warmed-up connection, so statement preparation doesn't count.
func TestEditRoundTrips(t *testing.T) {
	t.Parallel()
	cfg, err := pgxpool.ParseConfig(dbtest.URL(t))
	require.NoError(t, err)
	cfg.MaxConns = 1
	trips := &roundTrips{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)

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
		assert.EqualValues(t, 4, trips.count(func() { edit("Likes oolong tea") }), "embeddings %v", embeddings)
	}
}
