package dbtest_test

import (
	"crypto/rand"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

func TestDatabasesAreIsolated(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"first", "second"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			pool := dbtest.Pool(t)

			// Shared databases would make one CREATE TABLE fail, or show both rows.
			_, err := pool.Exec(ctx, "CREATE TABLE probe (writer text)")
			require.NoError(t, err)
			_, err = pool.Exec(ctx, "INSERT INTO probe VALUES ($1)", name)
			require.NoError(t, err)
			rows, err := pool.Query(ctx, "SELECT writer FROM probe")
			require.NoError(t, err)
			writers, err := pgx.CollectRows(rows, pgx.RowTo[string])
			require.NoError(t, err)
			require.Equal(t, []string{name}, writers)
		})
	}
}

func TestDatabaseIsMigrated(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	pool := dbtest.Pool(t)

	latest, err := db.LatestVersion()
	require.NoError(t, err)
	var version int64
	var dirty bool
	require.NoError(t, pool.QueryRow(ctx, "SELECT version, dirty FROM schema_migrations").Scan(&version, &dirty))
	require.Equal(t, int64(latest), version)
	require.False(t, dirty)

	var distance float64
	require.NoError(t, pool.QueryRow(ctx, "SELECT '[1,0]'::vector <-> '[0,0]'::vector").Scan(&distance))
	require.Equal(t, 1.0, distance)
}

func TestDatabaseDroppedAtCleanup(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	var name string
	t.Run("user", func(t *testing.T) {
		conn, err := pgx.Connect(t.Context(), dbtest.URL(t))
		require.NoError(t, err)
		require.NoError(t, conn.QueryRow(t.Context(), "SELECT current_database()").Scan(&name))
		// Left open on purpose: the drop must force it out.
	})
	require.NotEmpty(t, name)

	admin, err := pgx.Connect(ctx, dbtest.AdminURL(t))
	require.NoError(t, err)
	defer admin.Close(ctx)
	var exists bool
	require.NoError(t, admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists))
	require.False(t, exists, "database %s outlived its test", name)
}

func TestAdminURLCreatesDatabases(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	admin, err := pgx.Connect(ctx, dbtest.AdminURL(t))
	require.NoError(t, err)
	defer admin.Close(ctx)

	// Random, as another test binary may share the server through TEST_DATABASE_URL.
	name := pgx.Identifier{"memory_admin_" + strings.ToLower(rand.Text()[:12])}.Sanitize()
	_, err = admin.Exec(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	_, err = admin.Exec(ctx, "DROP DATABASE "+name)
	require.NoError(t, err)
}
