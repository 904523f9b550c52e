package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
)

// benchJobs is row 6: the runner's claim + no-op handler + complete throughput with its default
// settings (10 jobs in flight, claimed 10 at a time), against the bare SKIP LOCKED loop claiming
// batches of the same size with one statement and completing them with another.
func (b *bench) benchJobs(ctx context.Context) ([]row, error) {
	const n = 20_000
	item := b.hot[1]
	fill := func() error {
		_, err := b.pool.Exec(ctx, `
			INSERT INTO memory_jobs (kind, item_id, revision, run_after)
			SELECT 'embed', $1, 1, now() - interval '1 second' FROM generate_series(1, $2::int)`, item, n)
		if err == nil {
			_, err = b.pool.Exec(ctx, `ANALYZE memory_jobs`)
		}
		return err
	}
	pending := func() (int, error) {
		var left int
		err := b.pool.QueryRow(ctx, `SELECT count(*) FROM memory_jobs WHERE status IN ('pending', 'running')`).Scan(&left)
		return left, err
	}

	if err := fill(); err != nil {
		return nil, err
	}
	r := jobs.NewRunner(b.pool, jobs.Options{Log: slog.New(slog.DiscardHandler)})
	r.Handle(memory.JobEmbed, func(context.Context, jobs.Job) error { return nil })
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- r.Run(runCtx) }()
	for {
		left, err := pending()
		if err != nil {
			stop()
			return nil, err
		}
		if left == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	runner := float64(n) / time.Since(start).Seconds()
	stop()
	if err := <-done; err != nil {
		return nil, err
	}

	if err := fill(); err != nil {
		return nil, err
	}
	const batch = jobs.DefaultWorkers
	start = time.Now()
	for finished := 0; finished < n; {
		rows, err := b.pool.Query(ctx, `
			UPDATE memory_jobs SET status = 'running', attempts = attempts + 1, lease_until = now() + interval '1 minute'
			 WHERE id IN (SELECT id FROM memory_jobs WHERE status = 'pending' ORDER BY run_after, id
			               LIMIT $1 FOR UPDATE SKIP LOCKED)
			RETURNING id`, batch)
		if err != nil {
			return nil, err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("the floor ran out of jobs after %d", finished)
		}
		if _, err := b.pool.Exec(ctx, `UPDATE memory_jobs SET status = 'done', lease_until = NULL WHERE id = ANY($1)`, ids); err != nil {
			return nil, err
		}
		finished += len(ids)
	}
	floor := float64(n) / time.Since(start).Seconds()
	return []row{{
		name:     fmt.Sprintf("Jobs: claim + no-op handler + complete, %s jobs, runner defaults", count(n)),
		measured: fmt.Sprintf("%.0f jobs/s", runner),
		floor:    fmt.Sprintf("%.0f jobs/s (batches of %d)", floor, batch),
		ratio:    ratio(runner, floor),
		target:   "≥ 50% of the floor",
		met:      yesNo(runner >= floor/2),
	}}, nil
}
