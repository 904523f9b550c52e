package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/errgroup"

	"github.com/open-bot/memory/internal/memory"
)

// liveEvents is how many edits a live-delivery row times, one every liveGap for each 1,000
// subscribers: every row writes the sockets as many messages a second (25,000), so a row with more
// subscribers measures how long one event takes to reach all of them, not how far behind the API
// falls when asked for more messages a second than two cores write.
const (
	liveEvents = 100
	liveGap    = 40 * time.Millisecond
)

// liveGapFor is the time between timed edits with n subscribers.
func liveGapFor(n int) time.Duration {
	return liveGap * time.Duration(max(1, n/1_000))
}

// subscriber is one graphql-transport-ws connection subscribed to memoryChanged of the shared
// scope. It records when each revision of the watched item arrived.
type subscriber struct {
	conn *websocket.Conn
	mu   sync.Mutex
	got  map[int]time.Time
	// highest is the highest revision in got.
	highest int
	// completed counts the times the server completed the subscription (it fell behind, say) and
	// the subscriber subscribed again, as the web app does.
	completed int
}

// subscribeMessage starts the subscribers' one operation.
var subscribeMessage = map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
	"query": `subscription { memoryChanged(scope: {}) { itemId revision } }`,
}}

func (b *bench) subscribe(ctx context.Context, a *apiProc) (*subscriber, error) {
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 30 * time.Second}
	conn, _, err := d.DialContext(ctx, "ws"+strings.TrimPrefix(a.URL, "http")+"/graphql", nil)
	if err != nil {
		return nil, err
	}
	s := &subscriber{conn: conn, got: map[int]time.Time{}}
	send := func(v any) error {
		_ = conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
		return conn.WriteJSON(v)
	}
	if err := send(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + userToken}}); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	var ack struct{ Type string }
	if err := conn.ReadJSON(&ack); err != nil || ack.Type != "connection_ack" {
		conn.Close()
		return nil, fmt.Errorf("no connection_ack (%q): %v", ack.Type, err)
	}
	if err := send(subscribeMessage); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Time{})
	return s, nil
}

// subscribeAll opens n subscribers, the i-th on apis[i%len(apis)], a few connections at a time.
func (b *bench) subscribeAll(ctx context.Context, n int, apis []*apiProc, item string) ([]*subscriber, error) {
	subs := make([]*subscriber, n)
	var g errgroup.Group
	g.SetLimit(16)
	for i := range n {
		g.Go(func() error {
			s, err := b.subscribe(ctx, apis[i%len(apis)])
			if err != nil {
				return fmt.Errorf("subscriber %d: %w", i, err)
			}
			subs[i] = s
			go s.read(item)
			return nil
		})
	}
	err := g.Wait()
	if err != nil {
		closeAll(subs)
	}
	return subs, err
}

func closeAll(subs []*subscriber) {
	for _, s := range subs {
		if s != nil {
			s.conn.Close()
		}
	}
}

// read records arrivals until the connection closes; it answers pings, and subscribes again when
// the server completes the subscription. It takes the time first and then only picks the revision
// out of the bytes: a thousand subscribers decoding JSON on the same cores would delay each other's
// arrival times.
func (s *subscriber) read(item string) {
	for {
		_, data, err := s.conn.ReadMessage()
		if err != nil {
			return
		}
		now := time.Now() // on arrival, before this client's own parsing
		switch {
		case bytes.Contains(data, []byte(`"type":"ping"`)):
			_ = s.conn.WriteJSON(map[string]string{"type": "pong"})
		case bytes.Contains(data, []byte(`"type":"complete"`)):
			s.mu.Lock()
			s.completed++
			s.mu.Unlock()
			_ = s.conn.WriteJSON(subscribeMessage)
		case bytes.Contains(data, []byte(`"itemId":"`+item+`"`)):
			if revision, ok := revisionIn(data); ok {
				s.mu.Lock()
				s.got[revision] = now
				s.highest = max(s.highest, revision)
				s.mu.Unlock()
			}
		}
	}
}

// revisionIn is the number after "revision": in a memoryChanged message.
func revisionIn(data []byte) (int, bool) {
	_, after, ok := bytes.Cut(data, []byte(`"revision":`))
	if !ok {
		return 0, false
	}
	end := bytes.IndexFunc(after, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(after)
	}
	n, err := strconv.Atoi(string(after[:end]))
	return n, err == nil
}

// latest is the highest revision the subscriber has received (0 for none).
func (s *subscriber) latest() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.highest
}

func (s *subscriber) arrived(revision int) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.got[revision]
	return t, ok
}

// benchLive is the live-delivery rows, once for each -subscribers count: commit-to-websocket
// latency of memoryChanged with the subscribers spread over the two API processes, against a bare
// LISTEN/NOTIFY round trip measured right after; then the resident memory of one API process
// holding all of them.
func (b *bench) benchLive(ctx context.Context) ([]row, error) {
	// The writer is this process's own memory service on the same database: the commit time is when
	// its EditMemory returns, and the events reach the APIs only through PostgreSQL.
	svc := memory.NewService(b.pool, slog.New(slog.DiscardHandler))
	userCtx := memory.WithCredential(ctx, memory.Credential{Kind: memory.CredentialUser})
	item := b.hot[0] // the shared scope's item
	cur, err := svc.Item(userCtx, item)
	if err != nil {
		return nil, err
	}
	revision, edits := cur.Revision, 0
	edit := func() (int, time.Time, error) {
		edits++ // every edit must change the text
		content := fmt.Sprintf("Live edit %d", edits)
		it, err := svc.EditMemory(userCtx, memory.EditInput{ID: item, BaseRevision: revision, Content: &content})
		if err != nil {
			return 0, time.Time{}, err
		}
		revision = it.Revision
		return it.Revision, time.Now(), nil
	}
	var rows []row
	for _, n := range b.o.subscribers {
		got, err := b.liveWith(ctx, n, item, edit)
		if err != nil {
			return nil, fmt.Errorf("%s subscribers: %w", count(n), err)
		}
		rows = append(rows, got...)
	}
	return rows, nil
}

// liveWith is benchLive's two rows for n subscribers.
func (b *bench) liveWith(ctx context.Context, n int, item string, edit func() (int, time.Time, error)) ([]row, error) {
	t := time.Now()
	subs, err := b.subscribeAll(ctx, n, b.apis, item)
	if err != nil {
		return nil, err
	}
	defer func() { closeAll(subs) }()
	// Subscriptions have no ready signal: edit until every subscriber has seen an event.
	if err := waitAll(ctx, subs, edit); err != nil {
		return nil, err
	}
	b.log.Info("subscribed", "subscribers", n, "took", time.Since(t).Round(time.Second))

	var lat latencies
	var missing int
	type sent struct {
		revision int
		at       time.Time
	}
	var events []sent
	cpuBefore, err := b.apisCPU()
	if err != nil {
		return nil, err
	}
	gap := liveGapFor(n)
	for range liveEvents {
		r, at, err := edit()
		if err != nil {
			return nil, err
		}
		events = append(events, sent{r, at})
		time.Sleep(gap)
	}
	time.Sleep(time.Second)
	cpuAfter, err := b.apisCPU()
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		for _, s := range subs {
			t, ok := s.arrived(e.revision)
			if !ok {
				missing++
				continue
			}
			lat = append(lat, t.Sub(e.at))
		}
	}
	floor, err := b.floorListenNotify(ctx)
	if err != nil {
		return nil, err
	}
	completed := 0
	for _, s := range subs {
		s.mu.Lock()
		completed += s.completed
		s.mu.Unlock()
	}
	latency := row{
		name: fmt.Sprintf("Live delivery: commit to websocket, %s subscribers over 2 API processes (%d events × %d, one every %v; %d missed; API CPU %.1f ms an event)",
			count(n), liveEvents, len(subs), gap, missing, float64((cpuAfter-cpuBefore).Microseconds())/1000/liveEvents),
		measured: lat.p50p99(),
		floor:    floor.p50p99(),
		ratio:    "p99 " + ratio(float64(lat.at(0.99)), float64(floor.at(0.99))),
		// The latency target is for 1,000 subscribers; more are measured against none.
		target: "none missed",
		met:    yesNo(missing == 0),
	}
	if n <= 1_000 {
		latency.target = "p99 ≤ 25 ms, none missed"
		latency.met = yesNo(lat.at(0.99) <= 25*time.Millisecond && missing == 0)
	}
	b.log.Info("live delivery", "subscribers", n, "latency", latency.measured, "floor", latency.floor, "missed", missing,
		"completed and subscribed again", completed, "API CPU", cpuAfter-cpuBefore)

	// Then move every subscriber onto the first process and read its resident memory.
	var moved []*subscriber
	for i, s := range subs {
		if i%2 == 1 {
			moved = append(moved, s)
		}
	}
	closeAll(moved)
	again, err := b.subscribeAll(ctx, len(moved), b.apis[:1], item)
	if err != nil {
		return nil, err
	}
	for i := range again {
		subs[2*i+1] = again[i]
	}
	if err := waitAll(ctx, subs, edit); err != nil {
		return nil, err
	}
	rss, err := rssMB(b.apis[0])
	if err != nil {
		return nil, err
	}
	idle, err := rssMB(b.apis[1])
	if err != nil {
		return nil, err
	}
	resident := row{
		name:     fmt.Sprintf("API resident memory with %s subscribers (after the benchmarks above)", count(len(subs))),
		measured: fmt.Sprintf("%.0f MB", rss),
		floor:    fmt.Sprintf("the other process, 0 subscribers: %.0f MB", idle),
	}
	if n <= 1_000 {
		resident.target, resident.met = "≤ 150 MB", yesNo(rss <= 150)
	}
	return []row{latency, resident}, nil
}

// waitAll makes sure every subscriber receives events and nothing is on its way: it edits, at half
// the timed rows' pace (subscriptions still registering must not be flooded), until every
// subscriber has received one of these edits, then waits until each has received the last.
func waitAll(ctx context.Context, subs []*subscriber, edit func() (int, time.Time, error)) error {
	deadline := time.Now().Add(30*time.Second + time.Duration(len(subs))*10*time.Millisecond)
	ready := func(revision int) int {
		n := 0
		for _, s := range subs {
			if s.latest() >= revision {
				n++
			}
		}
		return n
	}
	first, last := 0, 0
	for {
		r, _, err := edit()
		if err != nil {
			return err
		}
		first, last = cmp.Or(first, r), r
		time.Sleep(max(200*time.Millisecond, 2*liveGapFor(len(subs))))
		if n := ready(first); n == len(subs) {
			break
		} else if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("only %d of %d subscribers receive events", n, len(subs))
		}
	}
	// A subscriber that was completed meanwhile and subscribed again missed the last edit: one more
	// edit follows whenever nobody has received the last for a while.
	progress, since := 0, time.Now()
	for {
		n := ready(last)
		switch {
		case n == len(subs):
			return nil
		case time.Now().After(deadline) || ctx.Err() != nil:
			return fmt.Errorf("only %d of %d subscribers received the last of the edits before the measurement", n, len(subs))
		case n > progress:
			progress, since = n, time.Now()
		case time.Since(since) > 5*time.Second:
			r, _, err := edit()
			if err != nil {
				return err
			}
			last = r
			progress, since = 0, time.Now()
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// floorListenNotify is the bare round trip: NOTIFY committed on one connection, received by a
// LISTEN on another, timed from the commit's return as the API's row is.
func (b *bench) floorListenNotify(ctx context.Context) (latencies, error) {
	listener, err := pgx.Connect(ctx, b.cluster.URL("bench"))
	if err != nil {
		return nil, err
	}
	defer listener.Close(context.WithoutCancel(ctx))
	if _, err := listener.Exec(ctx, `LISTEN bench_live`); err != nil {
		return nil, err
	}
	got := make(chan time.Time, 1)
	go func() {
		for {
			if _, err := listener.WaitForNotification(ctx); err != nil {
				close(got)
				return
			}
			got <- time.Now()
		}
	}()
	var lat latencies
	for range liveEvents {
		if _, err := b.pool.Exec(ctx, `SELECT pg_notify('bench_live', 'x')`); err != nil {
			return nil, err
		}
		sent := time.Now()
		select {
		case at, ok := <-got:
			if !ok {
				return nil, errors.New("the listener stopped")
			}
			lat = append(lat, at.Sub(sent))
		case <-time.After(5 * time.Second):
			return nil, errors.New("a notification did not arrive")
		}
		time.Sleep(liveGap)
	}
	return lat, nil
}
