package jobs_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/jobs"
)

// fill inserts n pending embed jobs in one statement (no per-row NOTIFY: that isn't what's measured).
func fill(b *testing.B, pool *pgxpool.Pool, item string, n int) {
	b.Helper()
	_, err := pool.Exec(context.Background(), `
		INSERT INTO memory_jobs (kind, item_id, revision, run_after)
		SELECT 'embed', $1, 1, now() - interval '1 second' FROM generate_series(1, $2)`, item, n)
	require.NoError(b, err)
}

func benchItem(b *testing.B, pool *pgxpool.Pool) string {
	b.Helper()
	var id string
	require.NoError(b, pool.QueryRow(context.Background(), `
		INSERT INTO memory_items (kind, content, status, source) VALUES ('fact', 'x', 'active', 'user')
		RETURNING id::text`).Scan(&id))
	return id
}

// BenchmarkClaimComplete measures the runner's claim + no-op handler + complete per job, at batch
// sizes 1, 10 and 100. One op is one job.
func BenchmarkClaimComplete(b *testing.B) {
	for _, batch := range []int{1, 10, 100} {
		b.Run("batch="+strconv.Itoa(batch), func(b *testing.B) {
			pool := dbtest.Pool(b)
			fill(b, pool, benchItem(b, pool), b.N)
			r := jobs.NewRunner(pool, jobs.Options{Workers: batch, BatchSize: batch, Log: quiet})
			r.Handle(embed, func(context.Context, jobs.Job) error { return nil })
			b.ResetTimer()
			for done := 0; done < b.N; {
				n, err := r.RunOnce(context.Background())
				require.NoError(b, err)
				require.NotZero(b, n)
				done += n
			}
		})
	}
}

// BenchmarkBareSkipLocked is the floor to compare with: one statement claims a batch with SKIP
// LOCKED, one marks it done, nothing else.
func BenchmarkBareSkipLocked(b *testing.B) {
	for _, batch := range []int{1, 10, 100} {
		b.Run("batch="+strconv.Itoa(batch), func(b *testing.B) {
			pool := dbtest.Pool(b)
			fill(b, pool, benchItem(b, pool), b.N)
			ctx := context.Background()
			b.ResetTimer()
			for done := 0; done < b.N; {
				rows, err := pool.Query(ctx, `
					UPDATE memory_jobs SET status = 'running', lease_until = now() + interval '1 minute'
					 WHERE id IN (SELECT id FROM memory_jobs WHERE status = 'pending' ORDER BY run_after, id
					               LIMIT $1 FOR UPDATE SKIP LOCKED)
					RETURNING id`, batch)
				require.NoError(b, err)
				ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
				require.NoError(b, err)
				require.NotEmpty(b, ids)
				_, err = pool.Exec(ctx, `UPDATE memory_jobs SET status = 'done', lease_until = NULL WHERE id = ANY($1)`, ids)
				require.NoError(b, err)
				done += len(ids)
			}
		})
	}
}

// BenchmarkClaimCompleteBatchHandler is BenchmarkClaimComplete with a batch handler: one call and one
// completing statement per claimed batch.
func BenchmarkClaimCompleteBatchHandler(b *testing.B) {
	for _, batch := range []int{1, 10, 100} {
		b.Run("batch="+strconv.Itoa(batch), func(b *testing.B) {
			pool := dbtest.Pool(b)
			fill(b, pool, benchItem(b, pool), b.N)
			r := jobs.NewRunner(pool, jobs.Options{Workers: batch, BatchSize: batch, Log: quiet})
			r.HandleBatch(embed, func(_ context.Context, js []jobs.Job) []error { return make([]error, len(js)) })
			b.ResetTimer()
			for done := 0; done < b.N; {
				n, err := r.RunOnce(context.Background())
				require.NoError(b, err)
				require.NotZero(b, n)
				done += n
			}
		})
	}
}
