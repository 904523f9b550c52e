package memory

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Physical erasure (F5). A forget blanks the text in one transaction, but
// PostgreSQL keeps the old row versions in the tables' files until their space is reused — plain
// VACUUM marks the space free without overwriting it — and every change in the write-ahead log
// until the segment is removed. Where the service owns the cluster (the embedded default), a purge
// after forgets rewrites what held text and retires the WAL that recorded it:
//
//  1. VACUUM FULL of the tables that held memory text (memory_items with its TOAST table and its
//     indexes, memory_terms with the lexemes of its search vectors,
//     memory_revisions, memory_embeddings, lessons, settings) or a plain hash of it
//     (memory_tombstones and memory_imports: rows written before keys held a SHA-256 a short text
//     can be recovered from until UseTombstoneKey wrapped them, and the old row versions keep it):
//     each is copied to new files without the dead rows, and the old files are truncated at commit.
//     After a teammate's deletion (F7) the conversation's tables too: messages, with its TOAST
//     table and its search index (messages_search, the lexemes of every message), and teammates
//     (the name) — a forget keeps the conversation (F6), so only a deletion leaves dead rows there;
//  2. the same tables' rows of pg_statistic deleted, ANALYZE of the tables, then VACUUM FULL of
//     pg_statistic: the planner's samples of a column (most common values, histogram bounds,
//     frequent lexemes) may hold forgotten text. ANALYZE alone replaces a table's samples only
//     when it finds rows: a table the deletion or the forgets left empty (messages, teammates,
//     lessons) would keep its old samples, texts and all;
//  3. pg_switch_wal() and CHECKPOINT: the redo point moves past every segment written before, and
//     the checkpoint removes them (the embedded cluster runs with wal_recycle=off, so they are
//     unlinked rather than renamed for reuse with their old contents).
//
// It takes each table's ACCESS EXCLUSIVE lock in turn, so reads and writes of that table wait for
// its rewrite (docs/FORGETTING.md, the data files, for the measured cost). It never runs against a
// database the service doesn't own: a DATABASE_URL server's WAL, archives, backups and replicas are
// the operator's.

// PurgeChannel is NOTIFYed (empty payload) after each purge, for whoever waits on one.
const PurgeChannel = "memory_purges"

// DefaultPurgeDelay is how long after a forget the purge starts, so that a burst of forgets is
// purged once.
const DefaultPurgeDelay = 2 * time.Second

// purgeLockTimeout bounds the wait for a table lock: a long transaction then postpones the purge
// rather than block every request queued behind the purge's lock request.
const purgeLockTimeout = "5s"

// purgedTables held memory text, a plain hash of it, its lexemes (memory_term_df), or its embedding
// (memory_sketches: one bit of each of its coordinates); each is rewritten by the purge.
// docs/FORGETTING.md gives the same list to the operator of a DATABASE_URL server.
var purgedTables = []string{"memory_items", "memory_terms", "memory_term_df", "memory_revisions",
	"memory_embeddings", "memory_sketches", "memory_tombstones", "memory_imports", "lessons", "settings"}

// deletionTables held a deleted teammate's conversations and name (F7); the purge rewrites them too
// when a teammate was deleted since the last one (PurgeDeletionDue). Its threads, runs, contexts
// and jobs hold ids, times and counters only.
var deletionTables = []string{"messages", "teammates"}

// PurgeDelay is the delay set by WithPurge; false when this Service doesn't purge (DATABASE_URL).
func (s *Service) PurgeDelay() (time.Duration, bool) { return s.purgeDelay, s.purgeDelay > 0 }

// PurgeDue reports whether an item was forgotten, or a teammate deleted, after the last purge.
func (s *Background) PurgeDue(ctx context.Context) (bool, error) {
	return queries(s.pool).PurgeDue(ctx)
}

// PurgeReport is what one purge did, for the log and the benchmark.
type PurgeReport struct {
	// Tables is the time spent rewriting the tables (step 1), Statistics step 2, WAL step 3.
	Tables, Statistics, WAL time.Duration
}

// Total is the purge's whole duration.
func (r PurgeReport) Total() time.Duration { return r.Tables + r.Statistics + r.WAL }

// Purge rewrites the data files so that no forgotten text is left in them (see above). It needs a
// superuser connection (CHECKPOINT, pg_switch_wal, pg_statistic), which the embedded cluster's is.
// Everything forgotten or deleted before it started is covered; a forget or a deletion committed
// while it runs is left for the next purge (PurgeDue).
func (s *Background) Purge(ctx context.Context) (PurgeReport, error) {
	var r PurgeReport
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return r, err
	}
	// The session's settings must not outlive this purge in the pool: RESET returns them to the
	// connection's defaults (the pool's statement_timeout among them).
	defer conn.Release()
	// sqlcheck:allow session settings and the maintenance commands below aren't queries: sqlc doesn't compile them
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `RESET lock_timeout; RESET statement_timeout`) }()
	// What this purge covers: forgets whose transaction started before the oldest transaction still
	// running now. A forget's forgotten_at is its transaction's start; one running now may write its
	// dead row versions after the rewrite of its table, so it is left for the next purge.
	q := queries(conn)
	started, err := q.PurgeHorizon(ctx)
	if err != nil {
		return r, err
	}
	// A rewrite takes as long as the table's size needs (seconds at 100,000 items): the pool's
	// statement_timeout, meant for requests, would cut it off and waste the work.
	// sqlcheck:allow a session setting
	if _, err := conn.Exec(ctx, `SET lock_timeout = '`+purgeLockTimeout+`'`); err != nil {
		return r, err
	}
	// sqlcheck:allow a session setting
	if _, err := conn.Exec(ctx, `SET statement_timeout = 0`); err != nil {
		return r, err
	}
	// Read after the horizon: a deletion committed before this read is rewritten now, and one still
	// running at the horizon stays due for the next purge as well.
	list := purgedTables
	deleted, err := q.PurgeDeletionDue(ctx)
	if err != nil {
		return r, err
	}
	if deleted {
		list = append(slices.Clip(list), deletionTables...)
	}
	tables, names := "", ""
	for i, t := range list {
		if i > 0 {
			tables, names = tables+", ", names+","
		}
		tables += pgx.Identifier{t}.Sanitize()
		names += t // lower-case letters and underscores: a literal as it is
	}
	step := func(d *time.Duration, stmts ...string) error {
		t0 := time.Now()
		for _, stmt := range stmts {
			if _, err := conn.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("purge: %s: %w", stmt, err)
			}
		}
		*d = time.Since(t0)
		return nil
	}
	// sqlcheck:allow maintenance commands of a table list built above
	if err := step(&r.Tables, `VACUUM (FULL) `+tables); err != nil {
		return r, err
	}
	// sqlcheck:allow the samples of the tables listed above, in a system catalog sqlc doesn't know
	samples := `DELETE FROM pg_catalog.pg_statistic WHERE starelid = ANY ('{` + names + `}'::regclass[])`
	// sqlcheck:allow maintenance commands of a table list built above
	if err := step(&r.Statistics, samples, `ANALYZE `+tables, `VACUUM (FULL) pg_catalog.pg_statistic`); err != nil {
		return r, err
	}
	// sqlcheck:allow the WAL step's two commands, kept together with the other maintenance commands
	if err := step(&r.WAL, `SELECT pg_switch_wal()`, `CHECKPOINT`); err != nil {
		return r, err
	}
	if err := q.PurgeRecord(ctx, started); err != nil {
		return r, err
	}
	if err := q.EventNotify(ctx, memorydb.EventNotifyParams{Channel: PurgeChannel}); err != nil {
		return r, err
	}
	s.log.InfoContext(ctx, "forgotten text purged from the data files", "conversations", deleted, "tables", r.Tables.Round(time.Millisecond),
		"statistics", r.Statistics.Round(time.Millisecond), "wal", r.WAL.Round(time.Millisecond))
	return r, nil
}
