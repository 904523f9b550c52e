package app

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/graph/model"
	"github.com/open-bot/memory/internal/auth"
	"github.com/open-bot/memory/internal/backup"
	"github.com/open-bot/memory/internal/config"
	"github.com/open-bot/memory/internal/db"
	"github.com/open-bot/memory/internal/demo"
	"github.com/open-bot/memory/internal/events"
	"github.com/open-bot/memory/internal/jobs"
	"github.com/open-bot/memory/internal/memory"
	"github.com/open-bot/memory/internal/metrics"
	"github.com/open-bot/memory/internal/server"
	"github.com/open-bot/memory/internal/wire"
)

// DefaultExpirySweepInterval is how often the sweeper runs when Options.ExpirySweepInterval is zero:
// it looks for expired items, to push generation changes (G7), interrupts runs whose token has been
// idle too long and deletes expired web sessions and idempotency keys.
const DefaultExpirySweepInterval = 15 * time.Second

// Options are what one API process needs.
type Options struct {
	// DatabaseURL is a postgres:// URL of a migrated database.
	DatabaseURL string
	// UserToken and WorkerToken are the user's and the worker's credentials.
	UserToken   string
	WorkerToken string
	// TombstoneKey keys the hashes of forgotten texts (F3): the installation's secret, the same for
	// every process on the database. Required.
	TombstoneKey []byte
	// AllowedOrigins may open websockets and send cookie-authenticated POSTs besides the server's own
	// origin; their host names are accepted in Host.
	AllowedOrigins []string
	// Log receives the process's logs; nil means slog.Default().
	Log *slog.Logger
	// PingPongInterval is the graphql-transport-ws keep-alive; zero means the server's default.
	PingPongInterval time.Duration
	// ExpirySweepInterval is how often the sweeper runs; zero means DefaultExpirySweepInterval.
	ExpirySweepInterval time.Duration
	// WebsocketInitTimeout closes a websocket that sends no connection_init within it with 4408; zero
	// means the server's default (10 s).
	WebsocketInitTimeout time.Duration
	// Limits are the caps and lifetimes that keep one client from starving the others (websockets,
	// body and idle timeouts, run tokens, sessions); zero fields mean their defaults.
	Limits config.Limits
	// AI configures the optional embeddings and extraction; the zero value means no AI and no job
	// runner in this process.
	AI config.AI
	// Demo loads the labelled demo when the database has no teammates yet (internal/demo).
	Demo bool
	// RunSuggestionLimit is how many suggestions one run may make; zero means
	// memory.DefaultRunSuggestionLimit.
	RunSuggestionLimit int
	// DBMaxConns is the request pool's size (MEMORY_DB_MAX_CONNS); 0 means
	// config.DefaultDBMaxConns(). The health checks and the event listener connect on their own.
	DBMaxConns int
	// DBStatementTimeout is the pool's statement_timeout (MEMORY_DB_STATEMENT_TIMEOUT); 0 means
	// none.
	DBStatementTimeout time.Duration
	// PurgeDelay, when positive, says the process owns its database's cluster (the embedded default):
	// forgotten text is then purged from the data files this long after a burst of forgets (F5,
	// memory.Background.Purge). Zero: a database the service doesn't own, never purged.
	PurgeDelay time.Duration
	// Backups are the forget ledger and the backup schedule (RULES F8); the zero value keeps no ledger.
	Backups Backups
	// Metrics is the process's Prometheus registry and metrics; nil means a new one (metrics.New).
	// The app records into it and watches its pools, queue, budget and websockets; cmd/api serves
	// it (Metrics().Handler()) on MEMORY_METRICS_ADDR.
	Metrics *metrics.Metrics
}

// App is one running API process: its pool, listener, sweeper and HTTP handler.
type App struct {
	pool     *pgxpool.Pool
	health   *pgxpool.Pool
	listener *events.Listener
	broker   *events.Broker
	handler  http.Handler
	limits   config.Limits
	metrics  *metrics.Metrics

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
	if len(o.TombstoneKey) == 0 {
		return nil, errors.New("app: no tombstone key (MEMORY_TOMBSTONE_KEY)")
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.ExpirySweepInterval == 0 {
		o.ExpirySweepInterval = DefaultExpirySweepInterval
	}
	o.Limits = o.Limits.WithDefaults()
	if o.DBMaxConns == 0 {
		o.DBMaxConns = config.DefaultDBMaxConns()
	}
	if o.Metrics == nil {
		o.Metrics = metrics.New()
	}
	// The listener exists only once the pool does (it copies the pool's connection settings), but
	// the pool's connections must be able to wake it: wake reads it when it is set.
	var woken atomic.Pointer[events.Listener]
	wake := func() {
		if l := woken.Load(); l != nil {
			l.Wake()
		}
	}
	pool, err := db.OpenPool(ctx, o.DatabaseURL, db.PoolOptions{
		MaxConns: o.DBMaxConns, StatementTimeout: o.DBStatementTimeout, ApplicationName: "memory-api", AfterConnect: wake,
	})
	if err != nil {
		return nil, err
	}
	health, err := db.OpenHealthPool(ctx, o.DatabaseURL, wake)
	if err != nil {
		pool.Close()
		return nil, err
	}
	closePools := func() {
		pool.Close()
		health.Close()
	}

	aiw, err := wire.NewAI(pool, o.AI, o.Metrics)
	if err != nil {
		closePools()
		return nil, err
	}
	svc := memory.NewService(pool, o.Log, append(aiw.Options(), memory.WithRunSuggestionLimit(o.RunSuggestionLimit),
		memory.WithRunIdleTimeout(o.Limits.RunIdleTimeout), memory.WithPurge(o.PurgeDelay),
		memory.WithExportMaxBytes(o.Limits.ExportMaxBytes), memory.WithMetrics(o.Metrics))...)
	if err := svc.Background().RehashTexts(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := svc.Background().UseTombstoneKey(ctx, o.TombstoneKey); err != nil {
		pool.Close()
		return nil, err
	}
	// Before anything serves: forgets the ledger holds and the database doesn't (it was restored from
	// an older backup) are applied again, and every entry the database holds and the file doesn't
	// (not written yet, or the file was lost or cut short) reaches the file.
	var ledger *backup.Ledger
	if o.Backups.Dir != "" {
		ledger = backup.OpenLedger(o.Backups.Dir)
		if all, err := backup.List(o.Backups.Dir); err == nil && len(all) > 0 {
			o.Metrics.BackupSeen(all[0].Manifest.CreatedAt, all[0].Bytes)
		}
		if _, err := ledger.Replay(ctx, svc.Background()); err != nil {
			closePools()
			return nil, err
		}
		if _, err := ledger.Sync(ctx, svc.Background()); err != nil {
			closePools()
			return nil, err
		}
	}
	var runner *jobs.Runner
	if o.AI.JobsInAPI {
		runner = jobs.NewRunner(pool, jobs.Options{Log: o.Log, Lease: o.AI.JobLease, Metrics: o.Metrics})
	}
	if runner != nil {
		aiw.RegisterJobs(runner, svc)
	}
	if _, err := aiw.CatchUp(ctx, svc, o.Log); err != nil {
		closePools()
		return nil, err
	}
	if o.Demo {
		if seeded, err := demo.Seed(ctx, svc); err != nil {
			closePools()
			return nil, err
		} else if seeded {
			o.Log.Info("loaded the demo: two teammates with memories, a suggestion, a lesson and runs (MEMORY_DEMO=false skips it)")
		}
	}
	if o.AI.Embeddings() || o.AI.Extraction() {
		o.Log.Info("memory AI configured", "config", o.AI.String())
	}
	broker := events.NewBroker()
	broker.Instrument(o.Metrics)
	watch(o.Metrics, pool, health, broker, aiw)
	listener := events.NewListener(pool.Config().ConnConfig, broker, o.Log)
	woken.Store(listener)
	life, stop := context.WithCancel(context.Background())
	a := &App{pool: pool, health: health, listener: listener, broker: broker, life: life, stop: stop, limits: o.Limits,
		metrics: o.Metrics}
	authn := auth.New(o.UserToken, o.WorkerToken, svc, auth.NewSessions(pool, o.Limits.SessionTTL))
	a.running.Go(func() { _ = listener.Run(life) })
	a.running.Go(func() { sweep(life, o.ExpirySweepInterval, svc, authn, o.Log) })
	if o.PurgeDelay > 0 {
		a.running.Go(func() { runPurger(life, svc, broker, o.PurgeDelay, o.Log, o.Metrics) })
	}
	if ledger != nil {
		a.running.Go(func() { runLedger(life, svc, broker, ledger, o.Log) })
	}
	if o.Backups.Interval > 0 {
		a.running.Go(func() { runBackups(life, o.Backups, svc.Background().KeyFingerprint(), o.Log, o.Metrics) })
	}
	if runner != nil && len(runner.Kinds()) > 0 {
		a.running.Go(func() { _ = runner.Run(life) })
	}

	a.handler = server.New(server.Options{
		Pool: health, Memory: svc, Broker: broker, Listener: listener,
		Auth:             authn,
		AIStatus:         aiStatus(svc, aiw),
		BackupStatus:     o.Backups.status(),
		AllowedOrigins:   o.AllowedOrigins,
		PingPongInterval: o.PingPongInterval,
		InitTimeout:      o.WebsocketInitTimeout,
		Limits:           o.Limits,
		Log:              o.Log,
		DBMaxConns:       o.DBMaxConns,
		Metrics:          o.Metrics,
	})
	return a, nil
}

// watch has m read, at each scrape, the pools' statistics, the broker's subscribers, the job
// queue and the AI budget.
func watch(m *metrics.Metrics, pool, health *pgxpool.Pool, broker *events.Broker, aiw wire.AI) {
	for name, p := range map[string]*pgxpool.Pool{"request": pool, "health": health} {
		m.WatchPool(name, func() metrics.PoolStat {
			s := p.Stat()
			return metrics.PoolStat{Acquired: s.AcquiredConns(), Idle: s.IdleConns(), Total: s.TotalConns(), Max: s.MaxConns(),
				Acquires: s.AcquireCount(), Waits: s.EmptyAcquireCount(), WaitTime: s.EmptyAcquireWaitTime()}
		})
	}
	m.WatchBroker(broker.Subscribers)
	// On the request pool, like the budget's own reads: the health pool is /readyz's alone. A scrape
	// that waits longer than metrics.ScrapeTimeout for a connection goes without these.
	m.WatchJobQueue(func(ctx context.Context) ([]metrics.QueueDepth, error) { return jobs.QueueDepth(ctx, pool) })
	m.WatchAIBudget(func(ctx context.Context) (int, int, error) {
		used, err := aiw.Budget.Used(ctx)
		return aiw.Budget.Limit(), used, err
	})
}

// sweep runs every interval until ctx is done: it announces expired items (G7), interrupts runs whose
// token has been idle too long, and deletes expired web sessions and idempotency keys. A failed step is logged and tried
// again at the next tick.
func sweep(ctx context.Context, interval time.Duration, svc *memory.Service, authn *auth.Authenticator, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := svc.Background().SweepExpiry(ctx); err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "expiry sweep failed", "err", err)
		}
		if _, err := svc.Background().InterruptIdleRuns(ctx); err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "idle run sweep failed", "err", err)
		}
		if _, err := authn.PurgeSessions(ctx); err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "session purge failed", "err", err)
		}
		if _, err := svc.Background().DeleteExpiredIdempotencyKeys(ctx); err != nil && ctx.Err() == nil {
			log.WarnContext(ctx, "idempotency key purge failed", "err", err)
		}
	}
}

// HTTPServer returns the http.Server to serve Handler with: the header deadline, the idle timeout
// of keep-alive connections (Limits.IdleTimeout) and the write timeout (Limits.WriteTimeout). The
// body and write deadlines are also the handler's own, so they hold behind any server: the handler
// counts the write timeout from when a response starts rather than from when its request arrived,
// and lifts it for websockets; the server's covers what net/http writes by itself.
func (a *App) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           a.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       a.limits.IdleTimeout,
		WriteTimeout:      a.limits.WriteTimeout,
	}
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

// Broker fans the listener's events out to this process's subscriptions; its Subscribers gauge counts
// the running executions of subscriptions (equivalent websocket subscriptions share one).
func (a *App) Broker() *events.Broker { return a.broker }

// Metrics is the process's registry and metrics (Options.Metrics).
func (a *App) Metrics() *metrics.Metrics { return a.metrics }

// Close cancels running requests, stops the listener and the sweeper, waits for them, and closes the
// pools (which wait for connections still in use). It is safe to call more than once.
func (a *App) Close() {
	a.closeOnce.Do(func() {
		a.stop()
		a.running.Wait()
		a.pool.Close()
		a.health.Close()
	})
}

// aiStatus maps the AI's status (wire.AI.Status) to the API's.
func aiStatus(svc *memory.Service, aiw wire.AI) func(context.Context) (model.AIStatus, error) {
	return func(ctx context.Context) (model.AIStatus, error) {
		st, err := aiw.Status(ctx, svc)
		out := model.AIStatus{Embeddings: st.Embeddings, Extraction: st.Extraction, DailyRequestLimit: st.DailyRequestLimit,
			RequestsToday: st.RequestsToday, Embedded: st.Embedded, Embeddable: st.Embeddable,
			EmbeddingHost: optional(st.EmbeddingHost), ExtractionHost: optional(st.ExtractionHost)}
		if st.Embeddings {
			out.EmbeddingModel, out.EmbeddingDimensions = &st.EmbeddingModel, &st.EmbeddingDimensions
		}
		if st.Extraction {
			out.ExtractionModel = &st.ExtractionModel
		}
		return out, err
	}
}

// optional is nil for "".
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
