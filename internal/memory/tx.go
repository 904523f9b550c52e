package memory

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Every transaction of the service goes through inTx (inWriteTx, inReadTx): it is the one place that
// opens one, and it owns the retry after a deadlock or a serialization failure. A lint test
// (internal/lint TestTransactionsThroughOneHelper) keeps pgx.BeginFunc and its kin out of the rest
// of the package.
//
// Lock order. Every transaction that writes a teammate's runs or memory takes its row locks in this
// order, and never one earlier in the list after one later:
//
//  1. the teammate's row, for runs' starts and the deletion only: StartRun FOR SHARE
//     (TeammateStartLock: starts don't wait for each other), DeleteTeammate FOR NO KEY UPDATE
//     (TeammateLock: it waits for the starts under way, and new ones wait for it);
//  2. runs: a run-credential operation its own run (runOpen, FOR UPDATE), the deletion every run
//     of the teammate in id order (RunsLockOfTeammate, FOR NO KEY UPDATE);
//  3. scopes' generation rows: shared first, then teammates' scopes by id (runWriteTx, ScopesLock;
//     a user's write takes its one scope);
//  4. items (lockItemTx, lockItemsTx, ItemGetForUpdate);
//  5. the KEY SHARE locks that foreign keys take on the rows an insert names — the teammate's row
//     for an item, a lesson or a thread, a run's row for a message or an item's source — and, last,
//     the deletion's DELETE of the teammate row, which needs them all released (FOR UPDATE).
//
// Step 1's modes are what keeps the deletion from deadlocking with its teammate's runs: FOR NO KEY
// UPDATE stops new starts (FOR SHARE) but not a running tool's inserts (KEY SHARE, step 5), so a
// tool that holds its run finishes; the deletion then takes the runs (2), and nothing of the
// teammate can hold a key lock it needs (5) while waiting for one the deletion holds. (Taking the
// row FOR UPDATE first would make every tool that holds its run and inserts an item wait for the
// deletion while the deletion waits for that run.) Locks of step 2 in NO KEY UPDATE mode likewise
// let a writer that holds the scope (3) insert a row naming the run (5). A statement that locks
// several runs in another order (the idle sweep's) can still deadlock with the deletion: inTx
// starts the one PostgreSQL picks over, so it never reaches the caller.

// txAttempts bounds how often inTx starts a transaction over after a deadlock or a serialization
// failure. Each one means a concurrent transaction committed (or was chosen to go on) meanwhile, so
// the bound is only reached under more contention on the same rows than that.
const txAttempts = 5

// inTx runs fn in a transaction with opts, and starts it over — up to txAttempts times in all —
// when PostgreSQL aborts it as a deadlock's victim (SQLSTATE 40P01) or for a serialization failure
// (40001). Everything fn did is rolled back with the attempt, and NOTIFYs queued in it are never
// sent, so starting over is safe as long as fn sets its results anew on each call (a closure that
// appends to a slice outside it resets the slice first). Between attempts it waits a few
// milliseconds, longer each time and jittered so that two losers don't collide again, giving the
// transaction that went on time to commit. The last attempt's error is returned (Classify answers
// a lost one as the retryable UNAVAILABLE, not INTERNAL).
func (s *Service) inTx(ctx context.Context, opts pgx.TxOptions, fn func(tx pgx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := s.oneTx(ctx, opts, fn)
		if !isRetryable(err) || attempt == txAttempts {
			return err
		}
		wait := time.NewTimer(retryWait(attempt))
		select {
		case <-ctx.Done():
			wait.Stop()
			return err
		case <-wait.C:
		}
	}
}

// inWriteTx is inTx with the default options (read committed, read-write): every write.
func (s *Service) inWriteTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return s.inTx(ctx, pgx.TxOptions{}, fn)
}

// inReadTx is inTx read-only: reads that must see one snapshot across statements.
func (s *Service) inReadTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return s.inTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly}, fn)
}

// retryWait is how long inTx waits before attempt+1: 2·attempt² ms, plus up to as much again at
// random.
func retryWait(attempt int) time.Duration {
	base := time.Duration(attempt*attempt) * 2 * time.Millisecond
	return base + rand.N(base+1)
}

// isRetryable reports whether err is PostgreSQL's serialization failure (SQLSTATE 40001: a
// repeatable-read transaction met a row that a concurrent one changed after its snapshot) or a
// deadlock's victim (40P01): the transaction did nothing, and may succeed if run again.
func isRetryable(err error) bool {
	pgErr, ok := errors.AsType[*pgconn.PgError](err)
	return ok && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// oneTx runs fn in one transaction on a connection of the pool, as pgx.BeginTxFunc does, but BEGIN
// isn't a round trip of its own: it travels at the head of fn's first batch when fn starts with one
// (pgx's Batch.BeginTx; every change of an item starts with its locks' batch), and alone before
// fn's first statement otherwise. An edit is so three round trips — BEGIN with the locks, the
// writes, COMMIT — and a conflict two (TestEditRoundTrips).
func (s *Service) oneTx(ctx context.Context, opts pgx.TxOptions, fn func(tx pgx.Tx) error) (err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// Given back with a transaction still open (a rollback that failed), the connection is closed
	// by the pool rather than reused.
	defer conn.Release()
	tx := &pipelinedTx{conn: conn, opts: opts}
	// The transaction's end doesn't heed the caller's cancellation: a COMMIT cut off by it could
	// have committed and yet be reported as failed, and a ROLLBACK skipped for it would leave the
	// transaction's locks held until the connection is closed, after the request returned. Its
	// bound starts when the end does, however long fn took (an import, the rehash at start).
	end := func(finish func(context.Context) error) error {
		endCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), txEndTimeout)
		defer cancel()
		return finish(endCtx)
	}
	defer func() {
		if rollbackErr := end(tx.Rollback); rollbackErr != nil && !errors.Is(rollbackErr, pgx.ErrTxClosed) {
			err = rollbackErr
		}
	}()
	if err := fn(tx); err != nil {
		_ = end(tx.Rollback) // the error to return is fn's
		return err
	}
	return end(tx.Commit)
}

// txEndTimeout bounds a transaction's COMMIT or ROLLBACK, which the caller's cancellation doesn't
// interrupt (oneTx), from the moment it is sent: not the transaction, which may take any time.
const txEndTimeout = 5 * time.Second

// pipelinedTx is oneTx's transaction: pgx's own, begun by the first statement fn sends.
type pipelinedTx struct {
	conn *pgxpool.Conn
	opts pgx.TxOptions
	tx   pgx.Tx // nil until the first statement
	// ended: committed or rolled back before any statement (tx nil).
	ended bool
}

// begun is the transaction, begun by a round trip of its own if no statement has begun it yet.
func (t *pipelinedTx) begun(ctx context.Context) (pgx.Tx, error) {
	if t.tx == nil {
		if t.ended {
			return nil, pgx.ErrTxClosed
		}
		tx, err := t.conn.BeginTx(ctx, t.opts)
		if err != nil {
			return nil, err
		}
		t.tx = tx
	}
	return t.tx, nil
}

// SendBatch sends b; as the transaction's first statement, with BEGIN at its head, whose answer it
// reads before handing the results on, so that they are b's alone.
func (t *pipelinedTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if t.tx != nil {
		return t.tx.SendBatch(ctx, b)
	}
	if t.ended {
		return pgx.FailedBatchResults(b, pgx.ErrTxClosed)
	}
	withBegin := &pgx.Batch{}
	withBegin.BeginTx(t.opts)
	withBegin.QueuedQueries = append(withBegin.QueuedQueries, b.QueuedQueries...)
	results := t.conn.SendBatch(ctx, withBegin)
	t.tx = results.Tx() // closed if BEGIN failed: what follows then fails with pgx.ErrTxClosed
	if _, err := results.Exec(); err != nil {
		_ = results.Close()
		return pgx.FailedBatchResults(b, err)
	}
	return results
}

func (t *pipelinedTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	return tx.Exec(ctx, sql, args...)
}

func (t *pipelinedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Query(ctx, sql, args...) //nolint:rowserrcheck // the caller reads the rows and checks rows.Err
}

func (t *pipelinedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	tx, err := t.begun(ctx)
	if err != nil {
		return failedRow{err}
	}
	return tx.QueryRow(ctx, sql, args...)
}

func (t *pipelinedTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, rows pgx.CopyFromSource) (int64, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return 0, err
	}
	return tx.CopyFrom(ctx, table, columns, rows)
}

func (t *pipelinedTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Prepare(ctx, name, sql)
}

// Begin is a savepoint in the transaction.
func (t *pipelinedTx) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := t.begun(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Begin(ctx)
}

// Commit commits; a transaction that sent no statement has nothing to commit.
func (t *pipelinedTx) Commit(ctx context.Context) error {
	if t.tx == nil {
		return t.end()
	}
	return t.tx.Commit(ctx)
}

// Rollback rolls back; a transaction that sent no statement has nothing to roll back.
func (t *pipelinedTx) Rollback(ctx context.Context) error {
	if t.tx == nil {
		return t.end()
	}
	return t.tx.Rollback(ctx)
}

// end ends a transaction that sent no statement.
func (t *pipelinedTx) end() error {
	if t.ended {
		return pgx.ErrTxClosed
	}
	t.ended = true
	return nil
}

// LargeObjects isn't the service's: nothing calls it.
func (t *pipelinedTx) LargeObjects() pgx.LargeObjects { panic("memory: large objects are not used") }

func (t *pipelinedTx) Conn() *pgx.Conn { return t.conn.Conn() }

// failedRow is the row of a statement that wasn't sent.
type failedRow struct{ err error }

func (r failedRow) Scan(...any) error { return r.err }
