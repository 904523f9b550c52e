package faults_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
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

// watchdogEnv tells a copy of this test binary that it is the watchdog of the cluster directory it
// names (see startWatchdog).
const watchdogEnv = "FAULTS_PG_WATCHDOG_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(watchdogEnv); dir != "" {
		os.Exit(watch(dir))
	}
	os.Exit(dbtest.Main(m))
}

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
	release := startWatchdog(t, dir)
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

// startWatchdog starts a copy of the test binary that waits for this one to end (its stdin closes)
// and then stops the cluster in dir and removes it. The returned func releases it and waits: after a
// clean stop it finds nothing to do.
func startWatchdog(t *testing.T, dir string) (release func()) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	// Under -race the runtime sleeps a second before exiting, which release would wait out.
	race := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(os.Environ(), watchdogEnv+"="+dir, "GORACE="+race)
	cmd.Stdin = r
	// Its own session, so the Ctrl-C that kills the tests does not kill it too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		t.Fatalf("start the cluster watchdog: %v", err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			w.Close()
			if err := cmd.Wait(); err != nil {
				t.Errorf("cluster watchdog: %v", err)
			}
		})
	}
}

// watch is the watchdog's whole life: block until the test binary is gone, then clean up.
func watch(dir string) int {
	_, _ = io.Copy(io.Discard, os.Stdin)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := pgcluster.StopDir(ctx, dir, slog.New(slog.DiscardHandler)); err != nil {
		return 1
	}
	if err := os.RemoveAll(dir); err != nil {
		return 1
	}
	return 0
}
