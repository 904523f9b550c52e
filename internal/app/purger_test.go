package app_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/pgcluster"
)

// privateCluster starts an embedded cluster of its own, configured as cmd/api's (not the test
// harness's fast one), with a migrated database, and returns its data directory and the database's
// URL; both go when t ends.
func privateCluster(t *testing.T) (dataDir, url string) {
	t.Helper()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "memory-app-")
	require.NoError(t, err)
	if os.Geteuid() == 0 {
		require.NoError(t, os.Chmod(dir, 0o711)) // the server runs as postgres
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cluster.Stop(context.Background()) })
	require.NoError(t, cluster.EnsureDatabase(ctx, "memory"))
	url = cluster.URL("memory")
	require.NoError(t, db.MigrateUp(url))
	return filepath.Join(dir, "pg"), url
}

// grepDir reports the files under dir whose bytes contain marker.
func grepDir(t *testing.T, dir string, marker []byte) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed by the server while we walk
		}
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err == nil && bytes.Contains(b, marker) {
			out = append(out, path)
		}
		return err
	}))
	return out
}

// In embedded mode (the service owns the cluster) a forget through the API is followed, within the
// purge delay, by a purge; afterwards no file of the data directory holds the text (F5). The test
// waits on the purge's notification, not on a clock.
func TestEmbeddedForgetIsPurgedFromTheDataDirectory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dataDir, url := privateCluster(t)
	api := apitest.StartWith(t, url, func(o *app.Options) { o.PurgeDelay = 200 * time.Millisecond })

	listen, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = listen.Close(context.Background()) })
	_, err = listen.Exec(ctx, "LISTEN "+memory.PurgeChannel)
	require.NoError(t, err)

	b := make([]byte, 8)
	_, _ = rand.Read(b)
	marker := "PURGEMARK" + hex.EncodeToString(b)
	var created struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	api.Must(t, apitest.UserToken, `mutation($c: String!, $k: String) { createMemory(input: {scope: {}, content: $c, key: $k, kind: PREFERENCE}) { item { id } } }`,
		map[string]any{"c": "Likes " + marker + " tea", "k": "drink " + marker}, &created)
	var erasure struct {
		Erasure struct {
			Purged            bool
			PurgeDelaySeconds *int
		}
	}
	api.Must(t, apitest.UserToken, `query { erasure { purged purgeDelaySeconds } }`, nil, &erasure)
	require.True(t, erasure.Erasure.Purged, "the forget dialog says the files are purged")
	api.Must(t, apitest.UserToken, `mutation($id: ID!) { forgetMemory(input: {id: $id}) { item { id } } }`,
		map[string]any{"id": created.CreateMemory.Item.ID}, &struct{}{})

	waitCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	_, err = listen.WaitForNotification(waitCtx)
	require.NoError(t, err, "no purge after the forget")
	require.Empty(t, grepDir(t, dataDir, []byte(marker)), "data files that still hold the forgotten text")
	require.True(t, apitest.WaitUntil(apitest.Wait, func() bool { return counterValue(t, api.App, "memory_purge_runs_total") >= 1 }),
		"the purge is counted in the metrics")
	require.Zero(t, counterValue(t, api.App, "memory_purge_failures_total"))
}

// counterValue is the value of the unlabelled counter name in a's metrics.
func counterValue(t *testing.T, a *app.App, name string) float64 {
	t.Helper()
	families, err := a.Metrics().Registry().Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() == name {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}
