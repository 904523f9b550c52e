package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// enabled is set by TestMain when MEMORY_E2E=1 (make e2e); every test skips otherwise.
var enabled bool

// The suite's shared state, set up once by TestMain.
var (
	srv     *server
	user    api
	worker  api             // the worker's credential: starts runs
	browser context.Context // the signed-in browser; every test opens its own tabs in it
	// allocator is the Chromium process, for tests that need a browser context without the cookie.
	allocator context.Context
	// serverBin and workDir let tests start more servers (the demo's) of the same binary.
	serverBin, workDir string
)

// chromiumPath is Debian's Chromium, installed by scripts/bootstrap-chromium.sh.
const chromiumPath = "/usr/bin/chromium"

func TestMain(m *testing.M) {
	if os.Getenv("MEMORY_E2E") != "1" {
		// Run nothing, so that `go test ./...` reports this package as "[no tests to run]" rather
		// than a bare "ok" that reads like a pass of the browser tests. `make e2e` runs them.
		if flag.Lookup("test.run").Value.String() == "" {
			_ = flag.Set("test.run", "^$")
		}
		fmt.Fprintln(os.Stderr, "e2e: skipped: the browser tests run with MEMORY_E2E=1 (make e2e)")
		os.Exit(m.Run())
	}
	enabled = true
	os.Exit(runSuite(m))
}

func runSuite(m *testing.M) int {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "memory-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	// As root the embedded cluster runs as the postgres user, which must pass through this directory.
	if err := os.Chmod(tmp, 0o711); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %s is missing: run scripts/bootstrap-chromium.sh (make e2e does)\n", chromiumPath)
		return 1
	}

	start := time.Now()
	// MEMORY_E2E_BIN tests a binary built elsewhere (it must embed the web app); by default the suite
	// builds ./cmd/api from this tree.
	bin := os.Getenv("MEMORY_E2E_BIN")
	if bin == "" {
		if bin, err = buildServer(ctx, "..", tmp); err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		}
	}
	serverBin, workDir = bin, tmp
	defer stopDemoServer()
	srv, err = startServer(ctx, bin, filepath.Join(tmp, "data"), filepath.Join(tmp, "server.log"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	user = srv.as(srv.userToken)
	worker = srv.as(srv.workerToken)
	code := 1
	defer func() {
		srv.stop()
		if code != 0 {
			saveServerLog()
		}
	}()

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox, // the suite runs as root in CI containers
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.Env("LANG=en_US.UTF-8", "TZ=UTC"),
		chromedp.UserDataDir(filepath.Join(tmp, "chromium")),
		chromedp.WindowSize(1280, 800),
	)...)
	defer cancelAlloc()
	allocator = allocCtx
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := signIn(browserCtx); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	browser = browserCtx
	fmt.Printf("e2e: server and signed-in browser ready in %s\n", time.Since(start).Round(100*time.Millisecond))

	code = m.Run()
	return code
}

// signIn opens the login link in the browser's first tab: the server sets the session cookie and
// redirects to the app, which then shows the teammates.
func signIn(ctx context.Context) error {
	if err := chromedp.Do(ctx); err != nil { // starts Chromium, with no timeout on its life
		return fmt.Errorf("starting Chromium: %w", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx,
		chromedp.Navigate(srv.base+"/login?token="+srv.userToken),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="teammates-page"]`)),
	); err != nil {
		return fmt.Errorf("signing in with the login link: %w", err)
	}
	return nil
}

// requireSuite skips the test unless the suite is enabled.
func requireSuite(t *testing.T) {
	t.Helper()
	if !enabled {
		t.Skip("browser tests run with `make e2e` (MEMORY_E2E=1)")
	}
}

func saveServerLog() {
	dir := artifactsDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	_ = os.WriteFile(filepath.Join(dir, "server.log"), []byte(srv.logTail()), 0o644)
	fmt.Fprintf(os.Stderr, "e2e: the server's log (tail) is in %s\n", filepath.Join(dir, "server.log"))
}

// artifactsDir is artifacts/e2e at the repository's root (git-ignored).
func artifactsDir() string {
	return filepath.Join("..", "artifacts", "e2e")
}
