package memory

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// How this package runs SQL. Its statements live in queries/*.sql, by entity, and sqlc compiles them
// (make sqlc) into package memorydb; only recall's, assembled from fragments (recall_queries.go), and
// the purge's maintenance commands (purge.go) are written in Go. queries runs the generated ones on a
// pool or a transaction and batch queues them to travel in one round trip; either way every error
// passes through dbError. (memorydb's own Queries.WithTx would skip it: use queries(tx).)

// queries returns the generated queries over db, a pool or a transaction, with their errors
// translated by dbError.
func queries(db memorydb.DBTX) *memorydb.Queries { return memorydb.New(translated{db}) }

// dbError translates what the driver reports into this package's errors — no row is ErrNotFound —
// and leaves every other error as it is (Classify, in classify.go, maps those to their codes).
// Recall's hand-written statements (recall.go) check for no row themselves.
func dbError(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// translated is a memorydb.DBTX that passes every error of db through dbError.
type translated struct{ db memorydb.DBTX }

func (t translated) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := t.db.Exec(ctx, sql, args...)
	return tag, dbError(err)
}

func (t translated) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := t.db.Query(ctx, sql, args...) //nolint:rowserrcheck // the caller (sqlc's generated code) checks rows.Err
	return rows, dbError(err)
}

func (t translated) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return translatedRow{t.db.QueryRow(ctx, sql, args...)}
}

type translatedRow struct{ row pgx.Row }

func (r translatedRow) Scan(dest ...any) error { return dbError(r.row.Scan(dest...)) }

// batch queues generated statements so that they travel to the database in one round trip: calling
// a query on q queues its statement, and send runs them all, in order. A :one query's result is
// filled in when send returns, not when the call does (sqlc returns it as a pointer, so the caller
// keeps it until then); its error, like every statement's, is send's. A query that returns several
// rows can't be queued.
type batch struct {
	pgx.Batch
	q *memorydb.Queries
}

func newBatch() *batch {
	b := &batch{}
	b.q = memorydb.New(b.queue())
	return b
}

// queue is the batch as a database handle that queues, for other packages' generated queries (an
// embed job, say).
func (b *batch) queue() queueing { return queueing{&b.Batch} }

// send runs the queued statements in tx and returns the first error, translated by dbError.
func (b *batch) send(ctx context.Context, tx pgx.Tx) error {
	return dbError(tx.SendBatch(ctx, &b.Batch).Close())
}

// queueing is the memorydb.DBTX of a batch: it queues each statement instead of running it.
type queueing struct{ b *pgx.Batch }

func (q queueing) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	q.b.Queue(sql, args...)
	return pgconn.CommandTag{}, nil
}

func (q queueing) QueryRow(_ context.Context, sql string, args ...any) pgx.Row {
	return queuedRow{q.b.Queue(sql, args...)}
}

func (queueing) Query(context.Context, string, ...any) (pgx.Rows, error) {
	return nil, errors.New("memory: a query that returns several rows can't be queued on a batch")
}

// queuedRow scans its statement's row into the destinations given when the batch runs.
type queuedRow struct{ q *pgx.QueuedQuery }

func (r queuedRow) Scan(dest ...any) error {
	r.q.QueryRow(func(row pgx.Row) error { return row.Scan(dest...) })
	return nil
}

// mapRows converts generated rows into domain values; never nil, like pgx.CollectRows.
func mapRows[R, T any](rows []*R, convert func(*R) T) []T {
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = convert(r)
	}
	return out
}
