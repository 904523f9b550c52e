package pgcluster

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// clusterDir returns a fresh directory the server account can reach. As root that takes o+x on
// the directory t.TempDir makes (mode 0700) above the one it returns.
func clusterDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		require.NoError(t, os.Chmod(filepath.Dir(dir), 0o711))
	}
	return filepath.Join(dir, "data")
}

func TestStartRestartStop(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := clusterDir(t)

	began := time.Now()
	c, err := Start(ctx, Options{Dir: dir, Logger: testLogger(t)})
	require.NoError(t, err)
	t.Logf("first start, with initdb: %v", time.Since(began))
	t.Cleanup(func() { _ = c.Stop(context.Background()) })

	info, err := os.Stat(filepath.Join(dir, "pg-password"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	password, err := os.ReadFile(filepath.Join(dir, "pg-password"))
	require.NoError(t, err)

	require.NoError(t, c.EnsureDatabase(ctx, "memory"))
	require.NoError(t, c.EnsureDatabase(ctx, "memory"), "second EnsureDatabase must be a no-op")
	conn, err := pgx.Connect(ctx, c.URL("memory"))
	require.NoError(t, err)
	var distance float64
	require.NoError(t, conn.QueryRow(ctx, "SELECT '[1,2,3]'::vector <=> '[1,2,4]'::vector").Scan(&distance))
	require.InDelta(t, 0.00853, distance, 0.0001)
	_, err = conn.Exec(ctx, "CREATE TABLE survivor (note text); INSERT INTO survivor VALUES ('kept')")
	require.NoError(t, err)
	require.NoError(t, conn.Close(ctx))

	require.NoError(t, c.Stop(ctx))
	require.NoError(t, c.Stop(ctx), "second Stop")

	began = time.Now()
	c2, err := Start(ctx, Options{Dir: dir, Logger: testLogger(t)})
	require.NoError(t, err)
	t.Logf("second start, no initdb: %v", time.Since(began))
	t.Cleanup(func() { _ = c2.Stop(context.Background()) })

	again, err := os.ReadFile(filepath.Join(dir, "pg-password"))
	require.NoError(t, err)
	require.Equal(t, string(password), string(again), "restart must reuse the password, not run initdb again")
	conn, err = pgx.Connect(ctx, c2.URL("memory"))
	require.NoError(t, err)
	var note string
	require.NoError(t, conn.QueryRow(ctx, "SELECT note FROM survivor").Scan(&note))
	require.Equal(t, "kept", note)
	require.NoError(t, conn.Close(ctx))

	require.NoError(t, c2.Stop(ctx))
	require.NoError(t, c2.Stop(ctx))
}

// TestStartAdoptsRunningServer stands in for a process killed before it could call Stop.
func TestStartAdoptsRunningServer(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := clusterDir(t)

	orphan, err := Start(ctx, Options{Dir: dir, Fast: true, Logger: testLogger(t)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = orphan.Stop(context.Background()) })

	adopted, err := Start(ctx, Options{Dir: dir, Logger: testLogger(t)})
	require.NoError(t, err)
	require.Equal(t, orphan.Port(), adopted.Port())
	conn, err := adopted.Admin(ctx)
	require.NoError(t, err)
	require.NoError(t, conn.Close(ctx))

	require.NoError(t, adopted.Stop(ctx))
	require.NoError(t, orphan.Stop(ctx), "Stop must accept a server someone else stopped")
	require.NoError(t, StopDir(ctx, dir, testLogger(t)), "StopDir on a stopped cluster")
}

func TestStartRetriesWhenPortTaken(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()

	picks := 0
	pick := func() (int, error) {
		picks++
		if picks == 1 {
			return taken.Addr().(*net.TCPAddr).Port, nil
		}
		return FreePort()
	}
	c, err := start(ctx, Options{Dir: clusterDir(t), Fast: true, Logger: testLogger(t)}, pick)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	require.Equal(t, 2, picks)
	require.NotEqual(t, taken.Addr().(*net.TCPAddr).Port, c.Port())
	require.NoError(t, c.Stop(ctx))
}

func TestStartFixedPortTakenFails(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()

	c, err := Start(t.Context(), Options{Dir: clusterDir(t), Port: taken.Addr().(*net.TCPAddr).Port, Fast: true, Logger: testLogger(t)})
	require.ErrorIs(t, err, errPortTaken)
	require.Nil(t, c)
	require.NoError(t, c.Stop(t.Context()), "Stop after a failed Start")
}

func TestStartUnreachableDirAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root runs the server as another user")
	}
	t.Parallel()
	locked := filepath.Join(filepath.Dir(clusterDir(t)), "locked")
	require.NoError(t, os.Mkdir(locked, 0o700))

	_, err := Start(t.Context(), Options{Dir: filepath.Join(locked, "data"), Logger: testLogger(t)})
	require.Error(t, err)
	require.Contains(t, err.Error(), "cannot reach")
	require.Contains(t, err.Error(), "chmod o+x "+locked+")", "the error must name the directory to open up")
}

func TestURLEscapesPassword(t *testing.T) {
	t.Parallel()
	c := &Cluster{port: 5555, password: "p@ss/word"}
	got := c.URL("memory")
	require.True(t, strings.HasPrefix(got, "postgres://memory:p%40ss%2Fword@127.0.0.1:5555/memory?"), got)
	cfg, err := pgx.ParseConfig(got)
	require.NoError(t, err)
	require.Equal(t, "p@ss/word", cfg.Password)
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), nil))
}

// TestServerEnvKeepsTheCallersMallocSettings: a value the environment sets wins over
// mallocSettings', and PG* variables never reach the server.
func TestServerEnvKeepsTheCallersMallocSettings(t *testing.T) {
	t.Setenv("MALLOC_TRIM_THRESHOLD_", "1048576")
	t.Setenv("PGPORT", "1")
	env := serverEnv()
	require.Contains(t, env, "MALLOC_TRIM_THRESHOLD_=1048576")
	require.NotContains(t, env, "MALLOC_TRIM_THRESHOLD_=33554432")
	require.Contains(t, env, "MALLOC_MMAP_THRESHOLD_=16777216")
	for _, kv := range env {
		require.False(t, strings.HasPrefix(kv, "PG"), kv)
	}
	// Every program of the server (initdb, pg_ctl and through it the server) gets that environment.
	require.Equal(t, env, account{}.command(t.Context(), t.TempDir(), "pg_ctl").Env)
}
