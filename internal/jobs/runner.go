package jobs

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgxlisten"

	"github.com/open-bot/memory/internal/jobs/jobsdb"
	"github.com/open-bot/memory/internal/metrics"
)

// Handler does one job. It gets a context that ends at the job's timeout or when the runner gives up
// waiting at shutdown. A nil error marks the job done; Error, Permanent and the optional methods
// listed in job.go (ErrorCode, Retryable, RetryAt) say what a failure asks for. A job may run more
// than once (after a crash, or if its lease expires under it), so handlers must be idempotent.
type Handler func(ctx context.Context, job Job) error

// BatchHandler does several claimed jobs of one kind at once — say, one embeddings request for many
// items — and returns one outcome per job, in order (nil: done). Errors mean what they mean for a
// Handler. The jobs share one context and one timeout.
type BatchHandler func(ctx context.Context, jobs []Job) []error

// Defaults of Options.
const (
	DefaultWorkers        = 10
	DefaultLease          = 5 * time.Minute
	DefaultJobTimeout     = 2 * time.Minute
	DefaultPollInterval   = time.Second
	DefaultRescueInterval = 30 * time.Second
	DefaultShutdownGrace  = 10 * time.Second
	DefaultRetention      = 24 * time.Hour
)

// Options tune a Runner. Zero values mean the defaults.
type Options struct {
	// ID names the runner in locked_by; default "<host>:<pid>:<random>".
	ID string
	// Workers is the most jobs in flight at once (DefaultWorkers).
	Workers int
	// BatchSize is the most jobs claimed by one query (Workers).
	BatchSize int
	// Lease is how long a claimed job stays the runner's before the rescuer may take it back
	// (DefaultLease). It must exceed JobTimeout.
	Lease time.Duration
	// JobTimeout bounds one handler call (DefaultJobTimeout).
	JobTimeout time.Duration
	// PollInterval is how often the queue is polled when no notification arrives (DefaultPollInterval).
	PollInterval time.Duration
	// RescueInterval is how often expired leases are looked for, and old jobs pruned
	// (DefaultRescueInterval, or half the Lease when that is shorter, so a short lease is rescued soon
	// after it runs out).
	RescueInterval time.Duration
	// ShutdownGrace is how long Run lets in-flight handlers finish after its context ends
	// (DefaultShutdownGrace); then their contexts are cancelled and unfinished jobs are released.
	ShutdownGrace time.Duration
	// Retention is how long done and cancelled jobs are kept (DefaultRetention); failed ones ten times as long.
	Retention time.Duration
	// MaxAttempts is MaxAttempts unless set (tests).
	MaxAttempts int
	// Now is the clock of claims, retries and rescues; nil means the database's now(). Tests only.
	Now func() time.Time
	// Log gets the runner's logs (ids, kinds and codes only); nil means slog.Default().
	Log *slog.Logger
	// Metrics counts attempts and failures by kind; nil counts nothing.
	Metrics *metrics.Metrics
}

// Runner claims jobs from memory_jobs and runs their handlers. Register handlers before Run or RunOnce.
type Runner struct {
	pool     *pgxpool.Pool
	opts     Options
	log      *slog.Logger
	handlers map[Kind]Handler
	batches  map[Kind]BatchHandler

	wake chan struct{} // a notification or a finished job: look for work now
	// listening is closed once the runner first LISTENs (tests wait on it).
	listening     chan struct{}
	listeningOnce sync.Once
	mu            sync.Mutex
	// inflight holds the claimed jobs whose handlers haven't finished, for release at shutdown.
	inflight map[int64]Job
	// releasing is set once Run gave up on in-flight handlers: their errors release the job instead
	// of counting an attempt.
	releasing bool
	// completions are successes waiting to be recorded; completing is set while a caller of
	// complete records them.
	completions []Job
	completing  bool
	handlerWG   sync.WaitGroup
}

// NewRunner returns a runner on pool.
func NewRunner(pool *pgxpool.Pool, o Options) *Runner {
	o.Workers = cmp.Or(o.Workers, DefaultWorkers)
	o.BatchSize = min(cmp.Or(o.BatchSize, o.Workers), o.Workers)
	o.Lease = cmp.Or(o.Lease, DefaultLease)
	o.JobTimeout = cmp.Or(o.JobTimeout, DefaultJobTimeout)
	if o.JobTimeout >= o.Lease {
		o.JobTimeout = o.Lease * 4 / 5
	}
	o.PollInterval = cmp.Or(o.PollInterval, DefaultPollInterval)
	o.RescueInterval = cmp.Or(o.RescueInterval, max(min(DefaultRescueInterval, o.Lease/2), time.Millisecond))
	o.ShutdownGrace = cmp.Or(o.ShutdownGrace, DefaultShutdownGrace)
	o.Retention = cmp.Or(o.Retention, DefaultRetention)
	o.MaxAttempts = cmp.Or(o.MaxAttempts, MaxAttempts)
	if o.ID == "" {
		o.ID = defaultID()
	}
	if len(o.ID) > 200 {
		o.ID = o.ID[:200]
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Runner{
		pool: pool, opts: o, log: o.Log.With("runner", o.ID), handlers: map[Kind]Handler{}, batches: map[Kind]BatchHandler{},
		wake: make(chan struct{}, 1), listening: make(chan struct{}), inflight: map[int64]Job{},
	}
}

func defaultID() string {
	host, _ := os.Hostname()
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s:%d:%s", cmp.Or(host, "host"), os.Getpid(), hex.EncodeToString(b))
}

// Listening is closed once Run first listens for enqueue notifications; from then on a job enqueued
// wakes the runner without waiting for the poll.
func (r *Runner) Listening() <-chan struct{} { return r.listening }

// ID is the runner's name in locked_by.
func (r *Runner) ID() string { return r.opts.ID }

// Handle registers h for jobs of kind. A runner claims only the kinds it has handlers for, so a
// process without AI configured leaves AI jobs to one that has it.
func (r *Runner) Handle(kind Kind, h Handler) {
	delete(r.batches, kind)
	r.handlers[kind] = h
}

// HandleBatch registers h for jobs of kind: the jobs of that kind claimed together (up to
// BatchSize) are given to one call.
func (r *Runner) HandleBatch(kind Kind, h BatchHandler) {
	delete(r.handlers, kind)
	r.batches[kind] = h
}

// Kinds lists the kinds with a handler, sorted.
func (r *Runner) Kinds() []Kind {
	kinds := make([]Kind, 0, len(r.handlers)+len(r.batches))
	for k := range r.handlers {
		kinds = append(kinds, k)
	}
	for k := range r.batches {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

func (r *Runner) now() *time.Time {
	if r.opts.Now == nil {
		return nil
	}
	t := r.opts.Now()
	return &t
}

// Run works the queue until ctx ends: it claims due jobs whenever a notification arrives, a handler
// finishes or the poll interval passes, and rescues expired leases every RescueInterval. When ctx
// ends it stops claiming, lets in-flight handlers finish for ShutdownGrace, then cancels their
// contexts and puts the jobs they didn't finish back to pending (the attempt not counted). It
// returns nil after a shutdown.
func (r *Runner) Run(ctx context.Context) error {
	if len(r.Kinds()) == 0 {
		return errors.New("jobs: runner has no handlers")
	}
	// Handlers outlive ctx by the grace period; work ends only when Run gives up on them.
	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()

	listenCtx, stopListening := context.WithCancel(ctx)
	var listening sync.WaitGroup
	listening.Go(func() { r.listen(listenCtx) })
	defer listening.Wait()
	defer stopListening()

	r.rescue(ctx)
	poll := time.NewTicker(r.opts.PollInterval)
	defer poll.Stop()
	rescue := time.NewTicker(r.opts.RescueInterval)
	defer rescue.Stop()
	for ctx.Err() == nil {
		if free := r.opts.Workers - r.inflightCount(); free > 0 {
			want := min(free, r.opts.BatchSize)
			jobs, err := r.claim(ctx, want)
			if err != nil && ctx.Err() == nil {
				r.log.WarnContext(ctx, "claim jobs", "code", ErrorCode(err))
			}
			r.dispatch(work, jobs)
			if len(jobs) == want {
				// There may be more due right now; rescues must not wait for a quiet moment.
				select {
				case <-rescue.C:
					r.rescue(ctx)
				default:
				}
				continue
			}
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-poll.C:
		case <-rescue.C:
			r.rescue(ctx)
		}
	}
	r.shutdown(cancelWork)
	return nil
}

// RunOnce claims up to BatchSize due jobs, runs them concurrently and waits for them; it returns
// how many it ran. Run is the loop for production; RunOnce is for tests and benchmarks.
func (r *Runner) RunOnce(ctx context.Context) (int, error) {
	jobs, err := r.claim(ctx, r.opts.BatchSize)
	if err != nil {
		return 0, err
	}
	r.dispatch(ctx, jobs)
	r.handlerWG.Wait()
	return len(jobs), nil
}

// Rescue puts back every job whose lease expired (or fails it if it is out of attempts) and prunes
// old finished jobs. It returns how many jobs it rescued.
func (r *Runner) Rescue(ctx context.Context) (int, error) {
	q := jobsdb.New(r.pool)
	rescued, err := q.JobsRescue(ctx, jobsdb.JobsRescueParams{Now: r.now(), MaxAttempts: r.opts.MaxAttempts, LastError: CodeLeaseExpired})
	if err != nil {
		return 0, fmt.Errorf("rescue jobs: %w", err)
	}
	if err := q.JobsPrune(ctx, jobsdb.JobsPruneParams{Now: r.now(), RetentionMs: r.opts.Retention.Milliseconds()}); err != nil {
		return int(rescued), fmt.Errorf("prune jobs: %w", err)
	}
	return int(rescued), nil
}

func (r *Runner) rescue(ctx context.Context) {
	n, err := r.Rescue(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		r.log.WarnContext(ctx, "rescue jobs", "code", ErrorCode(err))
	case n > 0:
		r.log.WarnContext(ctx, "rescued jobs whose lease expired", "jobs", n)
		r.signal()
	}
}

func (r *Runner) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Runner) inflightCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.inflight)
}

// claim leases up to n due jobs of the handled kinds to this runner.
func (r *Runner) claim(ctx context.Context, n int) ([]Job, error) {
	kinds := make([]string, 0, len(r.handlers)+len(r.batches))
	for _, k := range r.Kinds() {
		kinds = append(kinds, string(k))
	}
	rows, err := jobsdb.New(r.pool).JobsClaim(ctx, jobsdb.JobsClaimParams{
		Now: r.now(), Kinds: kinds, MaxJobs: n, LeaseMs: r.opts.Lease.Milliseconds(), LockedBy: r.opts.ID,
	})
	if err != nil {
		return nil, fmt.Errorf("claim jobs: %w", err)
	}
	jobs := make([]Job, len(rows))
	for i, row := range rows {
		j := Job{ID: row.ID, Kind: Kind(row.Kind), Attempt: row.Attempts}
		if row.ItemID != nil {
			j.ItemID = *row.ItemID
		}
		if row.Revision != nil {
			j.Revision = *row.Revision
		}
		if row.RunID != nil {
			j.RunID = *row.RunID
		}
		jobs[i] = j
	}
	slices.SortFunc(jobs, func(a, b Job) int { return cmp.Compare(a.ID, b.ID) })
	return jobs, nil
}

// dispatch starts the handlers of claimed jobs: one goroutine per job, or one per kind for the
// kinds with a batch handler.
func (r *Runner) dispatch(work context.Context, claimed []Job) {
	r.mu.Lock()
	for _, j := range claimed {
		r.inflight[j.ID] = j
	}
	r.mu.Unlock()
	groups := map[Kind][]Job{}
	for _, j := range claimed {
		if _, ok := r.batches[j.Kind]; ok {
			groups[j.Kind] = append(groups[j.Kind], j)
			continue
		}
		r.handlerWG.Go(func() { r.done([]Job{j}, []error{r.call(work, j)}) })
	}
	for kind, group := range groups {
		r.handlerWG.Go(func() { r.done(group, r.callBatch(work, kind, group)) })
	}
}

// done records the outcomes of jobs whose handler returned, unless shutdown released them already.
func (r *Runner) done(js []Job, errs []error) {
	var succeeded []Job
	for i, j := range js {
		r.mu.Lock()
		_, mine := r.inflight[j.ID]
		delete(r.inflight, j.ID)
		releasing := r.releasing
		r.mu.Unlock()
		switch {
		case !mine:
		case errs[i] == nil:
			succeeded = append(succeeded, j)
			r.opts.Metrics.JobAttempt(string(j.Kind), false, false)
		default:
			r.finish(j, errs[i], releasing)
		}
	}
	r.complete(succeeded)
	r.signal()
}

// complete records jobs as done, group-committed: the caller that finds nobody recording takes
// every success queued — its own and those that arrive while its statement runs — until the queue
// is empty, while the others leave theirs to it and return. A busy runner so completes many jobs per
// statement, and an idle one at once. The recording caller is a handler goroutine, so handlerWG
// (RunOnce, shutdown) waits until every success is recorded.
func (r *Runner) complete(js []Job) {
	r.mu.Lock()
	r.completions = append(r.completions, js...)
	if r.completing {
		r.mu.Unlock()
		return
	}
	r.completing = true
	for len(r.completions) > 0 {
		batch := r.completions
		r.completions = nil
		r.mu.Unlock()
		r.completeMany(batch)
		r.mu.Lock()
	}
	r.completing = false
	r.mu.Unlock()
}

// completeMany marks jobs done in one statement, fenced on their claims.
func (r *Runner) completeMany(js []Job) {
	ids, attempts := make([]int64, len(js)), make([]int, len(js))
	for i, j := range js {
		ids[i], attempts[i] = j.ID, j.Attempt
	}
	// The outcome is recorded even while Run shuts down.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done, err := jobsdb.New(r.pool).JobsCompleteMany(ctx, jobsdb.JobsCompleteManyParams{Ids: ids, Attempts: attempts, LockedBy: r.opts.ID})
	switch {
	case err != nil:
		// The leases will expire and the rescuer will put the jobs back.
		r.log.WarnContext(ctx, "record job outcomes", "jobs", len(ids), "code", ErrorCode(err))
	case int(done) < len(ids):
		r.log.WarnContext(ctx, "job outcomes dropped: jobs were taken back while they ran", "jobs", len(ids)-int(done))
	}
}

// call runs the handler with the job's own timeout, turning a panic into an error.
func (r *Runner) call(work context.Context, j Job) (err error) {
	h := r.handlers[j.Kind]
	if h == nil {
		return Permanent(CodeNoHandler, nil)
	}
	ctx, cancel := context.WithTimeout(work, r.opts.JobTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Code: CodeHandlerPanic}
		}
	}()
	return h(ctx, j)
}

// callBatch runs a batch handler like call; a panic, or an answer of the wrong length, fails every
// job of the batch.
func (r *Runner) callBatch(work context.Context, kind Kind, js []Job) (errs []error) {
	ctx, cancel := context.WithTimeout(work, r.opts.JobTimeout)
	defer cancel()
	all := func(err error) []error {
		out := make([]error, len(js))
		for i := range out {
			out[i] = err
		}
		return out
	}
	defer func() {
		if p := recover(); p != nil {
			errs = all(&Error{Code: CodeHandlerPanic})
		}
	}()
	errs = r.batches[kind](ctx, js)
	if len(errs) != len(js) {
		return all(&Error{Code: CodeHandlerError})
	}
	return errs
}

// finish records the outcome of one failed (or released) attempt. Its updates are fenced on the claim, so an outcome that
// arrives after the job was rescued, released or re-claimed changes nothing.
func (r *Runner) finish(j Job, err error, releasing bool) {
	// The outcome is recorded even while Run shuts down.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	log := r.log.With("job", j.ID, "kind", j.Kind, "attempt", j.Attempt)
	var (
		changed int64
		dbErr   error
		snz     retryAter
		rtr     retryable
	)
	q := jobsdb.New(r.pool)
	switch {
	case releasing:
		changed, dbErr = q.JobSnooze(ctx, r.snooze(j, nil, nil))
		log.InfoContext(ctx, "job released at shutdown")
	case errors.As(err, &snz):
		code := ErrorCode(err)
		at := snz.RetryAt()
		changed, dbErr = q.JobSnooze(ctx, r.snooze(j, &at, &code))
		log.InfoContext(ctx, "job postponed", "code", code, "until", snz.RetryAt())
	default:
		code := ErrorCode(err)
		fail := j.Attempt >= r.opts.MaxAttempts || (errors.As(err, &rtr) && !rtr.Retryable())
		r.opts.Metrics.JobAttempt(string(j.Kind), true, fail)
		delay := Backoff(j.Attempt)
		changed, dbErr = q.JobRetry(ctx, jobsdb.JobRetryParams{
			ID: j.ID, LockedBy: r.opts.ID, Attempts: j.Attempt, Fail: fail, DelayMs: delay.Milliseconds(), Now: r.now(),
			LastError: code,
		})
		if fail {
			log.WarnContext(ctx, "job failed", "code", code)
		} else {
			log.InfoContext(ctx, "job will be retried", "code", code, "in", delay.Round(time.Second))
		}
	}
	switch {
	case dbErr != nil:
		// The lease will expire and the rescuer will put the job back.
		log.WarnContext(ctx, "record job outcome", "code", ErrorCode(dbErr))
	case changed == 0:
		log.WarnContext(ctx, "job outcome dropped: the job was taken back while it ran")
	}
}

// snooze is the update that puts claimed job j back to wait until at (nil: now), recording code
// (nil: the last error stays).
func (r *Runner) snooze(j Job, at *time.Time, code *string) jobsdb.JobSnoozeParams {
	return jobsdb.JobSnoozeParams{ID: j.ID, LockedBy: r.opts.ID, Attempts: j.Attempt, RunAfter: at, LastError: code}
}

// Backoff is the delay before retrying after attempt failed: attempt⁴ seconds, ±10% jitter.
func Backoff(attempt int) time.Duration {
	d := math.Pow(float64(attempt), 4) * float64(time.Second)
	return time.Duration(d * (0.9 + 0.2*mrand.Float64()))
}

// shutdown waits up to the grace period for in-flight handlers, then cancels them and releases the
// jobs whose handlers haven't returned yet.
func (r *Runner) shutdown(cancelWork context.CancelFunc) {
	finished := make(chan struct{})
	go func() {
		r.handlerWG.Wait()
		close(finished)
	}()
	grace := time.NewTimer(r.opts.ShutdownGrace)
	defer grace.Stop()
	select {
	case <-finished:
		return
	case <-grace.C:
	}
	r.mu.Lock()
	r.releasing = true
	left := make([]Job, 0, len(r.inflight))
	for id, j := range r.inflight {
		left = append(left, j)
		delete(r.inflight, id)
	}
	r.mu.Unlock()
	cancelWork()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, j := range left {
		if _, err := jobsdb.New(r.pool).JobSnooze(ctx, r.snooze(j, nil, nil)); err != nil {
			r.log.WarnContext(ctx, "release job", "job", j.ID, "code", ErrorCode(err))
		}
	}
	if len(left) > 0 {
		r.log.InfoContext(ctx, "released unfinished jobs at shutdown", "jobs", len(left))
	}
	// Handlers that honour their context return promptly; one that doesn't is left behind rather
	// than holding up the process, and its late outcome is dropped by the fence.
	select {
	case <-finished:
	case <-time.After(min(r.opts.ShutdownGrace, time.Second)):
		r.log.WarnContext(ctx, "a job handler ignored cancellation; leaving it behind")
	}
}

// listen wakes the runner on every notification of an enqueue, reconnecting after failures; the
// poll interval covers whatever is missed meanwhile.
func (r *Runner) listen(ctx context.Context) {
	connConfig := r.pool.Config().ConnConfig.Copy()
	l := &pgxlisten.Listener{
		Connect:        func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, connConfig) },
		ReconnectDelay: 5 * time.Second,
		LogError: func(ctx context.Context, err error) {
			if ctx.Err() == nil {
				r.log.WarnContext(ctx, "job listener", "code", ErrorCode(err))
			}
		},
	}
	l.Handle(Channel, wakeHandler{r})
	_ = l.Listen(ctx)
}

type wakeHandler struct{ r *Runner }

func (h wakeHandler) HandleNotification(context.Context, *pgconn.Notification, *pgx.Conn) error {
	h.r.signal()
	return nil
}

// HandleBacklog wakes the runner after every (re)connect: jobs may have arrived while it was away.
func (h wakeHandler) HandleBacklog(context.Context, string, *pgx.Conn) error {
	h.r.listeningOnce.Do(func() { close(h.r.listening) })
	h.r.signal()
	return nil
}
