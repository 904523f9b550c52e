package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
	"github.com/open-bot/memory/internal/dbtest"
)

// mcpSearch sends one search_history call to /mcp with token and returns the HTTP status and body.
func mcpSearch(ctx context.Context, client *http.Client, base, token string, id int) (int, string, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_history","arguments":{"query":"bike"}}}`, id)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// A search over /mcp takes one of the process's heavy slots (outside GraphQL's limits, MCP searches
// would take every connection of the request pool), as its GraphQL twin toolSearchHistory does:
// with a pool of 4 at most 2 searches hold a connection, however many are sent, and a user query is
// answered at once. The searches are held inside PostgreSQL by a lock on messages (a real pool,
// real waits): each one that got a connection keeps it until the lock is released.
func TestMCPSearchesTakeTheHeavySlots(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	api := apitest.StartWith(t, url, func(o *app.Options) { o.DBMaxConns = 4 })
	w := world{api: api, t: t}
	tm := w.teammate("Quinn")
	// Three runs: one run's calls wait for each other before they take a slot (runGates).
	var tokens []string
	for range 3 {
		tokens = append(tokens, w.startRun(tm, "", "Where did I leave my bike?").RunToken)
	}

	ctx := t.Context()
	unlock, waiting := lockMessages(t, url)
	defer unlock()

	const searches = 12
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: searches}}
	t.Cleanup(client.CloseIdleConnections)
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make(chan answer, searches)
	for i := range searches {
		go func() {
			status, body, err := mcpSearch(ctx, client, api.URL, tokens[i%len(tokens)], i+1)
			answers <- answer{status, body, err}
		}()
	}

	// Wait until the searches hold all they can get: the whole pool of 4 without the slots, which
	// would take a few milliseconds; 2 with them, which holds for the whole wait.
	most := 0
	apitest.WaitUntil(3*time.Second, func() bool {
		most = max(most, waiting())
		return most >= 4
	})
	require.GreaterOrEqual(t, most, 2, "the searches reached the database")

	// A light user query is answered while the searches are stuck.
	gql := apitest.NewClient(api.URL, 1)
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	began := time.Now()
	var out struct{ Teammates []struct{ ID string } }
	err := gql.Call(qctx, user, `query { teammates { id } }`, nil, &out)
	took := time.Since(began)
	most = max(most, waiting())
	t.Logf("%d MCP searches stuck in the database: %d held a connection; a user query took %v", searches, most, took.Round(time.Millisecond))
	assert.NoError(t, err, "the user query, after %v", took)
	assert.Less(t, took, 2*time.Second, "the user query waited for a connection")
	assert.LessOrEqual(t, most, 2, "MCP searches held more than the heavy slots (half the pool)")

	// Once the lock goes, every search is answered.
	unlock()
	for range searches {
		select {
		case a := <-answers:
			require.NoError(t, a.err)
			assert.Equal(t, http.StatusOK, a.status, a.body)
			assert.Contains(t, a.body, "3 messages found", a.body)
		case <-time.After(30 * time.Second):
			t.Fatal("a search was never answered")
		}
	}
}

// One run's parallel heavy calls take one heavy slot between them, not all of them: its calls are
// serialised by its run row anyway, and the others would otherwise hold slots while they wait for
// it. Here the run's searches are stuck behind a lock on messages while the user asks for a recall,
// itself a heavy field, which must get the slot left.
func TestOneRunsSearchesTakeOneHeavySlot(t *testing.T) {
	t.Parallel()
	url := dbtest.URL(t)
	api := apitest.StartWith(t, url, func(o *app.Options) { o.DBMaxConns = 4 })
	w := world{api: api, t: t}
	quinn, rae := w.teammate("Quinn"), w.teammate("Rae")
	w.createMemory(&rae, "Keeps the bike in the shed")
	run := w.startRun(quinn, "", "Where did I leave my bike?")

	ctx := t.Context()
	unlock, waiting := lockMessages(t, url)
	defer unlock()

	const searches = 8
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: searches}}
	t.Cleanup(client.CloseIdleConnections)
	errs := make(chan error, searches)
	for i := range searches {
		go func() {
			status, body, err := mcpSearch(ctx, client, api.URL, run.RunToken, i+1)
			if err == nil && status != http.StatusOK {
				err = fmt.Errorf("status %d: %s", status, body)
			}
			errs <- err
		}()
	}
	apitest.WaitUntil(3*time.Second, func() bool { return waiting() >= 2 })
	require.GreaterOrEqual(t, waiting(), 1, "the searches reached the database")

	// Without the gate the recall waits for a slot until the lock goes, which is after this call:
	// the deadline is that failure's signal, not a speed target.
	gql := apitest.NewClient(api.URL, 1)
	qctx, cancel := context.WithTimeout(ctx, apitest.Wait)
	defer cancel()
	began := time.Now()
	var out struct{ RecallPreview struct{ Text string } }
	err := gql.Call(qctx, user, `query($tm: ID!) { recallPreview(teammateId: $tm, query: "bike") { text } }`, map[string]any{"tm": rae}, &out)
	took := time.Since(began)
	t.Logf("%d MCP searches of one run stuck in the database (%d waiting on a lock); a user's recall took %v", searches, waiting(), took.Round(time.Millisecond))
	require.NoError(t, err, "the user's recall waited for a heavy slot that one run's queued calls held (%v)", took)
	assert.Contains(t, out.RecallPreview.Text, "Keeps the bike in the shed")

	unlock()
	for range searches {
		select {
		case err := <-errs:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("a search was never answered")
		}
	}
}

// lockMessages locks the messages table, so that every history search stuck behind it holds its
// connection of the API's pool, until unlock (which may be called more than once); waiting counts
// the API's backends waiting for a lock: the searches holding a connection.
func lockMessages(t *testing.T, url string) (unlock func(), waiting func() int) {
	t.Helper()
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	lock, err := conn.Begin(ctx)
	require.NoError(t, err)
	_, err = lock.Exec(ctx, `LOCK TABLE messages IN ACCESS EXCLUSIVE MODE`)
	require.NoError(t, err)
	unlocked := false
	unlock = func() {
		if !unlocked {
			unlocked = true
			require.NoError(t, lock.Rollback(ctx))
		}
	}
	probe, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { probe.Close(context.Background()) })
	waiting = func() int {
		var n int
		require.NoError(t, probe.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = 'memory-api' AND wait_event_type = 'Lock'`).Scan(&n))
		return n
	}
	return unlock, waiting
}

// A websocket subscription outlives the write timeout: a socket is not cut off when its upgrade
// request's deadline passes (gorilla clears the deadlines as it takes the connection over, and the
// write deadline is never armed on an upgrade). Pings written well past the timeout are answered,
// and an event then still arrives.
func TestSubscriptionOutlivesTheWriteTimeout(t *testing.T) {
	t.Parallel()
	const timeout = 200 * time.Millisecond
	api := apitest.StartWith(t, dbtest.URL(t), func(o *app.Options) {
		o.Limits.WriteTimeout = timeout
		o.PingPongInterval = 150 * time.Millisecond
	})
	w := world{api: api, t: t}
	tm := w.teammate("Ada")
	began := time.Now()
	sub := subscribeWS(t, api, "user", user, `subscription($s: ScopeInput!) { memoryChanged(scope: $s) { itemId status } }`,
		map[string]any{"s": map[string]any{"teammateId": tm}})
	require.Eventually(t, func() bool { return api.App.Broker().Subscribers() >= 1 }, apitest.Wait, 10*time.Millisecond)
	sub.ws.AwaitPings(t, 6)
	require.Greater(t, time.Since(began), 4*timeout, "the pings came after the timeout")
	created := w.createMemory(&tm, "Likes the colour green")
	assert.Equal(t, change{created.ID, "ACTIVE"}, sub.nextChange(t))
}

// The size of a response that needs many writes to reach a client: 16 pages of 100 items of 4,000
// characters, each escaped to 8,000 bytes (about 13 MB; the complexity limit allows 16 pages).
const bigQueryAliases = 16

func bigQuery() string {
	var b strings.Builder
	b.WriteString("query($t: ID) {")
	for i := range bigQueryAliases {
		fmt.Fprintf(&b, ` p%d: memoryItems(scope: {teammateId: $t}, first: 100) { edges { node { content } } }`, i)
	}
	b.WriteString("}")
	return b.String()
}

// neverReader sends a POST of query to addr on a connection that reads nothing, with a receive
// buffer of 4 KiB: the server's writes stop once the socket buffers fill.
func neverReader(t *testing.T, addr, query string, vars map[string]any) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.DialContext(t.Context(), "tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	_, err = fmt.Fprintf(conn, "POST /graphql HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		addr, user, len(body), body)
	require.NoError(t, err)
	return conn
}

// hasBytesWaiting reports whether conn has received bytes it hasn't read, without reading them.
func hasBytesWaiting(t *testing.T, conn net.Conn) bool {
	raw, err := conn.(*net.TCPConn).SyscallConn()
	require.NoError(t, err)
	n := 0
	require.NoError(t, raw.Read(func(fd uintptr) bool {
		n, _, _ = syscall.Recvfrom(int(fd), make([]byte, 1), syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return true
	}))
	return n > 0
}

// poll checks cond every interval until it holds or timeout passes, and reports whether it held
// (apitest.WaitUntil, less often: cond here collects the heap).
func poll(timeout, interval time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
	}
	return true
}

// heapInUse is the heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// A response must reach its client within the write timeout (without one, clients that never read
// hold their responses for as long as they keep the connection open): three clients that read
// nothing are cut off — each later gets less than the response and then the end of the connection —
// and the memory their responses held is released. Not parallel: it measures the process's heap.
func TestNeverReadingClientIsCutOff(t *testing.T) {
	const timeout = 2 * time.Second
	api := apitest.StartWith(t, dbtest.URL(t), func(o *app.Options) { o.Limits.WriteTimeout = timeout })
	w := world{api: api, t: t}
	tm := w.teammate("Ada")
	content := strings.Repeat(`"`, 4000) // 8,000 bytes once escaped in JSON
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			_, err := api.Client.Post(t.Context(), apitest.Bearer(user),
				`mutation($t: ID, $c: String!) { createMemory(input: {scope: {teammateId: $t}, content: $c}) { item { id } } }`,
				map[string]any{"t": tm, "c": content})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	vars := map[string]any{"t": tm}
	full := api.Do(t, user, bigQuery(), vars)
	require.Empty(t, full.Errors)
	size := len(full.Data)
	require.Greater(t, size, 12<<20, "a response much larger than the socket buffers (a few MB)")

	base := heapInUse()
	const clients = 3
	conns := make([]net.Conn, clients)
	sent := time.Now()
	for i := range conns {
		conns[i] = neverReader(t, api.Addr, bigQuery(), vars)
	}
	// Wait until the server has started writing each response (the client has bytes waiting that it
	// doesn't read): gqlgen builds a response whole before it writes, so they are all held now.
	require.True(t, poll(time.Minute, 50*time.Millisecond, func() bool {
		for _, conn := range conns {
			if !hasBytesWaiting(t, conn) {
				return false
			}
		}
		return true
	}), "the server did not start answering")
	held := heapInUse()

	// The server gives up on each within the timeout once its writes stop, and the memory goes.
	var released uint64
	poll(timeout+apitest.Wait, 250*time.Millisecond, func() bool {
		released = heapInUse()
		return released < base+(held-base)/4
	})
	t.Logf("%d clients that never read a %d-byte response: heap in use %d MB before, %d MB while they were held, %d MB %v later (write timeout %v)",
		clients, size, base>>20, held>>20, released>>20, time.Since(sent).Round(100*time.Millisecond), timeout)
	assert.Less(t, released, base+(held-base)/4, "the responses' memory was not released")

	// Reading now gets what the sockets had buffered, then the end of the connection.
	for i, conn := range conns {
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(timeout)))
		got, err := io.Copy(io.Discard, conn)
		t.Logf("client %d: %d of about %d bytes before the connection ended (%v)", i, got, size, err)
		assert.Less(t, got, int64(size), "client %d got the whole response: it was never cut off", i)
		var nerr net.Error
		assert.False(t, errors.As(err, &nerr) && nerr.Timeout(), "client %d: the connection was still open after the timeout", i)
	}
}
