package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory"
)

// liveEvents is how many edits the live-delivery row times, one every liveGap.
const (
	liveEvents = 100
	liveGap    = 40 * time.Millisecond
)

// subscriber is one graphql-transport-ws connection subscribed to memoryChanged of the shared
// scope. It records when each revision of the watched item arrived.
type subscriber struct {
	conn *websocket.Conn
	mu   sync.Mutex
	got  map[int]time.Time
}

func (b *bench) subscribe(ctx context.Context, a *apiProc) (*subscriber, error) {
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.DialContext(ctx, "ws"+strings.TrimPrefix(a.url, "http")+"/graphql", nil)
	if err != nil {
		return nil, err
	}
	s := &subscriber{conn: conn, got: map[int]time.Time{}}
	send := func(v any) error {
		_ = conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
		return conn.WriteJSON(v)
	}
	if err := send(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + userToken}}); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ack struct{ Type string }
	if err := conn.ReadJSON(&ack); err != nil || ack.Type != "connection_ack" {
		conn.Close()
		return nil, fmt.Errorf("no connection_ack (%q): %v", ack.Type, err)
	}
	if err := send(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query": `subscription { memoryChanged(scope: {}) { itemId revision } }`,
	}}); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetReadDeadline(time.Time{})
	return s, nil
}

// read records arrivals until the connection closes; it answers pings.
func (s *subscriber) read(item string) {
	for {
		var m struct {
			Type    string
			Payload struct {
				Data struct {
					MemoryChanged struct {
						ItemID   string
						Revision int
					}
				}
			}
		}
		_, data, err := s.conn.ReadMessage()
		if err != nil {
			return
		}
		now := time.Now() // on arrival, before this client's own decoding
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.Type {
		case "ping":
			_ = s.conn.WriteJSON(map[string]string{"type": "pong"})
		case "next":
			if c := m.Payload.Data.MemoryChanged; c.ItemID == item {
				s.mu.Lock()
				s.got[c.Revision] = now
				s.mu.Unlock()
			}
		}
	}
}

func (s *subscriber) arrived(revision int) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.got[revision]
	return t, ok
}

// benchLive is rows 5 and 7: commit-to-websocket latency of memoryChanged with -subscribers
// subscribers spread over the two API processes, against a bare LISTEN/NOTIFY round trip; then the
// resident memory of one API process holding all of them.
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
	revision := cur.Revision
	edit := func(n int) (int, time.Time, error) {
		content := fmt.Sprintf("Live edit %d", n)
		it, err := svc.EditMemory(userCtx, memory.EditInput{ID: item, BaseRevision: revision, Content: &content})
		if err != nil {
			return 0, time.Time{}, err
		}
		revision = it.Revision
		return it.Revision, time.Now(), nil
	}

	subs := make([]*subscriber, 0, b.o.subscribers)
	defer func() {
		for _, s := range subs {
			s.conn.Close()
		}
	}()
	for i := range b.o.subscribers {
		s, err := b.subscribe(ctx, b.apis[i%2])
		if err != nil {
			return nil, fmt.Errorf("subscriber %d: %w", i, err)
		}
		subs = append(subs, s)
		go s.read(item)
	}
	// Subscriptions have no ready signal: edit until every subscriber has seen an event.
	if err := waitAll(ctx, subs, edit); err != nil {
		return nil, err
	}

	var lat latencies
	var missing int
	type sent struct {
		revision int
		at       time.Time
	}
	var events []sent
	for n := range liveEvents {
		r, at, err := edit(n)
		if err != nil {
			return nil, err
		}
		events = append(events, sent{r, at})
		time.Sleep(liveGap)
	}
	time.Sleep(time.Second)
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
	rows := []row{{
		name: fmt.Sprintf("Live delivery: commit to websocket, %s subscribers over 2 API processes (%d events × %d; %d missed)",
			count(b.o.subscribers), liveEvents, len(subs), missing),
		measured: lat.p50p99(),
		floor:    floor.p50p99(),
		ratio:    "p99 " + ratio(float64(lat.at(0.99)), float64(floor.at(0.99))),
		target:   "p99 ≤ 25 ms, none missed",
		met:      yesNo(lat.at(0.99) <= 25*time.Millisecond && missing == 0),
	}}

	// Row 7: move every subscriber onto the first process and read its resident memory.
	for i, s := range subs {
		if i%2 == 1 {
			s.conn.Close()
			if subs[i], err = b.subscribe(ctx, b.apis[0]); err != nil {
				return nil, err
			}
			go subs[i].read(item)
		}
	}
	if err := waitAll(ctx, subs, edit); err != nil {
		return nil, err
	}
	rss, err := b.apis[0].rssMB()
	if err != nil {
		return nil, err
	}
	idle, err := b.apis[1].rssMB()
	if err != nil {
		return nil, err
	}
	rows = append(rows, row{
		name:     fmt.Sprintf("API resident memory with %s subscribers (after the benchmarks above)", count(len(subs))),
		measured: fmt.Sprintf("%.0f MB", rss),
		floor:    fmt.Sprintf("the other process, 0 subscribers: %.0f MB", idle),
		target:   "≤ 150 MB",
		met:      yesNo(rss <= 150),
	})
	return rows, nil
}

// waitAll edits until every subscriber has received the latest edit.
func waitAll(ctx context.Context, subs []*subscriber, edit func(int) (int, time.Time, error)) error {
	deadline := time.Now().Add(30 * time.Second)
	for n := 0; ; n++ {
		r, _, err := edit(-1 - n)
		if err != nil {
			return err
		}
		time.Sleep(200 * time.Millisecond)
		ready := 0
		for _, s := range subs {
			if _, ok := s.arrived(r); ok {
				ready++
			}
		}
		if ready == len(subs) {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("only %d of %d subscribers receive events", ready, len(subs))
		}
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
