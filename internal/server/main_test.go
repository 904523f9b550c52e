package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/dbtest"
)

// The credentials every test server accepts.
const (
	userToken   = "mu_test-user-token-0123456789abcdef"
	workerToken = "mw_test-worker-token-0123456789abcdef"
)

// wait bounds every wait for the server in these tests: long enough for a loaded CI machine running
// -race, short enough that a hang fails the test instead of the whole binary.
const wait = 15 * time.Second

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

// testLog keeps warnings and errors (a masked INTERNAL error is logged there) and drops the rest.
func testLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// apiServer is one app.App on a database, served over real HTTP.
type apiServer struct {
	*httptest.Server
	App *app.App
}

// startServer serves a new App on databaseURL until the test ends. Keep-alive pings are rare unless
// an option asks otherwise, so a test may leave a websocket unread for a while.
func startServer(t *testing.T, databaseURL string, opts ...func(*app.Options)) *apiServer {
	t.Helper()
	o := app.Options{
		DatabaseURL: databaseURL, UserToken: userToken, WorkerToken: workerToken, Log: testLog(),
		TombstoneKey:     []byte("mk_server-test-tombstone-key-0123456789"),
		PingPongInterval: time.Minute, ExpirySweepInterval: time.Hour,
	}
	for _, opt := range opts {
		opt(&o)
	}
	a, err := app.New(t.Context(), o)
	require.NoError(t, err)
	// The App's own http.Server (its timeouts) behind the test's listener: what cmd/api serves.
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = a.HTTPServer()
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	return &apiServer{Server: srv, App: a}
}

// newServer is startServer on a fresh database.
func newServer(t *testing.T, opts ...func(*app.Options)) *apiServer {
	t.Helper()
	return startServer(t, dbtest.URL(t), opts...)
}

// awaitListener waits until the server LISTENs, so that a change made from now on reaches its
// subscribers.
func (s *apiServer) awaitListener(t *testing.T) {
	t.Helper()
	select {
	case <-s.App.Listener().Ready():
	case <-time.After(wait):
		t.Fatal("the event listener did not connect")
	}
}

// gqlResponse is a GraphQL response with the HTTP status it came with.
type gqlResponse struct {
	Status int
	Header http.Header
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

type gqlError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// code is the first error's extensions.code, or "" without errors.
func (r gqlResponse) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	code, _ := r.Errors[0].Extensions["code"].(string)
	return code
}

// decode unmarshals data into v, failing the test if the response carries errors.
func (r gqlResponse) decode(t *testing.T, v any) {
	t.Helper()
	require.Empty(t, r.Errors, "GraphQL errors")
	require.Equal(t, http.StatusOK, r.Status)
	require.NoError(t, json.Unmarshal(r.Data, v), "data: %s", r.Data)
}

// bearer is the header for an API token.
func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}}
}

// do sends req and decodes the answer as a GraphQL response (a body that isn't JSON fails the test).
func (s *apiServer) do(t *testing.T, req *http.Request) gqlResponse {
	t.Helper()
	out, err := s.send(req)
	require.NoError(t, err)
	return out
}

// send is do for a goroutine other than the test's: it returns the error instead.
func (s *apiServer) send(req *http.Request) (gqlResponse, error) {
	res, err := s.Client().Do(req)
	if err != nil {
		return gqlResponse{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return gqlResponse{}, err
	}
	out := gqlResponse{Status: res.StatusCode, Header: res.Header}
	if err := json.Unmarshal(body, &out); err != nil {
		return out, fmt.Errorf("status %d, body %q: %w", res.StatusCode, body, err)
	}
	return out, nil
}

// post sends a GraphQL operation as JSON with header (credentials, usually).
func (s *apiServer) post(t *testing.T, header http.Header, query string, vars map[string]any) gqlResponse {
	t.Helper()
	req, err := s.postRequest(t.Context(), header, query, vars)
	require.NoError(t, err)
	return s.do(t, req)
}

func (s *apiServer) postRequest(ctx context.Context, header http.Header, query string, vars map[string]any) (*http.Request, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// get sends a GraphQL operation in the query string.
func (s *apiServer) get(t *testing.T, header http.Header, query string) gqlResponse {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
		s.URL+"/graphql?"+url.Values{"query": {query}}.Encode(), nil)
	require.NoError(t, err)
	req.Header = header.Clone()
	return s.do(t, req)
}

// createTeammate creates a teammate as the user and returns its id.
func (s *apiServer) createTeammate(t *testing.T, name string) string {
	t.Helper()
	var data struct {
		CreateTeammate struct{ Teammate struct{ ID string } }
	}
	s.post(t, bearer(userToken), `mutation($name: String!) { createTeammate(input: {name: $name}) { teammate { id } } }`,
		map[string]any{"name": name}).decode(t, &data)
	require.NotEmpty(t, data.CreateTeammate.Teammate.ID)
	return data.CreateTeammate.Teammate.ID
}

const createMemoryMutation = `mutation($tm: ID!, $content: String!) {
	createMemory(input: {scope: {teammateId: $tm}, content: $content}) { item { id } } }`

// createMemory adds an item to the teammate's own scope as the user, which bumps its generation.
func (s *apiServer) createMemory(t *testing.T, teammateID, content string) {
	t.Helper()
	var data struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	s.post(t, bearer(userToken), createMemoryMutation, map[string]any{"tm": teammateID, "content": content}).decode(t, &data)
	require.NotEmpty(t, data.CreateMemory.Item.ID)
}

// createMemoryAsync is createMemory on another goroutine, so that the test can keep reading a
// websocket meanwhile; the channel carries the outcome.
func (s *apiServer) createMemoryAsync(ctx context.Context, teammateID, content string) <-chan error {
	done := make(chan error, 1)
	go func() {
		req, err := s.postRequest(ctx, bearer(userToken), createMemoryMutation, map[string]any{"tm": teammateID, "content": content})
		if err == nil {
			var res gqlResponse
			if res, err = s.send(req); err == nil && (res.Status != http.StatusOK || len(res.Errors) > 0) {
				err = fmt.Errorf("createMemory: status %d, errors %+v", res.Status, res.Errors)
			}
		}
		done <- err
	}()
	return done
}

// generation reads the teammate's generation over HTTP.
func (s *apiServer) generation(t *testing.T, teammateID string) string {
	t.Helper()
	var data struct{ Teammate struct{ Generation string } }
	s.post(t, bearer(workerToken), `query($id: ID!) { teammate(id: $id) { generation } }`,
		map[string]any{"id": teammateID}).decode(t, &data)
	require.NotEmpty(t, data.Teammate.Generation)
	return data.Teammate.Generation
}

// teammateNames lists every teammate's name, read with the worker's token.
func (s *apiServer) teammateNames(t *testing.T) []string {
	t.Helper()
	var data struct{ Teammates []struct{ Name string } }
	s.post(t, bearer(workerToken), `{ teammates { name } }`, nil).decode(t, &data)
	names := []string{}
	for _, tm := range data.Teammates {
		names = append(names, tm.Name)
	}
	return names
}

// fetch GETs path and returns the response with its body read.
func (s *apiServer) fetch(t *testing.T, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+path, nil)
	require.NoError(t, err)
	res, err := s.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(body)
}

// requireHealthy checks that the server still answers after a bad request: /healthz and a query.
func (s *apiServer) requireHealthy(t *testing.T) {
	t.Helper()
	res, body := s.fetch(t, "/healthz")
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	var data struct{ Teammates []struct{ ID string } }
	s.post(t, bearer(userToken), `{ teammates { id } }`, nil).decode(t, &data)
}

// wsURL is the websocket address of the server's /graphql.
func (s *apiServer) wsURL() string {
	return "ws" + strings.TrimPrefix(s.URL, "http") + "/graphql"
}
