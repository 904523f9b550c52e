package metrics

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Other is the label value of anything outside a label's fixed set.
const Other = "other"

// OK is the code label of a request that succeeded.
const OK = "OK"

// ScrapeTimeout bounds each database read a scrape makes (the job queue, the AI budget): a scrape
// of a busy or unreachable database answers without those metrics rather than late.
const ScrapeTimeout = 2 * time.Second

// Metrics is one process's registry and its metric vectors. Its methods are safe for concurrent
// use, and do nothing on a nil *Metrics.
type Metrics struct {
	reg   *prometheus.Registry
	names []string

	httpDuration    *prometheus.HistogramVec
	graphqlDuration *prometheus.HistogramVec
	recallDuration  *prometheus.HistogramVec
	recallEntries   prometheus.Histogram
	recallChars     prometheus.Histogram
	mcpCalls        *prometheus.CounterVec
	judgeDecisions  *prometheus.CounterVec
	eventsDelivered prometheus.Counter
	eventsDropped   prometheus.Counter
	jobAttempts     *prometheus.CounterVec
	jobFailures     *prometheus.CounterVec
	aiRequests      *prometheus.CounterVec
	purgeRuns       prometheus.Counter
	purgeFailures   prometheus.Counter
	purgeDuration   prometheus.Histogram
	backups         *prometheus.CounterVec
	backupDuration  prometheus.Histogram
	backupLastOK    prometheus.Gauge
	backupLastSize  prometheus.Gauge

	state *stateCollector
}

// New returns a registry with the Go and process collectors and every metric of the service.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Durations of requests: from a millisecond (a cached read) to the 30 s statement timeout.
	requestBuckets := []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}
	m.httpDuration = histogramVec(m, "memory_http_request_duration_seconds",
		"Time to answer an HTTP request (websockets excluded), by route class and status code.", requestBuckets, "route", "code")
	m.graphqlDuration = histogramVec(m, "memory_graphql_request_duration_seconds",
		"Time to answer a GraphQL query or mutation (subscriptions excluded), by root field of the schema and outcome code (the first error's extensions.code, or OK).",
		requestBuckets, "operation", "code")
	m.recallDuration = histogramVec(m, "memory_recall_duration_seconds",
		"Time to recall a memory packet (the request's embedding included), by caller: start_run or preview.", requestBuckets, "caller")
	m.recallEntries = histogram(m, "memory_recall_packet_entries", "Entries in each recalled memory packet (P4: at most 12).",
		[]float64{0, 1, 2, 3, 4, 6, 8, 10, 12})
	m.recallChars = histogram(m, "memory_recall_packet_characters", "Characters in each recalled memory packet (P5: at most 6,000).",
		[]float64{0, 250, 500, 1000, 2000, 3000, 4000, 5000, 6000})
	m.mcpCalls = counterVec(m, "memory_mcp_tool_calls_total", "MCP tool calls, by tool and outcome code (OK, or the error's code).", "tool", "code")
	m.judgeDecisions = counterVec(m, "memory_judge_decisions_total",
		"Decisions of the judge on a teammate's write (A1–A8), by write (save, update, forget) and reason code.", "write", "reason")
	m.eventsDelivered = counter(m, "memory_events_delivered_total", "Memory events and resyncs handed to a subscriber of this process.")
	m.eventsDropped = counter(m, "memory_events_dropped_total",
		"Memory events a subscriber could not take because it fell too far behind (it is then closed and resubscribes).")
	m.jobAttempts = counterVec(m, "memory_job_attempts_total", "Background job attempts finished by this process's runner, by kind.", "kind")
	m.jobFailures = counterVec(m, "memory_job_failures_total",
		"Background job attempts that failed, by kind and whether the job was given up (final=true) or will be retried.", "kind", "final")
	m.aiRequests = counterVec(m, "memory_ai_requests_total",
		"Requests to the AI endpoints, by kind (embeddings, chat_completions) and outcome (ok, budget_spent, timeout, unreachable, http_4xx, http_5xx, bad_response, error).",
		"kind", "outcome")
	m.purgeRuns = counter(m, "memory_purge_runs_total", "Purges of forgotten text from the embedded cluster's files (F5), failed ones included.")
	m.purgeFailures = counter(m, "memory_purge_failures_total", "Purges that failed (retried later).")
	m.purgeDuration = histogram(m, "memory_purge_duration_seconds", "Time a purge took.", prometheus.ExponentialBuckets(0.05, 2.5, 10))
	m.backups = counterVec(m, "memory_backups_total", "Backups made, by outcome (success, failure).", "outcome")
	m.backupDuration = histogram(m, "memory_backup_duration_seconds", "Time a backup took.", prometheus.ExponentialBuckets(0.5, 2.5, 10))
	m.backupLastOK = gauge(m, "memory_backup_last_success_timestamp_seconds", "Unix time of the last successful backup; 0 when none yet.")
	m.backupLastSize = gauge(m, "memory_backup_last_size_bytes", "Size of the last successful backup; 0 when none yet.")
	for _, outcome := range []string{"success", "failure"} {
		m.backups.WithLabelValues(outcome)
	}
	m.state = newStateCollector(m)
	m.reg.MustRegister(m.state)
	return m
}

// Handler serves the registry in Prometheus' exposition formats, for /metrics.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, ErrorHandling: promhttp.ContinueOnError})
}

// Registry is the registry itself (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Names are the names of the service's own metrics (memory_*), whether or not they have a sample
// yet; the Go and process collectors' are found by gathering.
func (m *Metrics) Names() []string { return slices.Clone(m.names) }

func histogramVec(m *Metrics, name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	v := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	m.reg.MustRegister(v)
	m.names = append(m.names, name)
	return v
}

func histogram(m *Metrics, name, help string, buckets []float64) prometheus.Histogram {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets})
	m.reg.MustRegister(h)
	m.names = append(m.names, name)
	return h
}

func counterVec(m *Metrics, name, help string, labels ...string) *prometheus.CounterVec {
	v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	m.reg.MustRegister(v)
	m.names = append(m.names, name)
	return v
}

func counter(m *Metrics, name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	m.reg.MustRegister(c)
	m.names = append(m.names, name)
	return c
}

func gauge(m *Metrics, name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	m.reg.MustRegister(g)
	m.names = append(m.names, name)
	return g
}

// codePattern is what an outcome code label may be: an upper-case identifier like BAD_USER_INPUT.
var codePattern = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,39}$`)

// Code is code if it looks like an error code (BAD_USER_INPUT, MEMORY_CHANGED …), "" as OK, and
// anything else as "OTHER".
func Code(code string) string {
	switch {
	case code == "":
		return OK
	case codePattern.MatchString(code):
		return code
	}
	return "OTHER"
}

// namePattern is what a name label (a job kind, a tool, a reason code) may be.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// Bounded is v when it is one of allowed (or, with no allowed list, a short lower-case
// identifier), and Other otherwise.
func Bounded(v string, allowed ...string) string {
	if len(allowed) > 0 {
		if slices.Contains(allowed, v) {
			return v
		}
		return Other
	}
	if namePattern.MatchString(v) {
		return v
	}
	return Other
}

// fieldPattern is what a GraphQL field name may be (the schema's names are shorter).
var fieldPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// HTTPRequest records one answered HTTP request of route class route (a fixed name the server
// chose from the path).
func (m *Metrics) HTTPRequest(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	code := Other
	if status >= 100 && status <= 599 {
		code = strconv.Itoa(status)
	}
	m.httpDuration.WithLabelValues(Bounded(route), code).Observe(d.Seconds())
}

// GraphQLRequest records one answered query or mutation: operation is the schema's root field it
// asked for (the server checks it against the schema; Other for anything else) and code the first
// error's extensions.code ("" when it succeeded).
func (m *Metrics) GraphQLRequest(operation, code string, d time.Duration) {
	if m == nil {
		return
	}
	if !fieldPattern.MatchString(operation) {
		operation = Other
	}
	m.graphqlDuration.WithLabelValues(operation, Code(code)).Observe(d.Seconds())
}

// Recall records one recalled packet of entries entries and characters characters; caller is
// start_run or preview.
func (m *Metrics) Recall(caller string, d time.Duration, entries, characters int) {
	if m == nil {
		return
	}
	m.recallDuration.WithLabelValues(Bounded(caller, "start_run", "preview")).Observe(d.Seconds())
	m.recallEntries.Observe(float64(entries))
	m.recallChars.Observe(float64(characters))
}

// MCPToolCall records one call of an MCP tool (one of the server's fixed tool names) and its
// outcome code ("" when it succeeded).
func (m *Metrics) MCPToolCall(tool, code string) {
	if m == nil {
		return
	}
	m.mcpCalls.WithLabelValues(Bounded(tool), Code(code)).Inc()
}

// JudgeDecision records one decision of the judge on a write (save, update, forget) with its
// reason code; the caller maps a reason outside the judge's list to Other.
func (m *Metrics) JudgeDecision(write, reason string) {
	if m == nil {
		return
	}
	m.judgeDecisions.WithLabelValues(Bounded(write, "save", "update", "forget"), Bounded(reason)).Inc()
}

// EventDelivered and EventDropped count one message handed to a subscriber, or not.
func (m *Metrics) EventDelivered() {
	if m != nil {
		m.eventsDelivered.Inc()
	}
}

// EventDropped counts a message a subscriber fell too far behind to take.
func (m *Metrics) EventDropped() {
	if m != nil {
		m.eventsDropped.Inc()
	}
}

// JobAttempt records one finished attempt of a job of kind: failed says whether it failed, final
// whether the job was then given up.
func (m *Metrics) JobAttempt(kind string, failed, final bool) {
	if m == nil {
		return
	}
	kind = Bounded(kind)
	m.jobAttempts.WithLabelValues(kind).Inc()
	if failed {
		m.jobFailures.WithLabelValues(kind, strconv.FormatBool(final)).Inc()
	}
}

// AIRequest records one request to an AI endpoint: kind is embeddings or chat_completions, outcome
// one of the fixed outcomes of memory_ai_requests_total.
func (m *Metrics) AIRequest(kind, outcome string) {
	if m == nil {
		return
	}
	m.aiRequests.WithLabelValues(Bounded(kind, "embeddings", "chat_completions"),
		Bounded(outcome, "ok", "budget_spent", "timeout", "unreachable", "http_4xx", "http_5xx", "bad_response", "error")).Inc()
}

// PurgeCompleted records one purge of forgotten text that took d and ended with err.
func (m *Metrics) PurgeCompleted(d time.Duration, err error) {
	if m == nil {
		return
	}
	m.purgeRuns.Inc()
	if err != nil {
		m.purgeFailures.Inc()
	}
	m.purgeDuration.Observe(d.Seconds())
}

// BackupCompleted records one backup that took d and ended with err; a successful one of size
// bytes also sets the last success's time and size.
func (m *Metrics) BackupCompleted(bytes int64, d time.Duration, err error) {
	if m == nil {
		return
	}
	m.backupDuration.Observe(d.Seconds())
	if err != nil {
		m.backups.WithLabelValues("failure").Inc()
		return
	}
	m.backups.WithLabelValues("success").Inc()
	m.BackupSeen(time.Now(), bytes)
}

// BackupSeen sets the last successful backup's time and size from a backup made at another time (the
// newest one in the backup directory when the API starts, say `api backup`'s).
func (m *Metrics) BackupSeen(at time.Time, bytes int64) {
	if m == nil {
		return
	}
	m.backupLastOK.Set(float64(at.UnixNano()) / 1e9)
	m.backupLastSize.Set(float64(bytes))
}

// stateCollector reads the process's state at scrape time through the readers registered with the
// Watch methods.
type stateCollector struct {
	// failedJobs and failedBudget count the reads of the queue and the budget that failed, reported
	// by the scrape that made them (a counter of the registry might be collected before them).
	failedJobs, failedBudget atomic.Int64

	mu sync.Mutex
	// pools, websockets, broker and the database readers, as registered.
	pools      []watchedPool
	websockets func() (connections, subscriptions int)
	broker     func() int
	jobs       func(ctx context.Context) ([]QueueDepth, error)
	aiBudget   func(ctx context.Context) (limit, used int, err error)
}

func newStateCollector(m *Metrics) *stateCollector {
	m.names = append(m.names, stateNames...)
	return &stateCollector{}
}

// The metrics the state collector makes at each scrape.
var (
	descWSConnections = prometheus.NewDesc("memory_websocket_connections", "Open websocket connections (authenticated or waiting for connection_init).", nil, nil)
	descWSSubs        = prometheus.NewDesc("memory_websocket_subscriptions", "Running GraphQL subscriptions over websockets.", nil, nil)
	descSubscribers   = prometheus.NewDesc("memory_event_subscribers", "Live subscribers of the event broker (equivalent websocket subscriptions share one; the purger is one).", nil, nil)
	descJobsQueued    = prometheus.NewDesc("memory_jobs_queued", "Background jobs pending or running, by kind and status, as the database holds them at the scrape.", []string{"kind", "status"}, nil)
	descJobsOldest    = prometheus.NewDesc("memory_jobs_oldest_age_seconds", "Age of the oldest pending or running job, by kind and status.", []string{"kind", "status"}, nil)
	descAIRemaining   = prometheus.NewDesc("memory_ai_budget_remaining_requests", "AI requests left in today's budget (I4).", nil, nil)
	descAILimit       = prometheus.NewDesc("memory_ai_budget_limit_requests", "AI requests allowed a day (MEMORY_AI_DAILY_REQUEST_LIMIT).", nil, nil)
	descPoolAcquired  = prometheus.NewDesc("memory_db_pool_acquired_connections", "Connections of the pool in use.", []string{"pool"}, nil)
	descPoolIdle      = prometheus.NewDesc("memory_db_pool_idle_connections", "Idle connections of the pool.", []string{"pool"}, nil)
	descPoolTotal     = prometheus.NewDesc("memory_db_pool_total_connections", "Connections of the pool, in use, idle or being opened.", []string{"pool"}, nil)
	descPoolMax       = prometheus.NewDesc("memory_db_pool_max_connections", "The pool's size (MEMORY_DB_MAX_CONNS for the request pool).", []string{"pool"}, nil)
	descPoolAcquires  = prometheus.NewDesc("memory_db_pool_acquires_total", "Connections taken from the pool.", []string{"pool"}, nil)
	descPoolWaits     = prometheus.NewDesc("memory_db_pool_acquire_waits_total", "Takes that had to wait for a connection.", []string{"pool"}, nil)
	descPoolWaitTime  = prometheus.NewDesc("memory_db_pool_acquire_wait_seconds_total", "Time spent waiting for a connection.", []string{"pool"}, nil)
	descScrapeErrors  = prometheus.NewDesc("memory_metrics_scrape_errors_total", "Reads a scrape could not make (the database slow or away), by source (jobs, ai_budget).", []string{"source"}, nil)
)

var stateNames = []string{
	"memory_websocket_connections", "memory_websocket_subscriptions", "memory_event_subscribers", "memory_jobs_queued",
	"memory_jobs_oldest_age_seconds", "memory_ai_budget_remaining_requests", "memory_ai_budget_limit_requests",
	"memory_db_pool_acquired_connections", "memory_db_pool_idle_connections", "memory_db_pool_total_connections",
	"memory_db_pool_max_connections", "memory_db_pool_acquires_total", "memory_db_pool_acquire_waits_total",
	"memory_db_pool_acquire_wait_seconds_total", "memory_metrics_scrape_errors_total",
}

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descWSConnections, descWSSubs, descSubscribers, descJobsQueued, descJobsOldest,
		descAIRemaining, descAILimit, descPoolAcquired, descPoolIdle, descPoolTotal, descPoolMax, descPoolAcquires,
		descPoolWaits, descPoolWaitTime, descScrapeErrors} {
		ch <- d
	}
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	pools, ws, broker, jobs, budget := slices.Clone(c.pools), c.websockets, c.broker, c.jobs, c.aiBudget
	c.mu.Unlock()
	gaugeOf := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counterOf := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	if ws != nil {
		conns, subs := ws()
		gaugeOf(descWSConnections, float64(conns))
		gaugeOf(descWSSubs, float64(subs))
	}
	if broker != nil {
		gaugeOf(descSubscribers, float64(broker()))
	}
	for _, p := range pools {
		s := p.stat()
		gaugeOf(descPoolAcquired, float64(s.Acquired), p.name)
		gaugeOf(descPoolIdle, float64(s.Idle), p.name)
		gaugeOf(descPoolTotal, float64(s.Total), p.name)
		gaugeOf(descPoolMax, float64(s.Max), p.name)
		counterOf(descPoolAcquires, float64(s.Acquires), p.name)
		counterOf(descPoolWaits, float64(s.Waits), p.name)
		counterOf(descPoolWaitTime, s.WaitTime.Seconds(), p.name)
	}
	if jobs != nil {
		ctx, cancel := context.WithTimeout(context.Background(), ScrapeTimeout)
		depths, err := jobs(ctx)
		cancel()
		if err != nil {
			c.failedJobs.Add(1)
		}
		for _, d := range depths {
			kind, status := Bounded(d.Kind), Bounded(d.Status, "pending", "running")
			gaugeOf(descJobsQueued, float64(d.Jobs), kind, status)
			gaugeOf(descJobsOldest, d.OldestAge.Seconds(), kind, status)
		}
	}
	if budget != nil {
		ctx, cancel := context.WithTimeout(context.Background(), ScrapeTimeout)
		limit, used, err := budget(ctx)
		cancel()
		if err != nil {
			c.failedBudget.Add(1)
		} else {
			gaugeOf(descAILimit, float64(limit))
			gaugeOf(descAIRemaining, float64(max(limit-used, 0)))
		}
	}
	counterOf(descScrapeErrors, float64(c.failedJobs.Load()), "jobs")
	counterOf(descScrapeErrors, float64(c.failedBudget.Load()), "ai_budget")
}

// PoolStat is what a pool reports at a scrape (pgxpool.Stat's counts).
type PoolStat struct {
	Acquired, Idle, Total, Max int32
	Acquires, Waits            int64
	WaitTime                   time.Duration
}

type watchedPool struct {
	name string
	stat func() PoolStat
}

// WatchPool reports the pool named name (a fixed name: request, health) at each scrape.
func (m *Metrics) WatchPool(name string, stat func() PoolStat) {
	if m == nil || stat == nil {
		return
	}
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	m.state.pools = append(m.state.pools, watchedPool{name: Bounded(name), stat: stat})
}

// WatchWebsockets reports the open websockets and their running subscriptions at each scrape.
func (m *Metrics) WatchWebsockets(counts func() (connections, subscriptions int)) {
	if m == nil {
		return
	}
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	m.state.websockets = counts
}

// WatchBroker reports the event broker's live subscribers at each scrape.
func (m *Metrics) WatchBroker(subscribers func() int) {
	if m == nil {
		return
	}
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	m.state.broker = subscribers
}

// QueueDepth is one kind and status of the job queue at a scrape.
type QueueDepth struct {
	Kind, Status string
	Jobs         int
	// OldestAge is how long ago the oldest of them was enqueued.
	OldestAge time.Duration
}

// WatchJobQueue reads the job queue at each scrape, within ScrapeTimeout.
func (m *Metrics) WatchJobQueue(read func(ctx context.Context) ([]QueueDepth, error)) {
	if m == nil {
		return
	}
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	m.state.jobs = read
}

// WatchAIBudget reads the AI budget's daily limit and today's use at each scrape, within
// ScrapeTimeout.
func (m *Metrics) WatchAIBudget(read func(ctx context.Context) (limit, used int, err error)) {
	if m == nil {
		return
	}
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	m.state.aiBudget = read
}
