package faults_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
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
	// durable: fsync and synchronous_commit on, so that a commit answered is one a crash keeps.
	durable bool

	mu sync.Mutex
	c  *pgcluster.Cluster
}

// startOwnCluster initialises and starts a throwaway cluster with a migrated database "memory"; it
// is stopped when the test ends, or by a watchdog process should the test binary die first (pg_ctl
// detaches the server from us).
func startOwnCluster(t *testing.T) *ownCluster {
	t.Helper()
	return startCluster(t, false)
}

// startDurableCluster is startOwnCluster with durable commits (pgcluster.Options.Fast off), for a
// test that crashes the server and needs what it answered to have been kept.
func startDurableCluster(t *testing.T) *ownCluster {
	t.Helper()
	return startCluster(t, true)
}

func startCluster(t *testing.T, durable bool) *ownCluster {
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
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Fast: !durable, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		release()
		t.Fatalf("start a throwaway PostgreSQL: %v", err)
	}
	oc := &ownCluster{dir: dir, port: c.Port(), durable: durable, c: c}
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

// crash kills the server as a crash would (SIGQUIT to the postmaster: PostgreSQL's immediate
// shutdown, no checkpoint; the next start recovers from the WAL) and waits for it to be gone.
func (oc *ownCluster) crash(ctx context.Context) error {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	raw, err := os.ReadFile(filepath.Join(oc.dir, "pg", "postmaster.pid"))
	if err != nil {
		return err
	}
	first, _, _ := strings.Cut(string(raw), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return fmt.Errorf("postmaster.pid: %w", err)
	}
	if err := syscall.Kill(pid, syscall.SIGQUIT); err != nil {
		return err
	}
	for syscall.Kill(pid, 0) == nil {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond): // no signal tells us when another process exits
		}
	}
	return nil
}

// start starts the server again on its old port.
func (oc *ownCluster) start(ctx context.Context) error {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: oc.dir, Port: oc.port, Fast: !oc.durable, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	oc.c = c
	return nil
}
