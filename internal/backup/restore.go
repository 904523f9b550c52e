package backup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/pgcluster"
)

// ErrNewerSchema: the backup was made by a newer api, with migrations this one doesn't have.
var ErrNewerSchema = errors.New("the backup's schema is newer than this api's")

// ErrKeyMismatch: the backup's tombstones were keyed with another key than this installation's.
var ErrKeyMismatch = errors.New("the backup was made with another tombstone key")

// RestoreOptions say where to restore.
type RestoreOptions struct {
	// Cluster is the embedded cluster, started, and Database the memory database in it. No API
	// may be serving it: the caller holds the data directory's lock.
	Cluster  *pgcluster.Cluster
	Database string
	// TombstoneKey is the installation's key; the backup must have been made with it.
	TombstoneKey []byte
	// Ledger is the forget ledger to apply again; nil when there is none.
	Ledger *Ledger
	Log    *slog.Logger
}

// RestoreReport is what Restore did.
type RestoreReport struct {
	Manifest Manifest
	// Migrated is the schema's version after the restore (Manifest.Migration before).
	Migrated uint
	// Synced is how many ledger entries of the replaced database reached the file first: those not
	// written yet, and any the file had lost.
	Synced int
	// LedgerMissing: there was no ledger file; only the current database's entries were known.
	LedgerMissing bool
	Replay        memory.ReplayReport
	Purge         memory.PurgeReport
}

// Restore replaces the memory database with the backup at path (RULES F8), in this order, so that
// nothing serves — or is left behind — in between:
//
//  1. the manifest is checked: a format this api reads, a schema no newer than its migrations, the
//     installation's tombstone key;
//  2. every ledger entry of the current database that the file lacks is written there — a forget
//     made just before the restore, or a file lost since — so that it is applied again too;
//  3. the dump is restored into a new database beside the current one, migrated to this api's
//     schema, and every ledger entry it doesn't hold — a forget made after the backup — is applied
//     again (memory.Background.Replay);
//  4. the new database takes the current one's name in one transaction, and the old one is dropped;
//  5. the purge rewrites the restored tables and retires the WAL (memory.Background.Purge): the dump
//     brought the texts forgotten since back into the files, and the replay only blanked them.
//
// A failure before step 4 leaves the current database as it was.
func Restore(ctx context.Context, path string, o RestoreOptions) (RestoreReport, error) {
	var r RestoreReport
	info, err := Read(path)
	if err != nil {
		return r, err
	}
	r.Manifest = info.Manifest
	latest, err := db.LatestVersion()
	if err != nil {
		return r, err
	}
	if info.Manifest.Migration > latest {
		return r, fmt.Errorf("%w: migration %d, this api knows %d; restore it with the api that made it", ErrNewerSchema, info.Manifest.Migration, latest)
	}
	if fp := memory.KeyFingerprint(o.TombstoneKey); info.Manifest.KeyFingerprint != fp {
		return r, fmt.Errorf("%w (fingerprint %.12s…, this installation's is %.12s…): put the original tombstone key back first (docs/OPERATIONS.md, Backups)",
			ErrKeyMismatch, info.Manifest.KeyFingerprint, fp)
	}
	admin, err := o.Cluster.Admin(ctx)
	if err != nil {
		return r, err
	}
	defer admin.Close(context.WithoutCancel(ctx))
	staging, previous := o.Database+"_restoring", o.Database+"_before_restore"
	// Left by a restore that stopped half-way: neither is the database the api serves.
	for _, name := range []string{staging, previous} {
		// sqlcheck:allow database DDL of names built here: sqlc compiles no CREATE/ALTER/DROP DATABASE
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			return r, fmt.Errorf("restore: %w", err)
		}
	}

	// 2. What the current database knows of forgets, into the file first.
	if o.Ledger != nil {
		if _, err := os.Stat(o.Ledger.Path()); errors.Is(err, os.ErrNotExist) {
			r.LedgerMissing = true
		}
		if r.Synced, err = syncCurrent(ctx, o.Cluster.URL(o.Database), o); err != nil {
			return r, err
		}
	}

	// 3. The dump, into a database of its own.
	tmp, err := os.MkdirTemp("", "memory-restore-*")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(tmp)
	dump := filepath.Join(tmp, dumpMember)
	if err := extractDump(path, dump); err != nil {
		return r, fmt.Errorf("restore: %s: %w", path, err)
	}
	// sqlcheck:allow database DDL of names built here: sqlc compiles no CREATE/ALTER/DROP DATABASE
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{staging}.Sanitize()); err != nil {
		return r, fmt.Errorf("restore: %w", err)
	}
	stagingURL := o.Cluster.URL(staging)
	if err := runPG(ctx, o.Cluster.Program("pg_restore"), stagingURL, "--exit-on-error", "--no-owner", "--no-privileges", dump); err != nil {
		return r, fmt.Errorf("restore: %w", err)
	}
	if v, _, err := db.Version(stagingURL); err != nil {
		return r, err
	} else if v != info.Manifest.Migration {
		return r, fmt.Errorf("restore: %s: its manifest says migration %d, its dump holds %d: %w", path, info.Manifest.Migration, v, ErrNotABackup)
	}
	if err := db.MigrateUp(stagingURL); err != nil {
		return r, fmt.Errorf("restore: migrate the backup from %d: %w", info.Manifest.Migration, err)
	}
	if r.Migrated, _, err = db.Version(stagingURL); err != nil {
		return r, err
	}
	if err := withService(ctx, stagingURL, o, func(svc *memory.Background) error {
		if o.Ledger == nil {
			return nil
		}
		r.Replay, err = o.Ledger.Replay(ctx, svc)
		return err
	}); err != nil {
		return r, fmt.Errorf("restore: %w", err)
	}

	// 4. The swap: both renames or neither. From here on an interrupt is not heeded: the swapped-in
	// database must be purged before anything serves it, and the command must say it was restored.
	ctx = context.WithoutCancel(ctx)
	err = pgx.BeginFunc(ctx, admin, func(tx pgx.Tx) error {
		// sqlcheck:allow database DDL of names built here: sqlc compiles no CREATE/ALTER/DROP DATABASE
		if _, err := tx.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{o.Database}.Sanitize()+" RENAME TO "+pgx.Identifier{previous}.Sanitize()); err != nil {
			return err
		}
		// sqlcheck:allow database DDL of names built here: sqlc compiles no CREATE/ALTER/DROP DATABASE
		_, err := tx.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{staging}.Sanitize()+" RENAME TO "+pgx.Identifier{o.Database}.Sanitize())
		return err
	})
	if err != nil {
		return r, fmt.Errorf("restore: put the restored database in place: %w", err)
	}
	// sqlcheck:allow database DDL of names built here: sqlc compiles no CREATE/ALTER/DROP DATABASE
	if _, err := admin.Exec(ctx, "DROP DATABASE "+pgx.Identifier{previous}.Sanitize()+" WITH (FORCE)"); err != nil {
		return r, fmt.Errorf("restore: drop the replaced database: %w", err)
	}

	// 5. The purge, on the database the api will serve.
	err = withService(ctx, o.Cluster.URL(o.Database), o, func(svc *memory.Background) error {
		r.Purge, err = svc.Purge(ctx)
		return err
	})
	if err != nil {
		return r, fmt.Errorf("restore: purge: %w", err)
	}
	return r, nil
}

// syncCurrent makes the ledger file hold every entry of the current database (Ledger.Sync), when it
// has a ledger at all (migration 18 on) under this installation's key.
func syncCurrent(ctx context.Context, url string, o RestoreOptions) (int, error) {
	version, _, err := db.Version(url)
	if err != nil || version < LedgerMigration {
		return 0, err
	}
	n := 0
	err = withService(ctx, url, o, func(svc *memory.Background) error {
		n, err = o.Ledger.Sync(ctx, svc)
		return err
	})
	if errors.Is(err, memory.ErrTombstoneKeyMismatch) {
		o.Log.Warn("the database being replaced was keyed with another tombstone key; its ledger is not copied")
		return 0, nil
	}
	return n, err
}

// LedgerMigration is the migration that added the forget ledger's table.
const LedgerMigration = 18

// withService runs fn with a Service on the database at url, keyed with the installation's key.
func withService(ctx context.Context, url string, o RestoreOptions, fn func(*memory.Background) error) error {
	pool, err := db.Open(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	svc := memory.NewService(pool, o.Log).Background()
	if err := svc.RehashTexts(ctx); err != nil {
		return err
	}
	if err := svc.UseTombstoneKey(ctx, o.TombstoneKey); err != nil {
		return err
	}
	return fn(svc)
}
