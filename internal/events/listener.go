package events

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgxlisten"

	"github.com/open-bot/memory/internal/memory"
)

// Listener holds this process's one LISTEN connection and feeds a Broker.
type Listener struct {
	connConfig *pgx.ConnConfig
	broker     *Broker
	log        *slog.Logger
	connected  atomic.Bool
	failures   int
	// ready is closed the first time the listener is connected and listening.
	ready     chan struct{}
	readyOnce atomic.Bool
	// wake cuts a reconnect backoff short (Wake).
	wake chan struct{}
}

// NewListener returns a listener that connects with connConfig (a copy is kept) and publishes to broker.
func NewListener(connConfig *pgx.ConnConfig, broker *Broker, log *slog.Logger) *Listener {
	return &Listener{connConfig: connConfig.Copy(), broker: broker, log: log, ready: make(chan struct{}), wake: make(chan struct{}, 1)}
}

// Wake tells a listener waiting to reconnect that the database answers again (a pool has just
// connected), so it tries at once instead of finishing its backoff: subscribers are re-synchronised
// as soon as requests are served again, not up to the backoff's 5 s later. It never blocks, and does
// nothing to a connected listener.
func (l *Listener) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Connected reports whether the listener is connected and listening right now (for /readyz).
func (l *Listener) Connected() bool { return l.connected.Load() }

// Ready is closed once the listener first listens; tests and start-up wait on it.
func (l *Listener) Ready() <-chan struct{} { return l.ready }

// Run listens until ctx is done, reconnecting with exponential backoff (100 ms doubling to 5 s, with
// jitter) whenever the connection drops; Wake cuts a wait short.
func (l *Listener) Run(ctx context.Context) error {
	pl := &pgxlisten.Listener{
		Connect:        l.connect,
		ReconnectDelay: time.Millisecond, // the real, growing delay is in connect
		LogError: func(ctx context.Context, err error) {
			if ctx.Err() == nil {
				l.log.WarnContext(ctx, "event listener", "err", err)
			}
		},
	}
	pl.Handle(memory.EventChannel, l)
	err := pl.Listen(ctx)
	l.connected.Store(false)
	return err
}

func (l *Listener) connect(ctx context.Context) (*pgx.Conn, error) {
	if l.connected.Swap(false) {
		l.log.WarnContext(ctx, "event listener disconnected; reconnecting")
	}
	if l.failures > 0 {
		delay := min(100*time.Millisecond<<min(l.failures-1, 6), 5*time.Second)
		delay += time.Duration(rand.Int64N(int64(delay) / 5))
		// A wake from before this wait (a pool connecting while the database was still up) says
		// nothing about now.
		select {
		case <-l.wake:
		default:
		}
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
		case <-l.wake:
		}
	}
	conn, err := pgx.ConnectConfig(ctx, l.connConfig)
	if err != nil {
		l.failures++
		return nil, err
	}
	l.failures = 0
	return conn, nil
}

// HandleBacklog runs after each successful LISTEN: whatever was sent while we were away is lost, so
// subscribers re-read current state.
func (l *Listener) HandleBacklog(ctx context.Context, _ string, _ *pgx.Conn) error {
	l.connected.Store(true)
	if !l.readyOnce.Swap(true) {
		close(l.ready)
	} else {
		l.log.InfoContext(ctx, "event listener reconnected; subscribers re-synchronise")
	}
	l.broker.Resync()
	return nil
}

// HandleNotification publishes one event.
func (l *Listener) HandleNotification(ctx context.Context, n *pgconn.Notification, _ *pgx.Conn) error {
	e, err := memory.DecodeEvent(n.Payload)
	if err != nil {
		return err
	}
	l.broker.Publish(e)
	return nil
}
