package server_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/dbtest"
)

// A run token unused for longer than MEMORY_RUN_IDLE_TIMEOUT stops working and its run is
// interrupted: when the token is next presented, or by the sweeper if it never is. Using the token
// keeps the run alive.
func TestRunTokenIdleTimeout(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	// This server's sweeper doesn't run during the test, so the token's presentation alone ends the
	// idle run.
	s := apitest.StartWith(t, databaseURL, settings, func(o *app.Options) { o.Limits.RunIdleTimeout = time.Hour })
	f := &matrixFixture{t: t, s: s, db: newSnapshots(t, databaseURL)}
	f.owner = s.CreateTeammate(t, "Ada")
	conn := f.db.conn
	lastActive := func(id string) time.Duration {
		var ago time.Duration
		require.NoError(t, conn.QueryRow(t.Context(), `SELECT now() - last_active_at FROM runs WHERE id = $1`, id).Scan(&ago))
		return ago
	}
	setIdle := func(id, interval string) {
		_, err := conn.Exec(t.Context(), `UPDATE runs SET last_active_at = now() - $2::interval WHERE id = $1`, id, interval)
		require.NoError(t, err)
	}
	const check = `mutation { checkRunGeneration { current } }`

	busy := f.startRun(f.owner, runMessage)
	setIdle(busy.ID, "50 minutes")
	f.mutate(busy.Token, check, nil)
	require.Less(t, lastActive(busy.ID), time.Minute, "using the token keeps its run alive")

	idle := f.startRun(f.owner, runMessage)
	setIdle(idle.ID, "61 minutes")
	res := s.Do(t, idle.Token, check, nil)
	require.Equal(t, "UNAUTHENTICATED", res.Code(), "errors %+v", res.Errors)
	status, hasToken := f.runStatus(t, idle.ID)
	require.Equal(t, "interrupted", status)
	require.False(t, hasToken, "an ended run keeps no token hash")
	var read struct{ Run struct{ Status string } }
	s.Must(t, userToken, `query($id: ID!) { run(id: $id) { status } }`, map[string]any{"id": idle.ID}, &read)
	require.Equal(t, "INTERRUPTED", read.Run.Status, "the user sees why the run ended")

	// Nobody presents this one again: the sweeper (of a second API process on the database) ends it.
	abandoned := f.startRun(f.owner, runMessage)
	setIdle(abandoned.ID, "2 hours")
	apitest.StartWith(t, databaseURL, settings, func(o *app.Options) {
		o.Limits.RunIdleTimeout = time.Hour
		o.ExpirySweepInterval = 20 * time.Millisecond
	})
	swept := apitest.WaitUntil(apitest.Wait, func() bool {
		status, _ := f.runStatus(t, abandoned.ID)
		return status == "interrupted"
	})
	require.True(t, swept, "the sweeper left an abandoned run running")
	status, _ = f.runStatus(t, busy.ID)
	require.Equal(t, "running", status, "the sweeper ended a run in use")
	f.mutate(busy.Token, check, nil)
}

// Logging out closes the websockets the session's cookie opened, with 4403; other sessions' stay.
func TestLogoutClosesTheSessionsWebsockets(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings)
	teammate := s.CreateTeammate(t, "Ada")
	leaving, staying := loginCookie(t, s), loginCookie(t, s)
	open := func(cookie *http.Cookie) *apitest.WS {
		c := s.MustDialWS(t, http.Header{"Cookie": {cookie.String()}, "Origin": {s.URL}})
		require.NoError(t, c.Init(map[string]any{}))
		subscribeGeneration(t, s, c, "1", teammate)
		return c
	}
	gone, kept := open(leaving), open(staying)

	require.Equal(t, http.StatusNoContent, logout(t, s, leaving).StatusCode)
	gone.ExpectClose(t, auth.CloseForbidden)
	subscribeGeneration(t, s, kept, "2", teammate)

	// Nor can the logged-out cookie open a new one.
	c := s.MustDialWS(t, http.Header{"Cookie": {leaving.String()}, "Origin": {s.URL}})
	require.NoError(t, c.SendInit(map[string]any{}))
	c.ExpectClose(t, auth.CloseForbidden)
}

// An expired session is refused like a logged-out one, and the sweeper deletes it.
func TestSessionExpires(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings, func(o *app.Options) { o.ExpirySweepInterval = 20 * time.Millisecond })
	cookie := loginCookie(t, s)
	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(t.Context()) })
	_, err = conn.Exec(t.Context(), `UPDATE web_sessions SET expires_at = now() - interval '1 second'`)
	require.NoError(t, err)
	res := s.DoWith(t, http.Header{"Cookie": {cookie.String()}}, `{ teammates { id } }`, nil)
	require.Equal(t, "UNAUTHENTICATED", res.Code())
	purged := apitest.WaitUntil(apitest.Wait, func() bool {
		var n int
		require.NoError(t, conn.QueryRow(t.Context(), `SELECT count(*) FROM web_sessions`).Scan(&n))
		return n == 0
	})
	require.True(t, purged, "the sweeper kept an expired session")
}

// A run token that can't be checked because the database is unreachable is not an ended run: the
// request is answered 503 with the retryable UNAVAILABLE over /graphql, /mcp and /export, and a
// connection_init is closed with 1013 (try again later). Not UNAUTHENTICATED, 401 or 4403, which
// would tell a worker or an agent that its run is over. Once the database is back, the same token
// works: its run was not ended.
func TestRunTokenDuringAnOutage(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings)
	f := &matrixFixture{t: t, s: s, db: newSnapshots(t, databaseURL)}
	f.owner = s.CreateTeammate(t, "Ada")
	run := f.startRun(f.owner, runMessage)
	const check = `mutation { checkRunGeneration { current } }`

	// The outage, of this test's database alone: it refuses new connections, and the API's are ended
	// (from the cluster's maintenance database: a database can't refuse its own session's).
	cfg, err := pgx.ParseConfig(databaseURL)
	require.NoError(t, err)
	name := cfg.Database
	admin, err := pgx.Connect(t.Context(), dbtest.AdminURL(t))
	require.NoError(t, err)
	t.Cleanup(func() { admin.Close(context.Background()) })
	allowConnections := func(allow bool) {
		_, err := admin.Exec(context.Background(), fmt.Sprintf(`ALTER DATABASE %s ALLOW_CONNECTIONS %t`, pgx.Identifier{name}.Sanitize(), allow))
		require.NoError(t, err)
	}
	allowConnections(false)
	t.Cleanup(func() { allowConnections(true) })
	_, err = admin.Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, name)
	require.NoError(t, err)

	res := s.Do(t, run.Token, check, nil)
	require.Equal(t, http.StatusServiceUnavailable, res.Status, "errors %+v", res.Errors)
	require.Equal(t, "UNAVAILABLE", res.Code())
	status, _ := postMCP(t, f, apitest.Bearer(run.Token), mcpOp{tool: "search_memory"}, map[string]any{"query": "tea"})
	require.Equal(t, http.StatusServiceUnavailable, status, "/mcp")
	// The web app's download is classified as GraphQL is: the outage is UNAVAILABLE, not a defect.
	res2, body := s.Fetch(t, "/export?scope=shared", apitest.Bearer(userToken))
	require.Equal(t, http.StatusServiceUnavailable, res2.StatusCode, "/export: %s", body)
	require.Contains(t, body, `"code":"UNAVAILABLE"`)
	c := s.MustDialWS(t, nil)
	require.NoError(t, c.SendInit(map[string]any{"authorization": "Bearer " + run.Token}))
	c.ExpectClose(t, auth.CloseTryAgainLater)

	// The database is back: the token works again once the pool has dropped its ended connections —
	// a client retries UNAVAILABLE, and is never told the run is over.
	allowConnections(true)
	works := apitest.WaitUntil(apitest.Wait, func() bool {
		code := s.Do(t, run.Token, check, nil).Code()
		require.Contains(t, []string{"", "UNAVAILABLE"}, code)
		return code == ""
	})
	require.True(t, works, "the run token still doesn't work after the outage")
	var read struct{ Run struct{ Status string } }
	s.Must(t, userToken, `query($id: ID!) { run(id: $id) { status } }`, map[string]any{"id": run.ID}, &read)
	require.Equal(t, "RUNNING", read.Run.Status, "the outage ended the run")
}
