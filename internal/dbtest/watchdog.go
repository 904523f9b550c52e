package dbtest

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/open-bot/memory/internal/pgcluster"
)

// watchdogEnv tells a copy of the test binary that it is the watchdog for the cluster directory
// it names.
const watchdogEnv = "DBTEST_WATCHDOG_DIR"

// watchdog is a copy of the test binary that waits for the original to end and then stops and
// removes its cluster. pg_ctl detaches the server from us, so without it a test binary killed by
// Ctrl-C or by -timeout would leave a server running for good.
type watchdog struct {
	cmd  *exec.Cmd
	pipe *os.File // the watchdog wakes when this closes: on release, or when the kernel closes it for a dead process
}

func startWatchdog(dir string) (*watchdog, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-test.run=^$")
	// Under -race the runtime sleeps a second before exiting, which release would wait out.
	race := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(os.Environ(), watchdogEnv+"="+dir, "GORACE="+race)
	cmd.Stdin = r
	// Its own session, so the Ctrl-C that kills the tests does not kill it too. Its stdout and
	// stderr stay /dev/null, or go test would wait for it to close them.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	return &watchdog{cmd: cmd, pipe: w}, nil
}

// release wakes the watchdog and waits for it, so no process of ours outlives the tests. After a
// clean teardown it finds nothing left to do.
func (w *watchdog) release() error {
	if w == nil {
		return nil
	}
	w.pipe.Close()
	return w.cmd.Wait()
}

// watch is the watchdog's whole life: block until the test binary is gone, then clean up.
func watch(dir string) int {
	_, _ = io.Copy(io.Discard, os.Stdin)
	if _, err := os.Stat(dir); err != nil {
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

// Watchdog guards a cluster directory that a test runs itself (to stop and start PostgreSQL, say):
// should the test binary die before the test cleans up, a watchdog process stops the server in dir
// and removes it. It needs Main in the package's TestMain (the watchdog is a copy of the test
// binary, and Main is what makes that copy a watchdog). The returned func releases it and waits.
func Watchdog(t testing.TB, dir string) (release func()) {
	t.Helper()
	if !harness.mainCalled {
		t.Fatal("dbtest.Watchdog needs dbtest.Main in the package's TestMain")
	}
	wd, err := startWatchdog(dir)
	if err != nil {
		t.Fatalf("start the cluster watchdog: %v", err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if err := wd.release(); err != nil {
				t.Errorf("cluster watchdog: %v", err)
			}
		})
	}
}
