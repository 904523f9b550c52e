package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/dbtest"
)

// The credentials every test server accepts.
const (
	userToken   = apitest.UserToken
	workerToken = apitest.WorkerToken
)

// TestMain runs the tests against the throwaway cluster, then checks that no goroutine outlived them:
// every App, httptest server and websocket a test opens must be closed by the test's cleanups.
func TestMain(m *testing.M) {
	code := dbtest.Main(m)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goroutines outlived the tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// settings are the options of every server in these tests, given to apitest.StartWith before a
// test's own: warnings and errors are logged (a masked INTERNAL error is logged there), and the
// sweeper runs only when a test sets its interval, so that it writes nothing behind a test's back.
func settings(o *app.Options) {
	o.Log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	o.ExpirySweepInterval = time.Hour
}

const createMemoryMutation = `mutation($tm: ID!, $content: String!) {
	createMemory(input: {scope: {teammateId: $tm}, content: $content}) { item { id } } }`

// createMemory adds an item to the teammate's own scope as the user, which bumps its generation.
func createMemory(t *testing.T, s *apitest.API, teammateID, content string) {
	t.Helper()
	var data struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	s.Must(t, userToken, createMemoryMutation, map[string]any{"tm": teammateID, "content": content}, &data)
	require.NotEmpty(t, data.CreateMemory.Item.ID)
}

// createMemoryAsync is createMemory on another goroutine, so that the test can keep reading a
// websocket meanwhile; the channel carries the outcome.
func createMemoryAsync(ctx context.Context, s *apitest.API, teammateID, content string) <-chan error {
	done := make(chan error, 1)
	go func() {
		done <- s.Call(ctx, userToken, createMemoryMutation, map[string]any{"tm": teammateID, "content": content}, nil)
	}()
	return done
}

// generation reads the teammate's generation over HTTP.
func generation(t *testing.T, s *apitest.API, teammateID string) string {
	t.Helper()
	var data struct{ Teammate struct{ Generation string } }
	s.Must(t, workerToken, `query($id: ID!) { teammate(id: $id) { generation } }`, map[string]any{"id": teammateID}, &data)
	require.NotEmpty(t, data.Teammate.Generation)
	return data.Teammate.Generation
}

// teammateNames lists every teammate's name, read with the worker's token.
func teammateNames(t *testing.T, s *apitest.API) []string {
	t.Helper()
	var data struct{ Teammates []struct{ Name string } }
	s.Must(t, workerToken, `{ teammates { name } }`, nil, &data)
	names := []string{}
	for _, tm := range data.Teammates {
		names = append(names, tm.Name)
	}
	return names
}

// requireHealthy checks that the server still answers after a bad request: /healthz and a query.
func requireHealthy(t *testing.T, s *apitest.API) {
	t.Helper()
	res, body := s.Fetch(t, "/healthz", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	var data struct{ Teammates []struct{ ID string } }
	s.Must(t, userToken, `{ teammates { id } }`, nil, &data)
}
