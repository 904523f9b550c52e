package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/open-bot/memory/internal/backup"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/pgcluster"
)

// backupCommand is `api backup [-o FILE]`: a backup of the memory database, to FILE or to a new
// file in MEMORY_BACKUP_DIR. It works while an API serves the database (pg_dump reads one snapshot).
func backupCommand(ctx context.Context, cfg config.Config, databaseURL string, pgDump func() (string, error), args []string) error {
	path := ""
	if len(args) == 2 {
		path = args[1]
	}
	if path == "" {
		if cfg.BackupDir == "" {
			return errors.New("api backup: give -o FILE, or set MEMORY_BACKUP_DIR")
		}
		path = backup.NamedIn(cfg.BackupDir, time.Now())
	}
	program, err := pgDump()
	if err != nil {
		return err
	}
	start := time.Now()
	info, err := backup.Create(ctx, backup.Source{DatabaseURL: databaseURL, PGDump: program}, path,
		memory.KeyFingerprint([]byte(cfg.TombstoneKey)))
	if err != nil {
		return err
	}
	fmt.Printf("backup written: %s (%d bytes, migration %d, in %s)\n", info.Path, info.Bytes, info.Manifest.Migration,
		time.Since(start).Round(time.Millisecond))
	fmt.Println("It holds every memory text as it is now: keep it as safe as the data directory. Restoring it needs the tombstone key, kept apart (docs/OPERATIONS.md, Backups).")
	return nil
}

// restoreCommand is `api restore FILE` on the embedded cluster, with no API serving it (the caller
// holds the data directory's lock): backup.Restore, with the installation's forget ledger.
func restoreCommand(ctx context.Context, cfg config.Config, cluster *pgcluster.Cluster, path string, log *slog.Logger) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("api restore: %w", err)
	}
	o := backup.RestoreOptions{Cluster: cluster, Database: "memory", TombstoneKey: []byte(cfg.TombstoneKey), Log: log}
	if cfg.BackupDir != "" {
		o.Ledger = backup.OpenLedger(cfg.BackupDir)
	}
	r, err := backup.Restore(ctx, path, o)
	if err != nil {
		return err
	}
	fmt.Printf("restored %s: the memory of %s (migration %d, now %d)\n", path,
		r.Manifest.CreatedAt.Local().Format(time.RFC1123), r.Manifest.Migration, r.Migrated)
	if r.LedgerMissing {
		fmt.Printf("warning: there was no forget ledger in %s; it was rebuilt from the replaced database (%d entries), and forgets it never held can't be applied again\n",
			cfg.BackupDir, r.Synced)
	}
	fmt.Printf("forgotten since, applied again from the ledger: %d items forgotten, %d teammates deleted, %d tombstones (%d entries)\n",
		r.Replay.Forgotten, r.Replay.Deleted, r.Replay.Tombstones, r.Replay.Entries)
	fmt.Printf("the data files were purged in %s; start the API to serve it\n", r.Purge.Total().Round(time.Millisecond))
	return nil
}
