package apitest

import (
	"os"
	"testing"

	"github.com/open-bot/memory/frontend"
)

// RequireWebApp skips t when the binary embeds no build of the web app (frontend/dist is empty until
// `make frontend`; a fresh clone has none), so that go test ./... passes there. With
// MEMORY_REQUIRE_WEBAPP set (make test sets it) a missing build fails t instead: the tests that need
// the app then can't be skipped by accident.
func RequireWebApp(t testing.TB) {
	t.Helper()
	if frontend.Built() {
		return
	}
	if os.Getenv("MEMORY_REQUIRE_WEBAPP") != "" {
		t.Fatal("frontend/dist holds no build of the web app, and MEMORY_REQUIRE_WEBAPP is set: run make frontend (make test does)")
	}
	t.Skip("frontend/dist holds no build of the web app (run make frontend); set MEMORY_REQUIRE_WEBAPP to fail instead")
}
