// Package apitest is the one GraphQL test client of the repository and the harness that serves the
// real API (internal/app) on a test database. Start serves an App on loopback; Client speaks GraphQL
// over HTTP and WS speaks graphql-transport-ws, to that App or to any API at a base URL (the compiled
// binary that e2e and cmd/api run). It holds no rules and is imported by tests only.
package apitest

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/app"
)

// Tokens used by every test API.
const (
	UserToken   = "mu_test-user-token-0123456789abcdef"
	WorkerToken = "mw_test-worker-token-0123456789abcdef"
	// TombstoneKey keys every test API's tombstones (F3).
	TombstoneKey = "mk_test-tombstone-key-0123456789abcdef"
)

// Wait bounds every wait for the server in this package (a websocket message, a handshake, the event
// listener): long enough for a loaded CI machine running -race, short enough that a hang fails the
// test instead of the whole binary.
const Wait = 15 * time.Second

// API is one App served over HTTP on loopback until the test ends; the embedded Client talks to it.
type API struct {
	*Client
	// App is the running App, for tests that look inside it (Listener, Broker) or close it early.
	App *app.App
	// Addr is the host:port the server listens on, for tests that write HTTP by hand.
	Addr string
}

// Start serves an App on databaseURL (a migrated database, e.g. dbtest.URL(t)) until the test ends.
func Start(t testing.TB, databaseURL string) *API {
	t.Helper()
	return StartWith(t, databaseURL)
}

// StartWith is Start with the options adjusted by each of configure in turn (AI settings, limits,
// a logger) before the App starts. The App's own http.Server serves it, with the header and idle
// timeouts cmd/api has. It returns once the App's event listener is connected, so that a change made
// from then on reaches its subscribers.
func StartWith(t testing.TB, databaseURL string, configure ...func(*app.Options)) *API {
	t.Helper()
	o := app.Options{
		DatabaseURL: databaseURL, UserToken: UserToken, WorkerToken: WorkerToken, TombstoneKey: []byte(TombstoneKey),
		Log: slog.New(slog.DiscardHandler),
	}
	for _, c := range configure {
		c(&o)
	}
	a, err := app.New(context.Background(), o)
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = a.HTTPServer()
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	select {
	case <-a.Listener().Ready():
	case <-time.After(Wait):
		t.Fatal("the API's event listener did not connect")
	}
	return &API{Client: &Client{URL: srv.URL, HTTP: srv.Client()}, App: a, Addr: srv.Listener.Addr().String()}
}

// WaitUntil polls cond every 10 ms until it holds or timeout passes, and reports whether it held.
func WaitUntil(timeout time.Duration, cond func() bool) bool {
	deadline := time.After(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if cond() {
			return true
		}
		select {
		case <-deadline:
			return cond()
		case <-tick.C:
		}
	}
}
