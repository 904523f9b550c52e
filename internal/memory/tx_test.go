package memory_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// oneConnection is the fixture and a service beside it on a pool of one connection (countedPool),
// with a table of the given name, (n int PRIMARY KEY), for a test's rows.
func oneConnection(t *testing.T, table string) (fixture, *memory.Service, *roundTrips) {
	t.Helper()
	f := setup(t)
	_, err := f.pool.Exec(t.Context(), `CREATE TABLE `+table+` (n int PRIMARY KEY)`)
	require.NoError(t, err)
	pool, trips := countedPool(t, f.pool.Config())
	return f, memory.NewService(pool, slog.New(slog.DiscardHandler)), trips
}

// TestTransactionBeginsWithItsFirstBatch: the service's transactions send BEGIN at the head of their
// first batch (tx.go, oneTx), and that changes nothing of what a transaction is. Counted and run on
// a pool of one connection, so every case also shows the connection left fit for the next.
func TestTransactionBeginsWithItsFirstBatch(t *testing.T) {
	t.Parallel()
	f, svc, trips := oneConnection(t, "tx_probe")
	ctx := t.Context()
	rows := func() []int {
		var ns []int
		r, err := f.pool.Query(ctx, `SELECT n FROM tx_probe ORDER BY n`)
		require.NoError(t, err)
		ns, err = pgx.CollectRows(r, pgx.RowTo[int])
		require.NoError(t, err)
		return ns
	}
	// Prepares the statements on the pool's connection, so that counting sees only their round trips.
	for range 2 {
		require.NoError(t, memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(`SELECT txid_current()`)
			b.Queue(`INSERT INTO tx_probe VALUES (0) ON CONFLICT DO NOTHING`)
			if err := tx.SendBatch(ctx, b).Close(); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `SELECT txid_current()`)
			return err
		}))
	}

	t.Run("the batch and what follows are one transaction", func(t *testing.T) {
		var inBatch, after int64
		n := trips.count(func() {
			require.NoError(t, memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
				b := &pgx.Batch{}
				b.Queue(`SELECT txid_current()`).QueryRow(func(row pgx.Row) error { return row.Scan(&inBatch) })
				b.Queue(`INSERT INTO tx_probe VALUES (1)`)
				if err := tx.SendBatch(ctx, b).Close(); err != nil {
					return err
				}
				return tx.QueryRow(ctx, `SELECT txid_current()`).Scan(&after)
			}))
		})
		assert.EqualValues(t, 3, n, "BEGIN and the batch, the query, COMMIT")
		assert.Equal(t, inBatch, after, "one transaction id")
		assert.Equal(t, []int{0, 1}, rows())
	})

	t.Run("an error after the batch rolls the batch back", func(t *testing.T) {
		failed := errors.New("refused after the batch")
		err := memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(`INSERT INTO tx_probe VALUES (2)`)
			if err := tx.SendBatch(ctx, b).Close(); err != nil {
				return err
			}
			return failed
		})
		require.ErrorIs(t, err, failed)
		assert.Equal(t, []int{0, 1}, rows())
	})

	t.Run("a statement failing inside the batch rolls back the ones before it", func(t *testing.T) {
		var ran bool
		err := memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(`INSERT INTO tx_probe VALUES (3)`)
			b.Queue(`INSERT INTO tx_probe VALUES (1)`) // a duplicate key
			b.Queue(`SELECT 1`).Exec(func(pgconn.CommandTag) error { ran = true; return nil })
			return tx.SendBatch(ctx, b).Close()
		})
		pgErr, ok := errors.AsType[*pgconn.PgError](err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, "23505", pgErr.Code)
		assert.False(t, ran, "nothing after the failed statement runs")
		assert.Equal(t, []int{0, 1}, rows())
	})

	t.Run("BEGIN goes alone before a first statement that isn't a batch", func(t *testing.T) {
		n := trips.count(func() {
			require.NoError(t, memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, `INSERT INTO tx_probe VALUES (4)`)
				return err
			}))
		})
		assert.EqualValues(t, 3, n, "BEGIN, the statement, COMMIT")
		assert.Equal(t, []int{0, 1, 4}, rows())
	})

	t.Run("a transaction that sends nothing costs nothing", func(t *testing.T) {
		n := trips.count(func() {
			require.NoError(t, memory.InWriteTx(ctx, svc, func(pgx.Tx) error { return nil }))
		})
		assert.Zero(t, n)
	})

	t.Run("a read-only transaction is read-only from its first batch", func(t *testing.T) {
		err := memory.InReadTx(ctx, svc, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(`INSERT INTO tx_probe VALUES (5)`)
			return tx.SendBatch(ctx, b).Close()
		})
		pgErr, ok := errors.AsType[*pgconn.PgError](err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, "25006", pgErr.Code, "read_only_sql_transaction")
		assert.Equal(t, []int{0, 1, 4}, rows())
	})

	t.Run("a statement after the transaction ended is refused", func(t *testing.T) {
		var kept pgx.Tx
		require.NoError(t, memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
			kept = tx
			return nil
		}))
		_, err := kept.Exec(context.Background(), `INSERT INTO tx_probe VALUES (6)`)
		require.ErrorIs(t, err, pgx.ErrTxClosed)
		require.ErrorIs(t, kept.SendBatch(context.Background(), &pgx.Batch{}).Close(), pgx.ErrTxClosed)
		assert.Equal(t, []int{0, 1, 4}, rows())
	})
}

// TestTransactionOutlastsItsEndBound: the bound on a transaction's COMMIT and ROLLBACK
// (memory.TxEndTimeout, which the caller's cancellation doesn't cut short) runs from the end alone.
// A transaction that works longer than it still commits, and one that fails after as long rolls
// back and leaves its connection fit for the next. (Until the session of 2026-12-06 the bound ran
// from the start, and every transaction longer than it failed at COMMIT: the seed of make bench
// found it, rehashing a million items in one transaction.)
func TestTransactionOutlastsItsEndBound(t *testing.T) {
	t.Parallel()
	f, svc, _ := oneConnection(t, "tx_long")
	ctx := t.Context()
	longer := (memory.TxEndTimeout + time.Second).Seconds()

	start := time.Now()
	require.NoError(t, memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO tx_long VALUES (1)`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `SELECT pg_sleep($1)`, longer)
		return err
	}))
	require.Greater(t, time.Since(start), memory.TxEndTimeout)
	var n int
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM tx_long`).Scan(&n))
	assert.Equal(t, 1, n, "committed")

	failed := errors.New("failed after a long while")
	err := memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO tx_long VALUES (2)`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_sleep($1)`, longer); err != nil {
			return err
		}
		return failed
	})
	require.ErrorIs(t, err, failed)
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM tx_long`).Scan(&n))
	assert.Equal(t, 1, n, "rolled back")
	// The pool's one connection is fit for the next transaction.
	require.NoError(t, memory.InWriteTx(ctx, svc, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tx_long VALUES (3)`)
		return err
	}))
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM tx_long`).Scan(&n))
	assert.Equal(t, 2, n)
}
