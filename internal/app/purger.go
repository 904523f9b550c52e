package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/metrics"
)

// purgeRetry is how long a purge that failed (a table lock not granted within its timeout, say)
// waits before it is tried again.
const purgeRetry = 30 * time.Second

// runPurger purges forgotten text from the embedded cluster's files (F5, F7,
// memory.Background.Purge): once at start when a forget or a teammate's deletion happened after the
// last purge (the process may have stopped before purging), and then delay after each burst of
// them — a forget or deletion event, from any process, restarts the wait, but never past 10 × delay
// after the first. Each purge is counted in m. A deletion needs its own event: it may forget nothing (a teammate with
// conversations only) and leaves no forgotten item behind (the rows go with the teammate). It runs
// until ctx ends.
func runPurger(ctx context.Context, svc *memory.Service, broker *events.Broker, delay time.Duration, log *slog.Logger, m *metrics.Metrics) {
	isForget := func(e memory.Event) bool {
		return e.Action == string(memory.ActionForget) || e.Teammate == memory.TeammateDeleted
	}
	sub := broker.Subscribe(isForget)
	defer func() { sub.Close() }()
	var (
		timer   = time.NewTimer(0) // at start: look whether a purge is due
		firstAt time.Time          // the first forget of the burst being waited on
	)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sub.C:
			if !ok { // fell behind: resubscribe, and treat it as a forget
				sub = broker.Subscribe(isForget)
			}
			now := time.Now()
			if firstAt.IsZero() {
				firstAt = now
			}
			timer.Reset(min(delay, max(0, firstAt.Add(10*delay).Sub(now))))
		case <-timer.C:
			firstAt = time.Time{}
			due, err := svc.Background().PurgeDue(ctx)
			if err == nil && due {
				start := time.Now()
				_, err = svc.Background().Purge(ctx)
				if ctx.Err() == nil {
					m.PurgeCompleted(time.Since(start), err)
				}
			}
			if err != nil && ctx.Err() == nil {
				log.Warn("purge of forgotten text failed; retrying", "err", err, "in", purgeRetry)
				timer.Reset(purgeRetry)
			}
		}
	}
}
