package db_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
)

// A migration that fails has changed nothing (each file runs in one implicit transaction), so the
// schema must not be left marked dirty at it, and the error must not carry the migration's SQL.
func TestFailedMigrationIsNotLeftDirty(t *testing.T) {
	t.Parallel()
	databaseURL := emptyDatabase(t)
	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	// Migration 000005 creates this index: a table of the same name makes it fail half-way.
	require.NoError(t, db.MigrateUp(databaseURL))
	require.NoError(t, db.Force(databaseURL, 4))
	_, err = conn.Exec(t.Context(), `DROP INDEX IF EXISTS memory_items_recall_search; CREATE INDEX memory_items_search ON memory_items USING gin (search);
		CREATE TABLE memory_items_recall_search (id int)`)
	require.NoError(t, err)

	err = db.MigrateUp(databaseURL)
	require.Error(t, err)
	require.Contains(t, err.Error(), "nothing of it was applied")
	require.NotContains(t, err.Error(), "CREATE INDEX", "no migration SQL in the error")
	version, dirty, verr := db.Version(databaseURL)
	require.NoError(t, verr)
	require.False(t, dirty, "the failed migration's dirty mark is taken back")
	require.Equal(t, uint(4), version, "the schema is at the version before the failed one")

	require.NoError(t, db.Force(databaseURL, 0), "0 records that no migration is applied")
	version, dirty, verr = db.Version(databaseURL)
	require.NoError(t, verr)
	require.Equal(t, uint(0), version)
	require.False(t, dirty)
	require.ErrorContains(t, db.Force(databaseURL, 3), "not a migration of this binary")
}

// The extension check reports what a role without the right to create extensions must ask for, and
// changes nothing.
func TestCheckExtensionsNamesTheStatement(t *testing.T) {
	t.Parallel()
	ownerURL, adminURL := dbtest.OwnedDatabase(t)
	err := db.CheckExtensions(t.Context(), ownerURL)
	var ext *db.ExtensionsError
	require.True(t, errors.As(err, &ext), "%v", err)
	require.Equal(t, []string{"vector"}, ext.Forbidden, "btree_gin is trusted: the owner may create it")
	require.Empty(t, ext.Unavailable)
	require.Contains(t, err.Error(), "CREATE EXTENSION IF NOT EXISTS vector;")
	require.NoError(t, db.CheckExtensions(t.Context(), adminURL), "a superuser may create both")

	admin, err := pgx.Connect(t.Context(), adminURL)
	require.NoError(t, err)
	defer admin.Close(context.Background())
	var n int
	require.NoError(t, admin.QueryRow(t.Context(), `SELECT count(*) FROM pg_extension WHERE extname IN ('vector', 'btree_gin')`).Scan(&n))
	require.Zero(t, n, "the check created nothing")
	_, err = admin.Exec(t.Context(), "CREATE EXTENSION vector")
	require.NoError(t, err)
	require.NoError(t, db.CheckExtensions(t.Context(), ownerURL))
}
