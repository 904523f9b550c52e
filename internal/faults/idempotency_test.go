package faults_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
)

// commitTag is PostgreSQL's answer to a COMMIT that committed: the CommandComplete message 'C',
// its length (4 + "COMMIT\x00") and the tag. The server sends it once the commit is durable.
var commitTag = []byte("C\x00\x00\x00\x0bCOMMIT\x00")

// commitCutter is a TCP proxy between the API and PostgreSQL that can make a commit succeed and its
// answer never arrive: armed with a needle (a text only one request sends), it watches for the
// connection whose client sends the needle, and when PostgreSQL answers that connection's COMMIT,
// it holds the answer back, calls crash (which kills the server) and closes the connection. The
// API sees its commit fail (UNAVAILABLE) although it committed.
type commitCutter struct {
	ln     net.Listener
	target string
	crash  func()

	mu     sync.Mutex
	needle []byte
	cut    chan struct{} // closed when the armed cut happened
}

func startCommitCutter(t *testing.T, target string, crash func()) *commitCutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &commitCutter{ln: ln, target: target, crash: crash}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		_ = ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { p.serve(client) })
		}
	})
	return p
}

// url is databaseURL (the cluster's) through the proxy.
func (p *commitCutter) url(databaseURL string) string {
	return strings.Replace(databaseURL, p.target, p.ln.Addr().String(), 1)
}

// arm makes the next COMMIT answered to the connection that sends needle be cut; the returned
// channel is closed once it was.
func (p *commitCutter) arm(needle string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.needle, p.cut = []byte(needle), make(chan struct{})
	return p.cut
}

// armed returns the needle while armed, else nil.
func (p *commitCutter) armed() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.needle
}

// fire is the cut: it disarms, crashes the server and says it is done.
func (p *commitCutter) fire() {
	p.mu.Lock()
	cut := p.cut
	p.needle, p.cut = nil, nil
	p.mu.Unlock()
	if cut != nil {
		p.crash()
		close(cut)
	}
}

func (p *commitCutter) serve(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer server.Close()
	var hot atomic.Bool // this connection sent the needle
	done := make(chan struct{})
	go func() { // client → server
		defer close(done)
		var tail []byte
		buf := make([]byte, 64<<10)
		for {
			n, err := client.Read(buf)
			if n > 0 {
				if needle := p.armed(); needle != nil && !hot.Load() {
					window := append(tail, buf[:n]...)
					hot.Store(bytes.Contains(window, needle))
					tail = window[max(0, len(window)-len(needle)):]
				}
				if _, err := server.Write(buf[:n]); err != nil {
					return
				}
			}
			if err != nil {
				_ = server.(*net.TCPConn).CloseWrite()
				return
			}
		}
	}()
	var tail []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := server.Read(buf)
		if n > 0 {
			if hot.Load() && p.armed() != nil {
				window := append(tail, buf[:n]...)
				if bytes.Contains(window, commitTag) {
					p.fire() // the COMMIT's answer is never forwarded
					return
				}
				tail = window[max(0, len(window)-len(commitTag)):]
			}
			if _, err := client.Write(buf[:n]); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	_ = client.Close()
	<-done
}

// TestCommitAnsweredUnavailableIsRetriedOnce: PostgreSQL is killed right after it committed a
// createMemory (and, after a restart, a teammate's toolRemember) and before its answer reached the
// API, which answers UNAVAILABLE. The client retries with the request's idempotency key once the
// database is back, as docs/API.md advises: the retry answers the item the first attempt committed,
// and exactly one item exists.
func TestCommitAnsweredUnavailableIsRetriedOnce(t *testing.T) {
	t.Parallel()
	began := time.Now()
	ctx := t.Context()
	pg := startDurableCluster(t)
	databaseURL := pg.url()
	u, err := url.Parse(databaseURL)
	require.NoError(t, err)
	target := u.Host
	var crashedAt time.Time
	proxy := startCommitCutter(t, target, func() {
		crashedAt = time.Now()
		crashCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := pg.crash(crashCtx); err != nil {
			t.Errorf("crash PostgreSQL: %v", err)
		}
	})
	logs := &syncBuffer{}
	api := apitest.StartWith(t, proxy.url(databaseURL), func(o *app.Options) {
		o.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("API log:\n%s", logs.String())
		}
	})
	gql := apitest.NewClient(api.URL, 4)
	var tm struct {
		CreateTeammate struct{ Teammate struct{ ID string } }
	}
	require.NoError(t, gql.Call(ctx, apitest.UserToken, qCreateTeammate, map[string]any{"name": "Ada"}, &tm))
	teammate := tm.CreateTeammate.Teammate.ID

	conn := func() *pgx.Conn {
		c, err := pgx.Connect(ctx, pg.url())
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close(context.Background()) })
		return c
	}
	// crashThenRetry sends the request (with needle in its input) through the armed proxy, expects
	// UNAVAILABLE, restarts PostgreSQL, waits for the API to be ready, and returns the retry's answer.
	crashThenRetry := func(name, needle string, send func() (apitest.Result, error)) (apitest.Result, time.Duration) {
		t.Helper()
		cut := proxy.arm(needle)
		res, err := send()
		require.NoError(t, err, "%s: the API answers", name)
		select {
		case <-cut:
		case <-time.After(time.Minute):
			t.Fatalf("%s: the commit was never cut", name)
		}
		require.Equal(t, "UNAVAILABLE", res.Code(), "%s: the committed write answered %s", name, res.Errors)
		startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		require.NoError(t, pg.start(startCtx), "%s: restart after the crash", name)
		require.True(t, apitest.WaitUntil(time.Minute, func() bool {
			code, _, err := readyz(api.URL)
			return err == nil && code == http.StatusOK
		}), "%s: the API is ready again after the restart", name)
		recovered := time.Since(crashedAt)
		retry, err := send()
		require.NoError(t, err)
		return retry, recovered
	}

	// createMemory.
	content := "crash probe " + uuid.NewString()
	vars := map[string]any{"content": content, "key": uuid.NewString()}
	const qCreate = `mutation($content: String!, $key: String) {
		createMemory(input: {scope: {teammateId: null}, content: $content, idempotencyKey: $key}) { item { id revision } } }`
	retry, recovered := crashThenRetry("createMemory", content, func() (apitest.Result, error) {
		return gql.Post(ctx, apitest.Bearer(apitest.UserToken), qCreate, vars)
	})
	var created struct {
		CreateMemory struct{ Item struct{ ID string } }
	}
	retry.Decode(t, &created)
	var (
		n         int
		id        string
		createdAt time.Time
	)
	require.NoError(t, conn().QueryRow(ctx, `SELECT count(*) OVER (), id, created_at FROM memory_items WHERE content = $1`, content).
		Scan(&n, &id, &createdAt))
	assert.Equal(t, 1, n, "exactly one item after the retry")
	assert.Equal(t, id, created.CreateMemory.Item.ID, "the retry answers the item the first attempt committed")
	assert.True(t, createdAt.Before(crashedAt), "the item was committed by the first attempt, before the crash")
	t.Logf("createMemory: committed, answered UNAVAILABLE; API ready %v after the crash; the retry answered the committed item",
		recovered.Round(time.Millisecond))

	// A teammate's toolRemember, over its run credential.
	var run struct {
		StartRun struct{ RunToken string }
	}
	content = "crash probe " + uuid.NewString()
	require.NoError(t, gql.Call(ctx, apitest.WorkerToken, `mutation($t: ID!, $m: String!) {
		startRun(input: {teammateId: $t, message: $m}) { runToken } }`,
		map[string]any{"t": teammate, "m": "Please remember that " + content}, &run))
	vars = map[string]any{"content": content, "key": uuid.NewString()}
	const qRemember = `mutation($content: String!, $key: String) {
		toolRemember(input: {content: $content, idempotencyKey: $key}) { outcome adopted item { id status } } }`
	retry, recovered = crashThenRetry("toolRemember", content, func() (apitest.Result, error) {
		return gql.Post(ctx, apitest.Bearer(run.StartRun.RunToken), qRemember, vars)
	})
	var remembered struct {
		ToolRemember struct {
			Outcome string
			Adopted bool
			Item    struct{ ID, Status string }
		}
	}
	retry.Decode(t, &remembered)
	require.NoError(t, conn().QueryRow(ctx, `SELECT count(*) OVER (), id, created_at FROM memory_items WHERE content = $1`, content).
		Scan(&n, &id, &createdAt))
	assert.Equal(t, 1, n, "exactly one item after the retry")
	assert.Equal(t, id, remembered.ToolRemember.Item.ID, "the retry answers the item the first attempt committed")
	assert.Equal(t, "SAVED", remembered.ToolRemember.Outcome)
	assert.True(t, remembered.ToolRemember.Adopted, "the first answer's adoption")
	assert.True(t, createdAt.Before(crashedAt), "the item was committed by the first attempt, before the crash")
	t.Logf("toolRemember: committed, answered UNAVAILABLE; API ready %v after the crash; the retry answered the committed item; total %v",
		recovered.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))

	assert.NotContains(t, logs.String(), "crash probe", "F5: no memory text in the log")
}
