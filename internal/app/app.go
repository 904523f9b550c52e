package app

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/server"
)

// DefaultExpirySweepInterval is how often expired items are looked for, to push generation changes
// (G7), when Options.ExpirySweepInterval is zero.
const DefaultExpirySweepInterval = 15 * time.Second

// Options are what one API process needs.
type Options struct {
	// DatabaseURL is a postgres:// URL of a migrated database.
	DatabaseURL string
	// UserToken and WorkerToken are the user's and the worker's credentials.
	UserToken   string
	WorkerToken string
	// AllowedOrigins may open websockets besides the server's own origin.
	AllowedOrigins []string
	// Log receives the process's logs; nil means slog.Default().
	Log *slog.Logger
	// PingPongInterval is the graphql-transport-ws keep-alive; zero means the server's default.
	PingPongInterval time.Duration
	// ExpirySweepInterval is how often the expiry sweeper runs; zero means
	// DefaultExpirySweepInterval.
	ExpirySweepInterval time.Duration
}

// App is one running API process: its pool, listener, sweeper and HTTP handler.
type App struct {
	pool     *pgxpool.Pool
	listener *events.Listener
	handler  http.Handler

	// life ends with Close; the background goroutines and every request run under it.
	life      context.Context
	stop      context.CancelFunc
	running   sync.WaitGroup
	closeOnce sync.Once
}

// New opens the database and starts the event listener and the expiry sweeper. ctx bounds only the
// start (opening the pool); what New starts runs until Close.
func New(ctx context.Context, o Options) (*App, error) {
	if o.DatabaseURL == "" {
		return nil, errors.New("app: no database URL")
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.ExpirySweepInterval == 0 {
		o.ExpirySweepInterval = DefaultExpirySweepInterval
	}
	pool, err := db.Open(ctx, o.DatabaseURL)
	if err != nil {
		return nil, err
	}

	svc := memory.NewService(pool, o.Log)
	broker := events.NewBroker()
	listener := events.NewListener(pool.Config().ConnConfig, broker, o.Log)
	life, stop := context.WithCancel(context.Background())
	a := &App{pool: pool, listener: listener, life: life, stop: stop}
	a.running.Go(func() { _ = listener.Run(life) })
	a.running.Go(func() { svc.RunExpirySweeper(life, o.ExpirySweepInterval) })

	a.handler = server.New(server.Options{
		Pool: pool, Memory: svc, Broker: broker, Listener: listener,
		Auth:             auth.New(o.UserToken, o.WorkerToken, svc),
		AllowedOrigins:   o.AllowedOrigins,
		PingPongInterval: o.PingPongInterval,
		Log:              o.Log,
	})
	return a, nil
}

// Handler is the whole HTTP surface. Requests still running when Close is called — websockets above
// all, which an http.Server's Shutdown doesn't wait for — see their context cancelled.
func (a *App) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		defer context.AfterFunc(a.life, cancel)()
		a.handler.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Listener is the process's LISTEN connection; tests wait on its Ready channel before they expect
// notifications to arrive.
func (a *App) Listener() *events.Listener { return a.listener }

// Close cancels running requests, stops the listener and the sweeper, waits for them, and closes the
// pool (which waits for connections still in use). It is safe to call more than once.
func (a *App) Close() {
	a.closeOnce.Do(func() {
		a.stop()
		a.running.Wait()
		a.pool.Close()
	})
}
