package server_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/server"
)

// A websocket that never sends connection_init is closed with graphql-transport-ws's 4408 once the
// init timeout passes, and not before; one that sent it in time outlives the timeout.
func TestWebsocketInitTimeout(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) {
		o.WebsocketInitTimeout = timeout
		o.PingPongInterval = 2 * timeout
	})

	t.Run("silent", func(t *testing.T) {
		t.Parallel()
		c := s.MustDialWS(t, nil)
		start := time.Now()
		_, err := c.Receive()
		elapsed := time.Since(start)
		closeErr, ok := errors.AsType[*websocket.CloseError](err)
		require.True(t, ok, "want a close frame, got %v", err)
		require.Equal(t, server.CloseInitTimeout, closeErr.Code)
		require.Equal(t, 4408, closeErr.Code)
		require.Equal(t, "Connection initialisation timeout", closeErr.Text)
		require.GreaterOrEqual(t, elapsed, timeout-50*time.Millisecond, "closed before the timeout")
		t.Logf("closed with %d after %v (timeout %v)", closeErr.Code, elapsed.Round(time.Millisecond), timeout)
	})
	t.Run("initialised in time", func(t *testing.T) {
		t.Parallel()
		teammate := s.CreateTeammate(t, "Ada")
		c := s.MustDialWS(t, nil)
		require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + workerToken}))
		// Two keep-alive pings come at twice and four times the init timeout: the connection is
		// still open well after it.
		c.AwaitPings(t, 2)
		subscribeGeneration(t, s, c, "1", teammate)
	})
}

// One websocket holds at most MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CONNECTION subscriptions at once. The
// one beyond is refused with SUBSCRIPTION_LIMIT_EXCEEDED and the connection and its other
// subscriptions carry on; completing one makes room at once.
func TestSubscriptionCapPerConnection(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.Limits.WSMaxSubscriptionsPerConnection = 3 })
	teammate := s.CreateTeammate(t, "Ada")

	c := s.MustDialWS(t, nil)
	require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	for _, id := range []string{"1", "2", "3"} {
		subscribeGeneration(t, s, c, id, teammate)
	}
	require.NoError(t, c.Subscribe("4", generationSubscription, map[string]any{"id": teammate}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, c.ExpectFailedNext(t, "4"))

	// The three still deliver.
	createMemory(t, s, teammate, "Prefers tea")
	got := map[string]bool{}
	for range 3 {
		m := c.Read(t)
		require.Equal(t, "next", m.Type, "%s", m.Payload)
		got[m.ID] = true
	}
	require.Equal(t, map[string]bool{"1": true, "2": true, "3": true}, got)

	// gqlgen confirms a client's complete after the subscription has released its place.
	require.NoError(t, c.Send(apitest.WSMessage{ID: "2", Type: "complete"}))
	c.ExpectComplete(t, "2")
	subscribeGeneration(t, s, c, "5", teammate)
	require.NoError(t, c.Subscribe("6", generationSubscription, map[string]any{"id": teammate}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, c.ExpectFailedNext(t, "6"))

	// Another connection has places of its own.
	other := s.MustDialWS(t, nil)
	require.NoError(t, other.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	subscribeGeneration(t, s, other, "1", teammate)
}

// One credential holds at most MEMORY_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL subscriptions over all its
// websockets, so opening more sockets doesn't get around the per-connection cap; other credentials
// are not affected, and a closed socket gives its places back.
func TestSubscriptionCapPerCredential(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.Limits.WSMaxSubscriptionsPerCredential = 3 })
	teammate := s.CreateTeammate(t, "Ada")

	first := s.MustDialWS(t, nil)
	require.NoError(t, first.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	subscribeGeneration(t, s, first, "1", teammate)
	subscribeGeneration(t, s, first, "2", teammate)
	second := s.MustDialWS(t, nil)
	require.NoError(t, second.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	subscribeGeneration(t, s, second, "1", teammate)
	require.NoError(t, second.Subscribe("2", generationSubscription, map[string]any{"id": teammate}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, second.ExpectFailedNext(t, "2"))

	user := s.MustDialWS(t, nil)
	require.NoError(t, user.Init(map[string]any{"authorization": "Bearer " + userToken}))
	for _, id := range []string{"1", "2", "3"} {
		subscribeGeneration(t, s, user, id, teammate)
	}

	// The server notices the closed socket on its own time: subscribe until a place is free.
	first.Close()
	n := 2
	freed := apitest.WaitUntil(apitest.Wait, func() bool {
		n++
		id := fmt.Sprint(n)
		require.NoError(t, second.Subscribe(id, generationSubscription, map[string]any{"id": teammate}))
		m := second.Read(t)
		require.Equal(t, apitest.WSMessage{ID: id, Type: "next"}, apitest.WSMessage{ID: m.ID, Type: m.Type})
		var result apitest.Result
		require.NoError(t, json.Unmarshal(m.Payload, &result))
		if len(result.Errors) > 0 {
			require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, result.Codes())
			second.ExpectComplete(t, id)
			return false
		}
		return true
	})
	require.True(t, freed, "the closed connection's subscriptions still count")
}

// Runs count toward the worker's cap: the worker starts runs at will, so a cap for each run would let
// one worker hold as many subscriptions as the connection caps allow (2,000 websockets × 100). The
// user's cap is its own.
func TestSubscriptionCapCountsRunsWithTheWorker(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings, func(o *app.Options) { o.Limits.WSMaxSubscriptionsPerCredential = 3 })
	f := &matrixFixture{t: t, s: s, db: newSnapshots(t, databaseURL)}
	f.owner = s.CreateTeammate(t, "Ada")
	dial := func(token string) *apitest.WS {
		c := s.MustDialWS(t, nil)
		require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + token}))
		return c
	}
	subscribeGeneration(t, s, dial(workerToken), "1", f.owner)
	subscribeGeneration(t, s, dial(f.startRun(f.owner, runMessage).Token), "1", f.owner)
	second := dial(f.startRun(f.owner, runMessage).Token)
	subscribeGeneration(t, s, second, "1", f.owner)
	require.NoError(t, second.Subscribe("2", generationSubscription, map[string]any{"id": f.owner}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, second.ExpectFailedNext(t, "2"), "a run beyond the worker's cap")
	third := dial(f.startRun(f.owner, runMessage).Token)
	require.NoError(t, third.Subscribe("1", generationSubscription, map[string]any{"id": f.owner}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, third.ExpectFailedNext(t, "1"), "a new run beyond the worker's cap")

	user := dial(userToken)
	for _, id := range []string{"1", "2", "3"} {
		subscribeGeneration(t, s, user, id, f.owner)
	}
}

// An API process holds at most MEMORY_WS_MAX_CONNECTIONS authenticated websockets: an upgrade
// that carries a credential beyond it is refused with 503 and CONNECTION_LIMIT_EXCEEDED before any
// protocol starts, a socket that authenticates in connection_init beyond it is closed with 1013
// (try again later), HTTP requests are still served, and a closed socket makes room.
func TestWebsocketConnectionCap(t *testing.T) {
	t.Parallel()
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.Limits.WSMaxConnections = 2 })
	first := s.MustDialWS(t, nil)
	require.NoError(t, first.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	second := s.MustDialWS(t, nil)
	require.NoError(t, second.Init(map[string]any{"authorization": "Bearer " + workerToken}))

	c, res, err := apitest.DialWS(t.Context(), s.URL, apitest.Bearer(workerToken))
	require.ErrorIs(t, err, websocket.ErrBadHandshake)
	require.Nil(t, c)
	require.Equal(t, http.StatusServiceUnavailable, res.Status)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.Equal(t, "CONNECTION_LIMIT_EXCEEDED", res.Code(), "errors %+v", res.Errors)
	requireHealthy(t, s)

	third := s.MustDialWS(t, nil) // not authenticated yet: it waits in a budget of its own
	require.NoError(t, third.SendInit(map[string]any{"authorization": "Bearer " + workerToken}))
	third.ExpectClose(t, auth.CloseTryAgainLater)

	first.Close()
	admitted := apitest.WaitUntil(apitest.Wait, func() bool {
		c, _, err := apitest.DialWS(t.Context(), s.URL, apitest.Bearer(workerToken))
		if err != nil {
			return false
		}
		t.Cleanup(c.Close)
		require.NoError(t, c.Init(map[string]any{}))
		return true
	})
	require.True(t, admitted, "the closed connection still counts")
}

// Sockets that never authenticate don't count toward MEMORY_WS_MAX_CONNECTIONS. They have
// MEMORY_WS_MAX_UNAUTHENTICATED places of their own, emptied by the init timeout; with more of them
// open than the connection cap, the web app (its session cookie on the upgrade) and a client that
// authenticates in connection_init both still connect and subscribe.
func TestUnauthenticatedSocketsDontLockOutTheUser(t *testing.T) {
	t.Parallel()
	const connections, unauthenticated = 2, 4
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) {
		o.Limits.WSMaxConnections = connections
		o.Limits.WSMaxUnauthenticated = unauthenticated
		o.WebsocketInitTimeout = time.Minute // the silent sockets stay for the whole test
	})
	teammate := s.CreateTeammate(t, "Ada")

	// One socket fewer than the budget, all more than the connection cap, none of them authenticated.
	for range unauthenticated - 1 {
		s.MustDialWS(t, nil)
	}
	// The user's app: the session cookie on the upgrade request.
	cookie := loginCookie(t, s)
	app := s.MustDialWS(t, http.Header{"Cookie": {cookie.String()}, "Origin": {s.URL}})
	require.NoError(t, app.Init(map[string]any{}))
	subscribeGeneration(t, s, app, "1", teammate)
	// A client that authenticates in connection_init takes the last unauthenticated place, then a
	// place of the connection cap.
	agent := s.MustDialWS(t, nil)
	require.NoError(t, agent.Init(map[string]any{"authorization": "Bearer " + workerToken}))
	subscribeGeneration(t, s, agent, "1", teammate)

	// The budget is full again: another socket without a credential is refused…
	s.MustDialWS(t, nil)
	c, res, err := apitest.DialWS(t.Context(), s.URL, nil)
	require.ErrorIs(t, err, websocket.ErrBadHandshake)
	require.Nil(t, c)
	require.Equal(t, http.StatusServiceUnavailable, res.Status)
	require.Equal(t, "CONNECTION_LIMIT_EXCEEDED", res.Code(), "errors %+v", res.Errors)
	assert.Contains(t, res.Errors[0].Message, "connection_init")
	// …and the user's app, which doesn't need it, still reconnects once its old socket is gone.
	app.Close()
	again := apitest.WaitUntil(apitest.Wait, func() bool {
		c, _, err := apitest.DialWS(t.Context(), s.URL, http.Header{"Cookie": {cookie.String()}, "Origin": {s.URL}})
		if err != nil {
			return false
		}
		t.Cleanup(c.Close)
		require.NoError(t, c.Init(map[string]any{}))
		subscribeGeneration(t, s, c, "1", teammate)
		return true
	})
	require.True(t, again, "the user's app was kept out")
}

// Each run has MEMORY_WS_MAX_SUBSCRIPTIONS_PER_RUN subscriptions of its own inside the worker's cap
// (so one run can't take all 2,000 the worker shares with its runs): a run beyond its cap is
// refused while another run, and the worker, still subscribe; a run's places come back when its
// subscriptions end.
func TestSubscriptionCapPerRun(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	s := apitest.StartWith(t, databaseURL, settings, func(o *app.Options) {
		o.Limits.WSMaxSubscriptionsPerRun = 2
		o.Limits.WSMaxSubscriptionsPerCredential = 5
	})
	f := &matrixFixture{t: t, s: s, db: newSnapshots(t, databaseURL)}
	f.owner = s.CreateTeammate(t, "Ada")
	dial := func(token string) *apitest.WS {
		c := s.MustDialWS(t, nil)
		require.NoError(t, c.Init(map[string]any{"authorization": "Bearer " + token}))
		return c
	}
	runToken := f.startRun(f.owner, runMessage).Token
	greedy := dial(runToken)
	subscribeGeneration(t, s, greedy, "1", f.owner)
	subscribeGeneration(t, s, greedy, "2", f.owner)
	require.NoError(t, greedy.Subscribe("3", generationSubscription, map[string]any{"id": f.owner}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, greedy.ExpectFailedNext(t, "3"), "a run beyond its own cap")
	// Another socket of the same run doesn't get around it.
	more := dial(runToken)
	require.NoError(t, more.Subscribe("1", generationSubscription, map[string]any{"id": f.owner}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, more.ExpectFailedNext(t, "1"), "the same run on another socket")

	other := dial(f.startRun(f.owner, runMessage).Token)
	subscribeGeneration(t, s, other, "1", f.owner)
	subscribeGeneration(t, s, other, "2", f.owner)
	subscribeGeneration(t, s, dial(workerToken), "1", f.owner)
	// The worker's cap (5) still holds over all of them.
	third := dial(f.startRun(f.owner, runMessage).Token)
	require.NoError(t, third.Subscribe("1", generationSubscription, map[string]any{"id": f.owner}))
	require.Equal(t, []string{"SUBSCRIPTION_LIMIT_EXCEEDED"}, third.ExpectFailedNext(t, "1"), "beyond the worker's cap")

	// Completing one of the greedy run's subscriptions gives it a place back.
	require.NoError(t, greedy.Send(apitest.WSMessage{ID: "1", Type: "complete"}))
	greedy.ExpectComplete(t, "1")
	subscribeGeneration(t, s, greedy, "4", f.owner)
}

// rawConn is a TCP connection to s for writing HTTP by hand.
func rawConn(t *testing.T, s *apitest.API) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", s.Addr, apitest.Wait)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	require.NoError(t, conn.SetDeadline(time.Now().Add(apitest.Wait)))
	return conn
}

// requireClosed reads until the server closes conn: an end of file, or a reset when the server
// closed with bytes of ours still unread (the kernel then answers with RST instead of FIN).
func requireClosed(t *testing.T, r io.Reader) {
	t.Helper()
	_, err := io.Copy(io.Discard, r)
	if !errors.Is(err, syscall.ECONNRESET) {
		require.NoError(t, err, "the server did not close the connection (io.Copy ends at EOF)")
	}
}

// A request whose body doesn't arrive within MEMORY_HTTP_BODY_TIMEOUT is answered 408 and its
// connection closed within the deadline. A trickle doesn't extend it: the deadline is for the whole
// body.
func TestStalledBodyIsClosedWithinTheDeadline(t *testing.T) {
	t.Parallel()
	const deadline = 500 * time.Millisecond
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.Limits.BodyTimeout = deadline })

	for name, trickle := range map[string]bool{"stalled": false, "trickling": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conn := rawConn(t, s)
			start := time.Now()
			header := "POST /graphql HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"
			if trickle {
				header += "Transfer-Encoding: chunked\r\n\r\n"
			} else {
				header += "Content-Length: 1000\r\n\r\n{\"query\": \""
			}
			_, err := fmt.Fprintf(conn, header, s.Addr, userToken)
			require.NoError(t, err)
			stop := make(chan struct{})
			defer close(stop)
			if trickle {
				go func() {
					tick := time.NewTicker(50 * time.Millisecond)
					defer tick.Stop()
					for {
						if _, err := io.WriteString(conn, "1\r\n \r\n"); err != nil {
							return
						}
						select {
						case <-stop:
							return
						case <-tick.C:
						}
					}
				}()
			}
			br := bufio.NewReader(conn)
			res, err := http.ReadResponse(br, nil)
			elapsed := time.Since(start)
			if trickle && errors.Is(err, syscall.ECONNRESET) {
				// The server closed with chunks of ours unread, and the reset overtook its answer.
				require.GreaterOrEqual(t, elapsed, deadline-50*time.Millisecond, "closed before the deadline")
				require.Less(t, elapsed, deadline+2*time.Second, "closed long after the deadline")
				return
			}
			require.NoError(t, err, "no answer within %v", apitest.Wait)
			var out apitest.Result
			require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
			require.Equal(t, http.StatusRequestTimeout, res.StatusCode, "errors %+v", out.Errors)
			require.Contains(t, out.Errors[0].Message, "did not arrive within 500ms")
			requireClosed(t, br)
			require.GreaterOrEqual(t, elapsed, deadline-50*time.Millisecond, "answered before the deadline")
			require.Less(t, elapsed, deadline+2*time.Second, "answered long after the deadline")
			t.Logf("%s body: 408 and closed after %v (deadline %v)", name, elapsed.Round(time.Millisecond), deadline)
		})
	}
	requireHealthy(t, s)
}

// A keep-alive connection that sends no further request is closed after MEMORY_HTTP_IDLE_TIMEOUT.
func TestIdleConnectionIsClosed(t *testing.T) {
	t.Parallel()
	const idle = 300 * time.Millisecond
	s := apitest.StartWith(t, dbtest.URL(t), settings, func(o *app.Options) { o.Limits.IdleTimeout = idle })
	conn := rawConn(t, s)
	_, err := fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", s.Addr)
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, err = io.Copy(io.Discard, res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	start := time.Now()
	requireClosed(t, br)
	elapsed := time.Since(start)
	require.GreaterOrEqual(t, elapsed, idle-50*time.Millisecond)
	t.Logf("idle connection closed after %v (timeout %v)", elapsed.Round(time.Millisecond), idle)
}
