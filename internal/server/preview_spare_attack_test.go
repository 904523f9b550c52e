package server_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/dbtest"
)

// TestPreviewSpareAttackHeavySlots attacks rule 6 through the real API: heavy work (recallPreview,
// which may take a spare connection) never holds more than half the API's pool. On a pool of 4
// (2 heavy slots), with embeddings on, the test locks the tables recall reads (memory_terms and
// memory_embeddings) from a connection of its own, so that every recall statement that starts waits
// on the lock while holding its pool connection; then it floods recallPreview. While the lock is
// held: at most 2 of the API's connections may be waiting on it (pg_stat_activity), and a small
// query that uses the pool (a teammate by id) must answer within a second. Once the lock goes, every
// preview answers, with its vector search used.
func TestPreviewSpareAttackHeavySlots(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	fake := fakeEmbeddingsAfter(t, &requests, 5*time.Millisecond)
	url := dbtest.URL(t)
	api := apitest.StartWith(t, url, settings, func(o *app.Options) {
		o.AI = config.AI{
			EmbeddingURL: fake.URL + "/v1", EmbeddingModel: "fake-16", EmbeddingDimensions: 16, APIKey: "test-key",
			DailyRequestLimit: 10000, SemanticMaxDistance: 0.9,
		}
		o.DBMaxConns = 4
	})
	w := world{api: api, t: t}
	tm := w.teammate("Rowan")
	for i := range 8 {
		w.createMemory(&tm, fmt.Sprintf("Rowan sails a dinghy on lake %d", i))
	}
	// Without the lock, a preview uses the vector list.
	var warm struct{ RecallPreview struct{ VectorSearch string } }
	w.api.Must(t, user, `query($t: ID!) { recallPreview(teammateId: $t, query: "dinghy lake") { vectorSearch } }`, map[string]any{"t": tm}, &warm)
	require.Equal(t, "USED", warm.RecallPreview.VectorSearch)

	ctx := t.Context()
	admin, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { admin.Close(context.Background()) })
	var database string
	require.NoError(t, admin.QueryRow(ctx, `SELECT current_database()`).Scan(&database))
	watcher, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { watcher.Close(context.Background()) })

	lock, err := admin.Begin(ctx)
	require.NoError(t, err)
	_, err = lock.Exec(ctx, `LOCK TABLE memory_terms, memory_embeddings IN ACCESS EXCLUSIVE MODE`)
	require.NoError(t, err)
	locked := true
	defer func() {
		if locked {
			_ = lock.Rollback(context.Background())
		}
	}()

	const flood = 12
	gql := apitest.NewClient(api.URL, flood+4)
	callCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	errs := make(chan error, flood)
	var wg sync.WaitGroup
	for i := range flood {
		wg.Go(func() {
			var out struct{ RecallPreview struct{ VectorSearch string } }
			err := gql.Call(callCtx, user, `query($t: ID!, $q: String!) { recallPreview(teammateId: $t, query: $q) { vectorSearch } }`,
				map[string]any{"t": tm, "q": fmt.Sprintf("dinghy lake %d", i)}, &out)
			if err == nil && out.RecallPreview.VectorSearch != "USED" {
				err = fmt.Errorf("recallPreview %d: vector search %s", i, out.RecallPreview.VectorSearch)
			}
			errs <- err
		})
	}

	// Watch for 1.5 s: how many of the API's connections wait on the lock, and whether a small
	// query still answers.
	maxWaiting := 0
	var slowSmall []string
	deadline := time.Now().Add(1500 * time.Millisecond)
	for time.Now().Before(deadline) {
		var waiting int
		require.NoError(t, watcher.QueryRow(ctx, `
			SELECT count(*) FROM pg_stat_activity
			 WHERE datname = $1 AND pid <> $2 AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
			database, admin.PgConn().PID()).Scan(&waiting))
		maxWaiting = max(maxWaiting, waiting)

		small, cancelSmall := context.WithTimeout(ctx, time.Second)
		began := time.Now()
		var out struct{ Teammate struct{ Name string } }
		err := gql.Call(small, worker, `query($id: ID!) { teammate(id: $id) { name } }`, map[string]any{"id": tm}, &out)
		cancelSmall()
		if err != nil || out.Teammate.Name != "Rowan" {
			slowSmall = append(slowSmall, fmt.Sprintf("after %v: %v", time.Since(began).Round(time.Millisecond), err))
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.NoError(t, lock.Rollback(ctx))
	locked = false
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err, "a recallPreview after the lock went")
	}
	t.Logf("at most %d of the API's connections waited on recall's tables at once; %d slow small queries", maxWaiting, len(slowSmall))
	assert.Positive(t, maxWaiting, "no recall statement waited on the lock: the attack did not bite")
	assert.LessOrEqual(t, maxWaiting, 2, "heavy work held more than half of a pool of 4")
	assert.Empty(t, slowSmall, "a teammate by id did not answer within 1 s while recallPreview was flooded")
}
