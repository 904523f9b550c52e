package db_test

import (
	"context"
	"crypto/rand"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/migrations"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// emptyDatabase creates a database with nothing in it and returns its URL; it is dropped when the
// test ends.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	adminURL := dbtest.AdminURL(t)
	name := "memory_migrate_" + strings.ToLower(rand.Text()[:12])
	admin, err := pgx.Connect(t.Context(), adminURL)
	require.NoError(t, err)
	defer admin.Close(context.Background())
	_, err = admin.Exec(t.Context(), "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, adminURL)
		if err != nil {
			t.Errorf("drop %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	u, err := url.Parse(adminURL)
	require.NoError(t, err)
	u.Path = "/" + name
	return u.String()
}

// tables lists the tables in the public schema.
func tables(t *testing.T, databaseURL string) []string {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	rows, err := conn.Query(t.Context(), `
		SELECT table_name FROM information_schema.tables
		 WHERE table_schema = 'public' ORDER BY table_name`)
	require.NoError(t, err)
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return names
}

// model is every table of RULES §2 that the migrations create, and golang-migrate's own.
var model = []string{
	"bot_threads", "lessons", "memory_ai_usage", "memory_contexts", "memory_embeddings", "memory_generations",
	"memory_imports", "memory_items", "memory_jobs", "memory_revisions", "memory_suppressions",
	"memory_tombstones", "messages", "runs", "schema_migrations", "settings", "teammates",
}

func requireVersion(t *testing.T, databaseURL string, want uint) {
	t.Helper()
	version, dirty, err := db.Version(databaseURL)
	require.NoError(t, err)
	require.False(t, dirty)
	require.Equal(t, want, version)
}

func TestMigrateUpDownUp(t *testing.T) {
	t.Parallel()
	databaseURL := emptyDatabase(t)
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	requireVersion(t, databaseURL, 0)

	require.NoError(t, db.MigrateUp(databaseURL))
	requireVersion(t, databaseURL, latest)
	created := tables(t, databaseURL)
	require.Subset(t, created, model)
	require.NoError(t, db.MigrateUp(databaseURL), "up again is a no-op")

	var loss *db.LossError
	require.ErrorAs(t, db.MigrateDown(databaseURL, db.RefuseLossy), &loss, "the first migration's down drops every table")
	requireVersion(t, databaseURL, latest)
	require.NoError(t, db.MigrateDown(databaseURL, db.AllowLossy))
	requireVersion(t, databaseURL, 0)
	require.Equal(t, []string{"schema_migrations"}, tables(t, databaseURL), "down leaves only golang-migrate's table")
	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var functions int
	require.NoError(t, conn.QueryRow(t.Context(), `
		SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		 WHERE n.nspname = 'public'
		   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`).Scan(&functions))
	require.Zero(t, functions, "down leaves no function outside extensions")

	require.NoError(t, db.MigrateUp(databaseURL))
	requireVersion(t, databaseURL, latest)
	require.Equal(t, created, tables(t, databaseURL))
	pool, err := db.Open(t.Context(), databaseURL)
	require.NoError(t, err)
	defer pool.Close()
	current, err := db.SchemaCurrent(t.Context(), pool)
	require.NoError(t, err)
	require.True(t, current)
}

func TestLatestVersionIsTheLastFile(t *testing.T) {
	t.Parallel()
	names, err := fs.Glob(migrations.FS, "*.up.sql")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	var highest uint64
	for _, name := range names {
		n, err := strconv.ParseUint(strings.SplitN(name, "_", 2)[0], 10, 64)
		require.NoError(t, err, name)
		highest = max(highest, n)
		down := strings.TrimSuffix(name, ".up.sql") + ".down.sql"
		_, err = fs.Stat(migrations.FS, down)
		require.NoError(t, err, "%s has no %s", name, down)
	}
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	require.EqualValues(t, highest, latest)
}

func TestSchemaCurrent(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	ctx := t.Context()
	current, err := db.SchemaCurrent(ctx, pool)
	require.NoError(t, err)
	require.True(t, current)

	_, err = pool.Exec(ctx, `UPDATE schema_migrations SET version = version - 1`)
	require.NoError(t, err)
	current, err = db.SchemaCurrent(ctx, pool)
	require.NoError(t, err)
	require.False(t, current, "an older version is pending migrations")

	_, err = pool.Exec(ctx, `UPDATE schema_migrations SET version = version + 1, dirty = true`)
	require.NoError(t, err)
	current, err = db.SchemaCurrent(ctx, pool)
	require.NoError(t, err)
	require.False(t, current, "a dirty schema is not current")
}

func TestBadDatabaseURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"mysql://memory@localhost/memory", "::not a url"} {
		require.Error(t, db.MigrateUp(u), u)
		_, _, err := db.Version(u)
		require.Error(t, err, u)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err := db.Open(ctx, "postgres://memory@127.0.0.1:1/memory?connect_timeout=2")
	require.ErrorContains(t, err, "ping database")
	_, err = db.Open(ctx, "postgres://memory@127.0.0.1:5432/memory?sslmode=bogus")
	require.ErrorContains(t, err, "parse database URL")
}

// OpenPool applies MEMORY_DB_MAX_CONNS and MEMORY_DB_STATEMENT_TIMEOUT to every connection it
// opens: a request statement that runs longer is cancelled by PostgreSQL
// (query_canceled, which the API answers UNAVAILABLE); the /readyz pool is small and short.
func TestOpenPoolShapesThePool(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	var connected atomic.Int32
	pool, err := db.OpenPool(t.Context(), databaseURL, db.PoolOptions{
		MaxConns: 3, StatementTimeout: 150 * time.Millisecond, ApplicationName: "memory-test",
		AfterConnect: func() { connected.Add(1) },
	})
	require.NoError(t, err)
	defer pool.Close()
	require.EqualValues(t, 3, pool.Config().MaxConns)
	require.Positive(t, connected.Load(), "AfterConnect ran for the first connection")
	var timeout, name string
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT current_setting('statement_timeout'), current_setting('application_name')`).Scan(&timeout, &name))
	require.Equal(t, "150ms", timeout)
	require.Equal(t, "memory-test", name)
	_, err = pool.Exec(t.Context(), `SELECT pg_sleep(2)`)
	pgErr, ok := errors.AsType[*pgconn.PgError](err)
	require.True(t, ok, "want PostgreSQL's error, got %v", err)
	require.Equal(t, "57014", pgErr.Code, "the statement timeout cancels it")

	health, err := db.OpenHealthPool(t.Context(), databaseURL, nil)
	require.NoError(t, err)
	defer health.Close()
	require.EqualValues(t, db.HealthPoolConns, health.Config().MaxConns)
	require.NoError(t, health.QueryRow(t.Context(), `SELECT current_setting('statement_timeout'), current_setting('application_name')`).Scan(&timeout, &name))
	require.Equal(t, []string{"2s", "memory-health"}, []string{timeout, name})
}
