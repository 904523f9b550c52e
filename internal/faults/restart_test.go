package faults_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/apitest"
	"github.com/open-bot/memory/internal/app"
)

const (
	qCreateTeammate = `mutation($name: String!) { createTeammate(input: {name: $name}) { teammate { id } } }`
	qCreateMemory   = `mutation($scope: ScopeInput!, $content: String!) {
		createMemory(input: {scope: $scope, content: $content}) { item { id revision } } }`
	qEditMemory = `mutation($id: ID!, $base: Int!, $content: String!) {
		editMemory(input: {id: $id, baseRevision: $base, content: $content}) { item { id revision } } }`
	qGeneration      = `query($id: ID!) { teammate(id: $id) { generation } }`
	subGeneration    = `subscription($id: ID!) { generationChanged(teammateId: $id) { teammateId generation } }`
	subMemoryChanged = `subscription($scope: ScopeInput!) { memoryChanged(scope: $scope) { scope itemId revision status } }`
)

// ack is a write the API acknowledged: HTTP 200, no errors, the revision it made.
type ack struct {
	scope   string // "shared" or the teammate's id
	item    string
	rev     int
	content string
	sent    time.Time // when the request left
	acked   time.Time // when the answer arrived
}

// failure is a write attempt that was not acknowledged.
type failure struct {
	at  time.Time
	why string
}

// ledger is what the writers saw, shared by them and the test.
type ledger struct {
	mu       sync.Mutex
	acks     []ack
	failures map[string][]failure // by writer
	unacked  int                  // CONFLICTs that revealed an unacknowledged attempt had committed
}

func (l *ledger) ackCount(writer string, scope string, since time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, a := range l.acks {
		if a.scope == scope && strings.HasPrefix(a.content, writer+" ") && a.sent.After(since) {
			n++
		}
	}
	return n
}

func (l *ledger) failuresSince(writer string, since time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, f := range l.failures[writer] {
		if f.at.After(since) {
			n++
		}
	}
	return n
}

func (l *ledger) snapshot() []ack {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ack(nil), l.acks...)
}

// writer creates and edits items of its own in one scope, so any CONFLICT it meets can only come
// from an earlier attempt of its own that failed and yet committed.
type writer struct {
	name      string
	scope     string
	scopeVars map[string]any
	ids       []string
	revs      map[string]int  // latest revision known per item
	failed    map[string]bool // items with an attempt that was not acknowledged
}

func (w *writer) run(t *testing.T, gql *apitest.Client, l *ledger, stop <-chan struct{}) {
	ctx := context.Background() // requests are bounded by the client's timeout
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		content := fmt.Sprintf("%s write %d", w.name, n)
		create := len(w.ids) == 0 || n%5 == 0
		var id string
		var base int
		var res apitest.Result
		var err error
		sent := time.Now()
		if create {
			res, err = gql.Post(ctx, apitest.Bearer(apitest.UserToken), qCreateMemory, map[string]any{"scope": w.scopeVars, "content": content})
		} else {
			id = w.ids[n%len(w.ids)]
			base = w.revs[id]
			res, err = gql.Post(ctx, apitest.Bearer(apitest.UserToken), qEditMemory, map[string]any{"id": id, "base": base, "content": content})
		}
		switch {
		case err == nil && len(res.Errors) == 0:
			var data struct {
				CreateMemory, EditMemory *struct {
					Item struct {
						ID       string
						Revision int
					}
				}
			}
			if err := json.Unmarshal(res.Data, &data); err != nil {
				t.Errorf("%s: undecodable answer %s: %v", w.name, res.Data, err)
				return
			}
			payload := data.EditMemory
			want := base + 1
			if create {
				payload, want = data.CreateMemory, 1
			}
			if payload == nil || payload.Item.Revision != want {
				t.Errorf("%s: acknowledged %s, want revision %d", w.name, res.Data, want)
				return
			}
			if create {
				w.ids = append(w.ids, payload.Item.ID)
			}
			w.revs[payload.Item.ID] = payload.Item.Revision
			l.mu.Lock()
			l.acks = append(l.acks, ack{scope: w.scope, item: payload.Item.ID, rev: payload.Item.Revision,
				content: content, sent: sent, acked: time.Now()})
			l.mu.Unlock()
		case err == nil && res.Code() == "CONFLICT" && !create:
			current := res.CurrentRevision()
			if !w.failed[id] || current <= base {
				t.Errorf("%s: CONFLICT on an item only it writes (current %d, base %d, an attempt failed before: %v)",
					w.name, current, base, w.failed[id])
				return
			}
			w.revs[id] = current
			l.mu.Lock()
			l.unacked++
			l.mu.Unlock()
		default:
			why := res.Code()
			if err != nil {
				why = "transport: " + err.Error()
			}
			if !create {
				w.failed[id] = true
			}
			l.mu.Lock()
			l.failures[w.name] = append(l.failures[w.name], failure{at: time.Now(), why: why})
			l.mu.Unlock()
		}
	}
}

// describe summarises missing acknowledged writes for a failure message.
func describe(missing []ack) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d write(s)", len(missing))
	for i, a := range missing {
		if i == 5 {
			b.WriteString(", …")
			break
		}
		fmt.Fprintf(&b, ", %s@%d (%q)", a.item, a.rev, a.content)
	}
	return b.String()
}

// readyz returns /readyz's status and checks.
func readyz(base string) (int, map[string]string, error) {
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(base + "/readyz")
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var checks map[string]string
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &checks)
	return resp.StatusCode, checks, nil
}

// syncBuffer is an io.Writer for the API's log, dumped when the test fails.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestPostgresRestartUnderLoad restarts PostgreSQL (pg_ctl stop -m fast, then start on the same
// port) under a running API with websocket subscribers connected and writers writing, and checks
// RULES §6: /readyz says not ready during the outage and ready after it; the API recovers by itself;
// every acknowledged write is there afterwards with its revision, and no revision is skipped; the
// memoryChanged subscribers are completed cleanly after the listener's re-sync (or, if a future
// design keeps them open, receive every event committed after the restart), and once resubscribed
// receive every later event; the generationChanged subscriber converges on the current generation.
func TestPostgresRestartUnderLoad(t *testing.T) {
	t.Parallel()
	began := time.Now()
	ctx := t.Context()
	pg := startOwnCluster(t)
	t.Logf("cluster up on port %d in %v", pg.port, time.Since(began).Round(time.Millisecond))

	logs := &syncBuffer{}
	api := apitest.StartWith(t, pg.url(), func(o *app.Options) {
		o.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("API log:\n%s", logs.String())
		}
	})
	gql := apitest.NewClient(api.URL, 16)
	var tm struct {
		CreateTeammate struct{ Teammate struct{ ID string } }
	}
	require.NoError(t, gql.Call(ctx, apitest.UserToken, qCreateTeammate, map[string]any{"name": "Ada"}, &tm))
	teammate := tm.CreateTeammate.Teammate.ID
	scopes := map[string]map[string]any{teammate: {"teammateId": teammate}, "shared": {"teammateId": nil}}

	// Subscribers, each on its own connection.
	dial := func(name string) *apitest.WS {
		c, err := apitest.ConnectWS(ctx, api.URL, apitest.UserToken)
		require.NoError(t, err, name)
		t.Cleanup(c.Close)
		return c
	}
	gen := newSubscriber("generationChanged", dial("generation"), subGeneration, map[string]any{"id": teammate}, true)
	_, err := gen.start()
	require.NoError(t, err)
	require.True(t, apitest.WaitUntil(10*time.Second, func() bool { _, nexts, _, _ := gen.snapshot(); return len(nexts) > 0 }),
		"generationChanged sends the current generation at once")
	mem := map[string]*subscriber{}
	for scope, vars := range scopes {
		mem[scope] = newSubscriber("memoryChanged "+scope, dial("memory "+scope), subMemoryChanged, map[string]any{"scope": vars}, false)
	}

	l := &ledger{failures: map[string][]failure{}}
	// syncSubscription starts a new operation of the memory subscriber of scope and returns when it
	// is known to be registered: it has received the event of a write made after it started. Every
	// write sent after the returned time must reach it.
	markers := 0
	syncSubscription := func(scope string) (op int, since time.Time) {
		t.Helper()
		s := mem[scope]
		op, err := s.start()
		require.NoError(t, err)
		for range 20 {
			markers++
			content := fmt.Sprintf("marker %d", markers)
			var out struct {
				CreateMemory struct{ Item struct{ ID string } }
			}
			sent := time.Now()
			require.NoError(t, gql.Call(ctx, apitest.UserToken, qCreateMemory, map[string]any{"scope": scopes[scope], "content": content}, &out))
			id := out.CreateMemory.Item.ID
			l.mu.Lock()
			l.acks = append(l.acks, ack{scope: scope, item: id, rev: 1, content: content, sent: sent, acked: time.Now()})
			l.mu.Unlock()
			var at time.Time
			if apitest.WaitUntil(time.Second, func() bool {
				_, nexts, _, _ := s.snapshot()
				at = memoryChanges(nexts, op)[itemRev{id, 1}]
				return !at.IsZero()
			}) {
				return op, at
			}
		}
		t.Fatalf("%s: operation %d never received an event", s.name, op)
		return 0, time.Time{}
	}
	since := map[string]time.Time{}
	for scope := range scopes {
		_, since[scope] = syncSubscription(scope)
	}

	// missing lists the acknowledged writes of scope sent after from (and acknowledged before to,
	// unless to is zero) that operation op of the scope's subscriber has not received.
	missing := func(scope string, op int, from, to time.Time) []ack {
		_, nexts, _, _ := mem[scope].snapshot()
		seen := memoryChanges(nexts, op)
		var out []ack
		for _, a := range l.snapshot() {
			if a.scope == scope && a.sent.After(from) && (to.IsZero() || a.acked.Before(to)) {
				if _, ok := seen[itemRev{a.item, a.rev}]; !ok {
					out = append(out, a)
				}
			}
		}
		return out
	}

	// Writers: two per scope, each with items of its own.
	var writers []*writer
	for scope, vars := range scopes {
		for i := range 2 {
			name := fmt.Sprintf("w-%s-%d", scope[:6], i)
			writers = append(writers, &writer{name: name, scope: scope, scopeVars: vars, revs: map[string]int{}, failed: map[string]bool{}})
		}
	}
	stopWriters := make(chan struct{})
	var writing sync.WaitGroup
	for _, w := range writers {
		writing.Go(func() { w.run(t, gql, l, stopWriters) })
	}
	writersStopped := false
	stopAll := func() {
		if !writersStopped {
			writersStopped = true
			close(stopWriters)
			writing.Wait()
		}
	}
	defer stopAll()

	ackedBy := func(since time.Time, want int) func() bool {
		return func() bool {
			for _, w := range writers {
				if l.ackCount(w.name, w.scope, since) < want {
					return false
				}
			}
			return true
		}
	}
	require.True(t, apitest.WaitUntil(20*time.Second, ackedBy(began, 3)), "every writer gets writes acknowledged")

	// Before the outage every event arrives: whatever was acknowledged so far reaches the subscribers.
	cut := time.Now()
	for scope := range scopes {
		require.True(t, apitest.WaitUntil(10*time.Second, func() bool { return len(missing(scope, 1, since[scope], cut)) == 0 }),
			"memoryChanged %s before the outage: missing %s", scope, describe(missing(scope, 1, since[scope], cut)))
	}
	for scope, s := range mem {
		_, _, completes, problems := s.snapshot()
		require.Empty(t, completes, "memoryChanged %s was completed before the outage", scope)
		require.Empty(t, problems, "memoryChanged %s", scope)
	}

	// The outage.
	stopCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	stopped := time.Now()
	require.NoError(t, pg.stop(stopCtx))
	t.Logf("PostgreSQL stopped in %v", time.Since(stopped).Round(time.Millisecond))
	var notReady map[string]string
	require.True(t, apitest.WaitUntil(10*time.Second, func() bool {
		code, checks, err := readyz(api.URL)
		notReady = checks
		return err == nil && code == http.StatusServiceUnavailable
	}), "/readyz must report not ready while the database is down")
	assert.Equal(t, "unreachable", notReady["database"], "readyz checks %v", notReady)
	// Every writer keeps trying during the outage (and is refused); the outage lasts at least four
	// seconds so the listener's reconnect backoff grows past three (its sixth wait), which it must
	// cut short once the database is back.
	require.True(t, apitest.WaitUntil(20*time.Second, func() bool {
		for _, w := range writers {
			if l.failuresSince(w.name, stopped) < 2 {
				return false
			}
		}
		return time.Since(stopped) > 4*time.Second
	}), "the writers keep writing during the outage")
	code, checks, err := readyz(api.URL)
	require.NoError(t, err)
	require.Equal(t, http.StatusServiceUnavailable, code, "still down: %v", checks)
	assert.Equal(t, "disconnected", checks["listener"], "the listener noticed the outage: %v", checks)

	restarted := time.Now()
	startCtx, cancelStart := context.WithTimeout(ctx, time.Minute)
	defer cancelStart()
	require.NoError(t, pg.start(startCtx))
	outage := time.Since(stopped)
	t.Logf("PostgreSQL back on port %d after an outage of %v", pg.port, outage.Round(time.Millisecond))

	// The API recovers by itself: ready again, and every writer's writes are acknowledged again.
	require.True(t, apitest.WaitUntil(30*time.Second, func() bool {
		code, _, err := readyz(api.URL)
		return err == nil && code == http.StatusOK
	}), "/readyz must report ready again after the restart")
	readyAt := time.Now()
	readyAfter := readyAt.Sub(restarted)
	require.True(t, apitest.WaitUntil(30*time.Second, ackedBy(restarted, 3)), "every writer gets writes acknowledged again")
	// The listener reconnected as soon as the pool could connect again, not at the end of its backoff:
	// /readyz (which needs it) was ready at most moments after the first write was acknowledged.
	var firstAck time.Time
	for _, a := range l.snapshot() {
		if a.sent.After(restarted) && (firstAck.IsZero() || a.acked.Before(firstAck)) {
			firstAck = a.acked
		}
	}
	require.False(t, firstAck.IsZero())
	assert.Less(t, readyAt.Sub(firstAck), 500*time.Millisecond,
		"the listener reconnects when the pool connects again (first write acknowledged %v after the restart, ready %v after it)",
		firstAck.Sub(restarted).Round(time.Millisecond), readyAfter.Round(time.Millisecond))

	// The memoryChanged subscribers were completed cleanly by the listener's re-sync; a subscriber
	// left open would have to receive every event committed after the restart instead.
	for scope, s := range mem {
		completed := apitest.WaitUntil(15*time.Second, func() bool { _, _, completes, _ := s.snapshot(); return len(completes) > 0 })
		if !completed {
			require.True(t, apitest.WaitUntil(15*time.Second, func() bool { return len(missing(scope, 1, restarted, time.Time{})) == 0 }),
				"memoryChanged %s was neither completed nor given every event after the restart: missing %s",
				scope, describe(missing(scope, 1, restarted, time.Time{})))
			t.Logf("memoryChanged %s stayed open and received every event after the restart", scope)
			continue
		}
		_, _, completes, problems := s.snapshot()
		require.Empty(t, problems, "memoryChanged %s: a clean complete, no error or broken connection", scope)
		require.Equal(t, 1, completes[0].op)
		require.True(t, completes[0].at.After(stopped), "completed by the outage")
		t.Logf("memoryChanged %s completed %v after the restart; resubscribing", scope, completes[0].at.Sub(restarted).Round(time.Millisecond))
		var op int
		op, since[scope] = syncSubscription(scope)
		require.Equal(t, 2, op)
	}

	// Let the writers go on a little after the resubscription, then stop them.
	resynced := time.Now()
	require.True(t, apitest.WaitUntil(20*time.Second, ackedBy(resynced, 3)), "writers keep being acknowledged")
	stopAll()

	// Every write sent after the resubscription reaches the resubscribed memoryChanged subscribers.
	for scope, s := range mem {
		op, _, _, _ := s.snapshot()
		require.True(t, apitest.WaitUntil(15*time.Second, func() bool { return len(missing(scope, op, since[scope], time.Time{})) == 0 }),
			"memoryChanged %s operation %d: missing %s", scope, op, describe(missing(scope, op, since[scope], time.Time{})))
		_, _, completes, problems := s.snapshot()
		require.LessOrEqual(t, len(completes), 1, "memoryChanged %s completed again after the resubscription", scope)
		require.Empty(t, problems, "memoryChanged %s", scope)
	}

	// The generation subscriber converges on the current generation, whether it stayed open through
	// the re-sync or was completed and resubscribed, and never goes backwards.
	var current struct{ Teammate struct{ Generation string } }
	require.NoError(t, gql.Call(ctx, apitest.UserToken, qGeneration, map[string]any{"id": teammate}, &current))
	require.True(t, apitest.WaitUntil(15*time.Second, func() bool {
		_, nexts, _, _ := gen.snapshot()
		values := generations(nexts)
		return len(values) > 0 && unquote(values[len(values)-1].data) == current.Teammate.Generation
	}), "generationChanged must end on the current generation %s", current.Teammate.Generation)
	genOps, genNexts, genCompletes, genProblems := gen.snapshot()
	require.Empty(t, genProblems, "generationChanged")
	values := generations(genNexts)
	for i := 1; i < len(values); i++ {
		assert.True(t, generationNotBefore(unquote(values[i].data), unquote(values[i-1].data)),
			"generation went backwards: %s after %s", values[i].data, values[i-1].data)
	}

	// Every acknowledged write is in the database with its revision, and no item skips a revision.
	acks := l.snapshot()
	conn, err := pgx.Connect(ctx, pg.url())
	require.NoError(t, err)
	defer conn.Close(context.Background())
	latest := map[string]int{}
	for _, a := range acks {
		var content string
		require.NoError(t, conn.QueryRow(ctx, `SELECT content FROM memory_revisions WHERE item_id = $1 AND revision = $2`,
			a.item, a.rev).Scan(&content), "acknowledged revision %d of %s", a.rev, a.item)
		require.Equal(t, a.content, content, "acknowledged revision %d of %s", a.rev, a.item)
		latest[a.item] = max(latest[a.item], a.rev)
	}
	for item, rev := range latest {
		var current, count, lowest, highest int
		var status string
		require.NoError(t, conn.QueryRow(ctx, `
			SELECT i.revision, i.status, count(r.revision), min(r.revision), max(r.revision)
			  FROM memory_items i JOIN memory_revisions r ON r.item_id = i.id
			 WHERE i.id = $1 GROUP BY i.revision, i.status`, item).Scan(&current, &status, &count, &lowest, &highest))
		require.Equal(t, "active", status, item)
		require.GreaterOrEqual(t, current, rev, "item %s lost acknowledged revision %d", item, rev)
		require.Equal(t, [3]int{1, current, current}, [3]int{lowest, highest, count}, "item %s: revisions 1..%d, none skipped", item, current)
	}

	l.mu.Lock()
	failureCodes := map[string]int{}
	failures := 0
	for _, fs := range l.failures {
		for _, f := range fs {
			failures++
			failureCodes[f.why]++
			require.True(t, f.at.After(stopped), "a write failed before the outage: %s", f.why)
		}
	}
	unacked := l.unacked
	l.mu.Unlock()
	for code, n := range failureCodes {
		assert.Equal(t, "UNAVAILABLE", code, "%d write(s) refused during the outage: the retryable code, not a defect's", n)
	}
	received := 0
	for _, s := range mem {
		_, nexts, _, _ := s.snapshot()
		received += len(nexts)
	}
	t.Logf("acknowledged writes %d on %d items (all present, revisions contiguous); refused during the outage %d %v; "+
		"unacknowledged attempts found committed %d; outage %v, ready %v after the restart; memoryChanged events %d; "+
		"generationChanged values %d over %d operation(s), %d completed; total %v",
		len(acks), len(latest), failures, failureCodes, unacked, outage.Round(time.Millisecond), readyAfter.Round(time.Millisecond),
		received, len(values), genOps, len(genCompletes), time.Since(began).Round(time.Millisecond))
}

func unquote(raw json.RawMessage) string {
	s, _ := strconv.Unquote(string(raw))
	return s
}

// generationNotBefore reports whether generation a (shared:own:expired) is, part by part, no
// smaller than b.
func generationNotBefore(a, b string) bool {
	pa, pb := strings.Split(a, ":"), strings.Split(b, ":")
	if len(pa) != 3 || len(pb) != 3 {
		return false
	}
	for i := range pa {
		x, errX := strconv.Atoi(pa[i])
		y, errY := strconv.Atoi(pb[i])
		if errX != nil || errY != nil || x < y {
			return false
		}
	}
	return true
}
