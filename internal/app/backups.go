package app

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/backup"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/metrics"
)

// Backups are the API's part in RULES F8: the forget ledger and the backup schedule.
type Backups struct {
	// Dir holds the backups and the forget ledger; empty: neither (a DATABASE_URL without
	// MEMORY_BACKUP_DIR).
	Dir string
	// Interval is the schedule (0: none); Keep is how many scheduled backups stay.
	Interval time.Duration
	Keep     int
	// Source is the database to back up.
	Source backup.Source
}

// ledgerPoll is how often the ledger writer looks for entries besides the forget events that wake
// it: an event can be lost when the listener reconnects.
const ledgerPoll = 30 * time.Second

// runLedger copies the forget ledger's new entries to its file (backup.Ledger.Flush) when a forget
// or a deletion is announced by any process, every ledgerPoll, and once more when ctx ends.
func runLedger(ctx context.Context, svc *memory.Service, broker *events.Broker, ledger *backup.Ledger, log *slog.Logger) {
	isForget := func(e memory.Event) bool {
		return e.Action == string(memory.ActionForget) || e.Teammate == memory.TeammateDeleted
	}
	sub := broker.Subscribe(isForget)
	defer func() { sub.Close() }()
	tick := time.NewTicker(ledgerPoll)
	defer tick.Stop()
	flush := func(ctx context.Context) {
		if _, err := ledger.Flush(ctx, svc.Background()); err != nil && ctx.Err() == nil {
			log.Warn("forget ledger: entries not copied to its file yet; retrying", "err", err, "file", ledger.Path())
		}
	}
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			flush(final)
			cancel()
			return
		case _, ok := <-sub.C:
			if !ok {
				sub = broker.Subscribe(isForget)
			}
		case <-tick.C:
		}
		flush(ctx)
	}
}

// runBackups takes a backup every b.Interval — at once when the newest one is older — and keeps the
// newest b.Keep, until ctx ends. A failed backup is logged and tried again after a minute.
func runBackups(ctx context.Context, b Backups, fingerprint string, log *slog.Logger, m *metrics.Metrics) {
	next := time.Now()
	if all, err := backup.List(b.Dir); err == nil && len(all) > 0 {
		next = all[0].Manifest.CreatedAt.Add(b.Interval)
	}
	timer := time.NewTimer(time.Until(next))
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		start := time.Now()
		info, err := backup.Create(ctx, b.Source, backup.NamedIn(b.Dir, start), fingerprint)
		if ctx.Err() == nil {
			m.BackupCompleted(info.Bytes, time.Since(start), err)
		}
		if err != nil {
			if ctx.Err() == nil {
				log.Error("scheduled backup failed; retrying in a minute", "err", err)
				timer.Reset(time.Minute)
			}
			continue
		}
		removed, err := backup.Prune(b.Dir, b.Keep)
		if err != nil {
			log.Warn("old backups not removed", "err", err)
		}
		log.Info("backup written", "file", info.Path, "bytes", info.Bytes, "took", time.Since(start).Round(time.Millisecond),
			"removed", len(removed))
		timer.Reset(b.Interval)
	}
}

// status answers the backups query from the files in b.Dir (backup.List, which reads only their
// manifests); nil when no directory is configured, which the query reports as off. It names the
// files by their base names only: the directory's path is the operator's, not the web app's.
func (b Backups) status() func(context.Context) (model.BackupStatus, error) {
	if b.Dir == "" {
		return nil
	}
	return func(context.Context) (model.BackupStatus, error) {
		all, err := backup.List(b.Dir)
		if err != nil {
			return model.BackupStatus{}, err
		}
		out := model.BackupStatus{Enabled: true, Keep: b.Keep, Count: len(all)}
		if b.Interval > 0 {
			seconds := int(b.Interval / time.Second)
			out.IntervalSeconds = &seconds
		}
		for _, info := range all {
			out.TotalBytes += float64(info.Bytes)
		}
		if len(all) > 0 {
			newest := all[0]
			out.Last = &model.Backup{Name: filepath.Base(newest.Path), CreatedAt: newest.Manifest.CreatedAt,
				Bytes: float64(newest.Bytes), Migration: int(newest.Manifest.Migration)}
		}
		return out, nil
	}
}
