package memory_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/memory"
)

// TestIsUnavailable: what the real driver returns when the database can't serve a request now is
// UNAVAILABLE's; what a wrong request or a rule returns is not.
func TestIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	pool := dbtest.Pool(t)

	refused, err := pgxpool.New(ctx, "postgres://memory@127.0.0.1:1/memory?connect_timeout=2")
	require.NoError(t, err)
	defer refused.Close()
	_, err = refused.Exec(ctx, `SELECT 1`)
	require.Error(t, err)
	assert.True(t, memory.IsUnavailable(err), "connection refused: %v", err)

	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(ctx, `SET statement_timeout = 50`)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `SELECT pg_sleep(2)`)
	assert.True(t, memory.IsUnavailable(err), "statement timeout: %v", err)
	_, err = conn.Exec(ctx, `RESET statement_timeout`)
	require.NoError(t, err)

	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = pool.Exec(short, `SELECT pg_sleep(2)`)
	assert.True(t, memory.IsUnavailable(err), "the request's deadline: %v", err)

	closed := dbtest.Pool(t)
	closed.Close()
	_, err = closed.Exec(ctx, `SELECT 1`)
	assert.True(t, memory.IsUnavailable(err), "a closed pool (shutting down): %v", err)

	// A transaction that lost to concurrent ones did nothing and may succeed again.
	for _, code := range []string{"deadlock_detected", "serialization_failure"} {
		_, err = pool.Exec(ctx, `DO $$ BEGIN RAISE EXCEPTION 'lost' USING ERRCODE = '`+code+`'; END $$`)
		assert.True(t, memory.IsUnavailable(err), "%s: %v", code, err)
	}

	_, err = pool.Exec(ctx, `SELECT 1/0`)
	assert.False(t, memory.IsUnavailable(err), "a wrong statement is a defect: %v", err)
	_, err = pool.Exec(ctx, `SELECT * FROM no_such_table`)
	assert.False(t, memory.IsUnavailable(err), "%v", err)
	for _, err := range []error{nil, memory.ErrNotFound, memory.ErrMemoryChanged, &memory.ConflictError{Current: 2}, errors.New("boom")} {
		assert.False(t, memory.IsUnavailable(err), "%v", err)
	}
}
