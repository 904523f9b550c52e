package main

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// Production setup: the application's role owns its database and schema but is no superuser, and
// nobody created the vector extension yet. The first start must stop before migrating, say which
// statement a superuser runs, and leave the schema clean, not dirty; once the extension exists the
// same start migrates (btree_gin is trusted: the owner creates it) and prints the login URL's path
// without the token.
func TestStartWithoutTheVectorExtension(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := buildAPI(t)
	ownerURL, adminURL := dbtest.OwnedDatabase(t)
	const userToken = "mu_setup-test-user-token-0123456789"
	env := append(apiEnv(t.TempDir()), "DATABASE_URL="+ownerURL, "MEMORY_USER_TOKEN="+userToken,
		"MEMORY_WORKER_TOKEN=mw_setup-test-worker-token-0123456789",
		"MEMORY_TOMBSTONE_KEY=setup-test-tombstone-key-0123456789abcdef")

	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the start must fail: %s", out)
	msg := string(out)
	require.Contains(t, msg, "CREATE EXTENSION IF NOT EXISTS vector;", "the message says what to run")
	require.Contains(t, msg, "superuser")
	require.Contains(t, msg, "nothing was migrated")
	require.NotContains(t, msg, "btree_gin", "the owner may create the trusted one itself")
	require.NotContains(t, msg, "CREATE TABLE", "no migration SQL in the message")
	require.NotContains(t, msg, "dirty")

	admin, err := pgx.Connect(t.Context(), adminURL)
	require.NoError(t, err)
	defer admin.Close(context.Background())
	var objects int
	require.NoError(t, admin.QueryRow(t.Context(), `SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`).Scan(&objects))
	require.Zero(t, objects, "nothing was created, not even the migrations table")
	var extensions int
	require.NoError(t, admin.QueryRow(t.Context(), `SELECT count(*) FROM pg_extension WHERE extname IN ('vector', 'btree_gin')`).Scan(&extensions))
	require.Zero(t, extensions, "the check's trial CREATE EXTENSION was rolled back")

	// The DBA runs the statement; the same start now migrates and serves.
	_, err = admin.Exec(t.Context(), "CREATE EXTENSION IF NOT EXISTS vector")
	require.NoError(t, err)
	p := startAPI(t, bin, env)
	p.awaitReady(t)
	p.awaitOutput(t, p.api.URL+"/login?token=<the user token in MEMORY_USER_TOKEN>")
	require.NotContains(t, p.text(), userToken, "the token itself is never printed")
	p.stop(t)
	version, dirty, err := db.Version(ownerURL)
	require.NoError(t, err)
	latest, err := db.LatestVersion()
	require.NoError(t, err)
	require.Equal(t, latest, version)
	require.False(t, dirty)

	// migrate force N records a version without running anything; an unknown one is refused.
	migrate := func(args ...string) (string, error) {
		cmd := exec.CommandContext(t.Context(), bin, append([]string{"migrate"}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out2, err := migrate("force", "1")
	require.NoError(t, err, out2)
	version, dirty, err = db.Version(ownerURL)
	require.NoError(t, err)
	require.Equal(t, uint(1), version)
	require.False(t, dirty)
	out2, err = migrate("force", "3")
	require.Error(t, err, "there is no migration 3")
	require.Contains(t, out2, "not a migration of this binary")
	_, err = migrate("force", "x")
	require.Error(t, err)
	out2, err = migrate("force", strconv.FormatUint(uint64(latest), 10))
	require.NoError(t, err, out2)
	out2, err = migrate("version")
	require.NoError(t, err, out2)
	require.Contains(t, out2, "dirty false")

	// A down that loses data is refused without --allow-lossy, naming the migration and changing
	// nothing; one that loses nothing needs no flag.
	lossy, err := db.LossyDowns()
	require.NoError(t, err)
	last := lossy[len(lossy)-1]
	below := strconv.FormatUint(uint64(last.Version-1), 10)
	if last.Version < latest {
		out2, err = migrate("to", strconv.FormatUint(uint64(last.Version), 10))
		require.NoError(t, err, out2)
	}
	out2, err = migrate("to", below)
	require.Error(t, err, out2)
	require.Contains(t, out2, last.File+" loses "+last.Loses)
	require.Contains(t, out2, "--allow-lossy")
	version, _, err = db.Version(ownerURL)
	require.NoError(t, err)
	require.Equal(t, last.Version, version, "nothing was changed")
	out2, err = migrate("to", below, "--allow-lossy")
	require.NoError(t, err, out2)
	require.Contains(t, out2, "version "+below)
	out2, err = migrate("down")
	require.Error(t, err, out2)
	require.Contains(t, out2, "000001_init.down.sql loses")
	out2, err = migrate("down", "--allow-lossy")
	require.NoError(t, err, out2)
	version, _, err = db.Version(ownerURL)
	require.NoError(t, err)
	require.Zero(t, version)
}
