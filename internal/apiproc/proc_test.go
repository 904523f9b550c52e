package apiproc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeAPIEnv, set in a child's environment, makes this test binary the fake API of fakeAPI instead
// of running the tests; its value is "ready" or "never" (a /readyz that never answers 200).
const fakeAPIEnv = "APIPROC_TEST_FAKE_API"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeAPIEnv); mode != "" {
		fakeAPI(mode)
		return
	}
	os.Exit(m.Run())
}

// fakeAPI stands in for cmd/api: it serves on MEMORY_ADDR a /readyz that answers 503 once and then
// 200 (never 200 in mode "never"), and an /env that lists its environment, until an interrupt.
func fakeAPI(mode string) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var asked atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if asked.Add(1) == 1 || mode == "never" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("/env", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(os.Environ())
	})
	srv := &http.Server{Addr: os.Getenv("MEMORY_ADDR"), Handler: mux}
	go func() { <-ctx.Done(); _ = srv.Close() }()
	fmt.Println("fake API listening")
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		fmt.Println(err)
		os.Exit(1)
	}
}

func testBinary(t *testing.T) string {
	t.Helper()
	bin, err := os.Executable()
	require.NoError(t, err)
	return bin
}

func TestStartPassesTheEnvironmentAndStopEndsTheProcess(t *testing.T) {
	ctx := context.Background()
	p, err := Start(ctx, Options{
		Bin:          testBinary(t),
		DatabaseURL:  "postgres://db.example/x",
		UserToken:    "mu_test",
		WorkerToken:  "mw_test",
		TombstoneKey: "mk_test",
		Env:          []string{fakeAPIEnv + "=ready", "MEMORY_LOG_LEVEL=debug", "EXTRA=1"},
		Debug:        true,
	})
	require.NoError(t, err)
	defer p.Stop()
	assert.True(t, strings.HasPrefix(p.URL, "http://127.0.0.1:"), p.URL)
	require.True(t, strings.HasPrefix(p.DebugURL, "http://127.0.0.1:"), p.DebugURL)
	assert.NotEqual(t, p.URL, p.DebugURL)
	assert.Positive(t, p.Pid())

	res, err := http.Get(p.URL + "/env")
	require.NoError(t, err)
	defer res.Body.Close()
	var env []string
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	last := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		last[k] = v // the process sees the last entry of a name
	}
	assert.Equal(t, "postgres://db.example/x", last["DATABASE_URL"])
	assert.Equal(t, strings.TrimPrefix(p.URL, "http://"), last["MEMORY_ADDR"])
	assert.Equal(t, "mu_test", last["MEMORY_USER_TOKEN"])
	assert.Equal(t, "mw_test", last["MEMORY_WORKER_TOKEN"])
	assert.Equal(t, "mk_test", last["MEMORY_TOMBSTONE_KEY"])
	assert.Equal(t, "debug", last["MEMORY_LOG_LEVEL"], "Options.Env comes after the fixed part")
	assert.Equal(t, "1", last["EXTRA"])
	assert.Equal(t, strings.TrimPrefix(p.DebugURL, "http://"), last["MEMORY_DEBUG_ADDR"])

	p.Stop()
	require.NotNil(t, p.cmd.ProcessState, "Stop waits for the process")
	assert.True(t, p.cmd.ProcessState.Exited(), "an interrupt ends the fake cleanly: %v", p.cmd.ProcessState)
	_, err = http.Get(p.URL + "/readyz")
	assert.Error(t, err, "nothing listens after Stop")
	p.Stop() // a second Stop does nothing
}

func TestStartWithoutDebugSetsNoDebugAddress(t *testing.T) {
	p, err := Start(context.Background(), Options{Bin: testBinary(t), Env: []string{fakeAPIEnv + "=ready"}})
	require.NoError(t, err)
	defer p.Stop()
	assert.Empty(t, p.DebugURL)
	assert.Equal(t, time.Minute, p.httpc.Timeout, "the default client's timeout")
	assert.NotContains(t, strings.Join(p.cmd.Env, "\n"), "MEMORY_DEBUG_ADDR=")
}

func TestStartGivesUpWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	started := time.Now()
	p, err := Start(ctx, Options{Bin: testBinary(t), Env: []string{fakeAPIEnv + "=never"}})
	require.Error(t, err)
	assert.Nil(t, p)
	assert.Less(t, time.Since(started), 20*time.Second)
	assert.Contains(t, err.Error(), "the API did not become ready")
	assert.Contains(t, err.Error(), "fake API listening", "the error holds the process's output")
}

func TestStopOfNilDoesNothing(t *testing.T) {
	var p *Proc
	p.Stop()
}

func TestDo(t *testing.T) {
	var gotAuth, gotType string
	var gotBody map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth, gotType = r.Header.Get("Authorization"), r.Header.Get("Content-Type")
		gotBody = nil
		_ = json.NewDecoder(r.Body).Decode(&gotBody)
		switch q, _ := gotBody["query"].(string); q {
		case "ok":
			fmt.Fprint(w, `{"data":{"teammate":{"id":"t1"}}}`)
		case "conflict":
			fmt.Fprint(w, `{"errors":[{"message":"stale","extensions":{"code":"CONFLICT","currentRevision":7}},{"message":"second"}],"data":null}`)
		default:
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "upstream down")
		}
	}))
	defer srv.Close()
	p := &Proc{URL: srv.URL, httpc: srv.Client()}
	ctx := context.Background()

	var out struct{ Teammate struct{ ID string } }
	require.NoError(t, p.Do(ctx, "mu_tok", "ok", map[string]any{"id": "t1"}, &out))
	assert.Equal(t, "t1", out.Teammate.ID)
	assert.Equal(t, "Bearer mu_tok", gotAuth)
	assert.Equal(t, "application/json", gotType)
	assert.Equal(t, map[string]any{"query": "ok", "variables": map[string]any{"id": "t1"}}, gotBody)

	require.NoError(t, p.Do(ctx, "mu_tok", "ok", nil, nil), "a nil out decodes nothing")

	err := p.Do(ctx, "mw_tok", "conflict", nil, &out)
	var ge *Error
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, Error{Code: "CONFLICT", Message: "stale", CurrentRevision: 7}, *ge)
	assert.Equal(t, "CONFLICT: stale", err.Error())
	assert.Equal(t, "Bearer mw_tok", gotAuth)

	err = p.Do(ctx, "mu_tok", "other", nil, &out)
	require.Error(t, err)
	assert.False(t, errors.As(err, &ge))
	assert.Equal(t, "HTTP 502: upstream down", err.Error())
}
