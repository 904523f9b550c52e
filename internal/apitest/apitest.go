// Package apitest starts the real API (internal/app) on a test database behind an httptest server
// and speaks GraphQL to it over HTTP, for tests that exercise the API end to end. It holds no rules
// and is imported by tests only.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
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

// API is one running API process over httptest.
type API struct {
	URL string
}

// Start runs the API on databaseURL (a migrated database, e.g. dbtest.URL(t)) until the test ends.
func Start(t testing.TB, databaseURL string) *API {
	t.Helper()
	return StartWith(t, databaseURL, nil)
}

// StartWith is Start with options adjusted by configure (AI settings, say) before the API starts.
func StartWith(t testing.TB, databaseURL string, configure func(*app.Options)) *API {
	t.Helper()
	o := app.Options{
		DatabaseURL: databaseURL, UserToken: UserToken, WorkerToken: WorkerToken, TombstoneKey: []byte(TombstoneKey),
		Log: slog.New(slog.DiscardHandler),
	}
	if configure != nil {
		configure(&o)
	}
	a, err := app.New(context.Background(), o)
	require.NoError(t, err)
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	select {
	case <-a.Listener().Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("the API's event listener did not connect")
	}
	return &API{URL: srv.URL}
}

// Error is one GraphQL error.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Result is a GraphQL response.
type Result struct {
	Data   json.RawMessage `json:"data"`
	Errors []Error         `json:"errors"`
}

// Code is the first error's extensions.code, or "" when there is no error.
func (r Result) Code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	code, _ := r.Errors[0].Extensions["code"].(string)
	return code
}

// Decode unmarshals data into v, failing the test if the response has errors.
func (r Result) Decode(t testing.TB, v any) {
	t.Helper()
	require.Empty(t, r.Errors, "GraphQL errors")
	require.NoError(t, json.Unmarshal(r.Data, v))
}

// Do posts one operation with token as bearer ("" sends none).
func (a *API) Do(t testing.TB, token, query string, vars map[string]any) Result {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, a.URL+"/graphql", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out Result
	require.NoError(t, json.Unmarshal(raw, &out), "response: %s", raw)
	return out
}

// Must is Do that fails the test on any error and decodes data into v.
func (a *API) Must(t testing.TB, token, query string, vars map[string]any, v any) {
	t.Helper()
	a.Do(t, token, query, vars).Decode(t, v)
}
