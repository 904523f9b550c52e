package events_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
)

// wait bounds every wait in these tests.
const wait = 15 * time.Second

// TestMain runs the tests against the throwaway cluster, then checks that every listener goroutine
// and connection ended with its test.
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

// receive returns the next message on sub, failing after wait.
func receive(t *testing.T, sub *events.Subscription) events.Message {
	t.Helper()
	select {
	case m, ok := <-sub.C:
		require.True(t, ok, "subscription closed")
		return m
	case <-time.After(wait):
		require.FailNow(t, "no message")
		return events.Message{}
	}
}

// requireEmpty fails if sub holds a message now. Sends happen synchronously in Publish, so after
// Publish returns there is nothing in flight to wait for.
func requireEmpty(t *testing.T, sub *events.Subscription) {
	t.Helper()
	select {
	case m := <-sub.C:
		require.FailNow(t, "unexpected message", "%+v", m)
	default:
	}
}

func scope(name string) func(memory.Event) bool {
	return func(e memory.Event) bool { return e.Scope == name }
}

func TestBrokerFanOut(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	ada := b.Subscribe(scope("ada"))
	grace := b.Subscribe(scope("grace"))
	all := b.Subscribe(nil)
	require.Equal(t, 3, b.Subscribers())

	toAda := memory.Event{Scope: "ada", ItemID: "i1", Revision: 1, Generation: true}
	toGrace := memory.Event{Scope: "grace", ItemID: "i2", Revision: 3}
	b.Publish(toAda)
	b.Publish(toGrace)
	b.Publish(memory.Event{Scope: memory.ScopeShared, Generation: true})

	require.Equal(t, events.Message{Event: toAda}, receive(t, ada))
	requireEmpty(t, ada)
	require.Equal(t, events.Message{Event: toGrace}, receive(t, grace))
	requireEmpty(t, grace)
	require.Equal(t, toAda, receive(t, all).Event)
	require.Equal(t, toGrace, receive(t, all).Event)
	require.Equal(t, memory.ScopeShared, receive(t, all).Event.Scope)
	requireEmpty(t, all)

	ada.Close()
	ada.Close() // twice is fine
	_, open := <-ada.C
	require.False(t, open, "Close closes C")
	require.Equal(t, 2, b.Subscribers())
	b.Publish(toAda) // no send on a closed channel
	requireEmpty(t, grace)
}

func TestBrokerResyncReachesEveryone(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	subs := []*events.Subscription{b.Subscribe(nil), b.Subscribe(scope("ada")), b.Subscribe(func(memory.Event) bool { return false })}
	b.Resync()
	for _, sub := range subs {
		require.Equal(t, events.Message{Resync: true}, receive(t, sub))
	}
}

// A subscriber that stops reading is closed once its buffer is full, without delaying the writer or
// the subscribers that keep up.
func TestBrokerDropsSlowSubscriber(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	slow := b.Subscribe(nil)
	fast := b.Subscribe(nil)

	published := make(chan error, 1)
	go func() {
		for i := range events.SubscriberBuffer + 5 {
			b.Publish(memory.Event{Scope: "ada", Revision: i + 1})
			if m, ok := <-fast.C; !ok || m.Event.Revision != i+1 {
				published <- fmt.Errorf("the fast subscriber missed revision %d: got %+v, open %t", i+1, m, ok)
				return
			}
		}
		published <- nil
	}()
	select {
	case err := <-published:
		require.NoError(t, err)
	case <-time.After(wait):
		require.FailNow(t, "Publish blocked on a subscriber that doesn't read")
	}

	// The slow one keeps what fit in its buffer, then sees its channel closed: resubscribe.
	for i := range events.SubscriberBuffer {
		require.Equal(t, i+1, receive(t, slow).Event.Revision)
	}
	_, open := <-slow.C
	require.False(t, open, "the slow subscriber was not closed after %d events", events.SubscriberBuffer+1)
	require.Equal(t, 1, b.Subscribers())
	slow.Close() // closing a dropped subscription is safe

	b.Publish(memory.Event{Scope: "ada", Revision: 1000})
	require.Equal(t, 1000, receive(t, fast).Event.Revision)
}

// Many writers and subscribers at once, for the race detector.
func TestBrokerConcurrentUse(t *testing.T) {
	t.Parallel()
	b := events.NewBroker()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				b.Publish(memory.Event{Scope: fmt.Sprint(w), Revision: i})
				if i%50 == 0 {
					b.Resync()
				}
			}
		})
		wg.Go(func() {
			for range 50 {
				sub := b.Subscribe(scope(fmt.Sprint(w)))
				select {
				case <-sub.C:
				default:
				}
				sub.Close()
			}
		})
	}
	wg.Wait()
	require.Zero(t, b.Subscribers())
}

// listenerApplicationName marks the listener's session so the test can find it in pg_stat_activity.
const listenerApplicationName = "memory-listener-test"

// startListener runs a Listener on databaseURL until the test ends and waits until it listens. Its
// first Resync may reach b's subscribers after that.
func startListener(t *testing.T, databaseURL string, b *events.Broker) *events.Listener {
	t.Helper()
	cfg, err := pgx.ParseConfig(databaseURL)
	require.NoError(t, err)
	cfg.RuntimeParams["application_name"] = listenerApplicationName
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	l := events.NewListener(cfg, b, log)
	require.False(t, l.Connected())

	// Not t.Context: the cleanup below ends the listener and waits for it.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("Listener.Run ended with %v, not its context's end", err)
			}
		case <-time.After(wait):
			t.Error("Listener.Run did not return after its context ended")
		}
		require.False(t, l.Connected())
	})
	select {
	case <-l.Ready():
	case <-time.After(wait):
		require.FailNow(t, "the listener did not connect")
	}
	require.True(t, l.Connected())
	return l
}

// notify sends payload on the memory event channel.
func notify(t *testing.T, conn *pgx.Conn, payload string) {
	t.Helper()
	_, err := conn.Exec(t.Context(), `SELECT pg_notify($1, $2)`, memory.EventChannel, payload)
	require.NoError(t, err)
}

func TestListenerDeliversAndReconnects(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	b := events.NewBroker()
	sub := b.Subscribe(nil)
	defer sub.Close()
	l := startListener(t, databaseURL, b)
	require.Equal(t, events.Message{Resync: true}, receive(t, sub), "every connect starts with a resync")

	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	defer conn.Close(t.Context())

	notify(t, conn, `{"scope":"shared","gen":true}`)
	require.Equal(t, events.Message{Event: memory.Event{Scope: memory.ScopeShared, Generation: true}}, receive(t, sub))

	// A payload that isn't an event is dropped (and logged); the listener carries on.
	notify(t, conn, `not json`)
	notify(t, conn, `{"item":"no scope"}`)
	notify(t, conn, `{"scope":"ada","item":"i1","rev":2,"action":"edit","status":"active","gen":true}`)
	require.Equal(t, events.Message{Event: memory.Event{
		Scope: "ada", ItemID: "i1", Revision: 2, Action: "edit", Status: "active", Generation: true,
	}}, receive(t, sub))

	// Kill the listener's session, as a server restart or a network cut would.
	rows, err := conn.Query(t.Context(), `
		SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		 WHERE application_name = $1 AND datname = current_database() AND pid <> pg_backend_pid()`,
		listenerApplicationName)
	require.NoError(t, err)
	killed, err := pgx.CollectRows(rows, pgx.RowTo[bool])
	require.NoError(t, err)
	require.Equal(t, []bool{true}, killed, "one listener session terminated")

	// Whatever was sent while it was away is lost, so after reconnecting it tells subscribers to
	// re-read; then events flow again.
	require.Equal(t, events.Message{Resync: true}, receive(t, sub))
	require.True(t, l.Connected())
	notify(t, conn, `{"scope":"shared","gen":true}`)
	require.Equal(t, events.Message{Event: memory.Event{Scope: memory.ScopeShared, Generation: true}}, receive(t, sub))
}

// Every API process runs its own listener on the same database; each delivers every event.
func TestTwoListenersOnOneDatabase(t *testing.T) {
	t.Parallel()
	databaseURL := dbtest.URL(t)
	first, second := events.NewBroker(), events.NewBroker()
	subs := []*events.Subscription{first.Subscribe(nil), second.Subscribe(nil)}
	startListener(t, databaseURL, first)
	startListener(t, databaseURL, second)

	conn, err := pgx.Connect(t.Context(), databaseURL)
	require.NoError(t, err)
	defer conn.Close(t.Context())
	notify(t, conn, `{"scope":"ada","gen":true}`)
	for _, sub := range subs {
		require.Equal(t, events.Message{Resync: true}, receive(t, sub))
		require.Equal(t, "ada", receive(t, sub).Event.Scope)
		sub.Close()
	}
}
