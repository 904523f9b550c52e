package faults_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/pgcluster"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// ownCluster is a PostgreSQL cluster of one test, which it may stop and start again on the same port.
type ownCluster struct {
	dir  string
	port int

	mu sync.Mutex
	c  *pgcluster.Cluster
}

// startOwnCluster initialises and starts a throwaway cluster with a migrated database "memory"; it
// is stopped when the test ends, or by a watchdog process should the test binary die first (pg_ctl
// detaches the server from us).
func startOwnCluster(t *testing.T) *ownCluster {
	t.Helper()
	parent := t.TempDir()
	if os.Geteuid() == 0 {
		// As root the server runs as postgres, which must pass through the 0700 directory above.
		require.NoError(t, os.Chmod(filepath.Dir(parent), 0o711))
	}
	dir := filepath.Join(parent, "cluster")
	release := dbtest.Watchdog(t, dir)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Fast: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		release()
		t.Fatalf("start a throwaway PostgreSQL: %v", err)
	}
	oc := &ownCluster{dir: dir, port: c.Port(), c: c}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		oc.mu.Lock()
		defer oc.mu.Unlock()
		if err := oc.c.Stop(ctx); err != nil {
			t.Errorf("stop the test's PostgreSQL: %v", err)
		}
		release()
	})
	require.NoError(t, c.EnsureDatabase(ctx, "memory"))
	require.NoError(t, db.MigrateUp(c.URL("memory")))
	return oc
}

// url is the migrated database's URL; it stays valid across restarts (same port, same password).
func (oc *ownCluster) url() string {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	return oc.c.URL("memory")
}

// stop shuts the server down with pg_ctl stop -m fast: open sessions are rolled back and their
// connections closed, as in an operator's restart.
func (oc *ownCluster) stop(ctx context.Context) error {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	return oc.c.Stop(ctx)
}

// start starts the server again on its old port.
func (oc *ownCluster) start(ctx context.Context) error {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: oc.dir, Port: oc.port, Fast: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	oc.c = c
	return nil
}
