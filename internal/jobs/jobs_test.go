package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/open-bot/memory/internal/dbtest"
	"github.com/open-bot/memory/internal/jobs"
)

// TestMain also checks that no goroutine outlives the tests: runners, listeners and handlers all end.
func TestMain(m *testing.M) {
	code := dbtest.Main(m)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

var quiet = slog.New(slog.DiscardHandler)

// The kinds the schema accepts (memory_jobs' check constraint). The queue doesn't know what they do,
// and neither do these tests: their handlers are the tests' own.
const (
	embed   jobs.Kind = "embed"
	extract jobs.Kind = "extract"
)

// secret stands for memory text: it must never reach a job row.
const secret = "the user's secret is swordfish"

// newItem inserts a bare shared item for embed jobs to reference.
func newItem(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var id string
	require.NoError(t, pool.QueryRow(t.Context(), `
		INSERT INTO memory_items (kind, content, status, source) VALUES ('fact', 'x', 'active', 'user')
		RETURNING id::text`).Scan(&id))
	return id
}

func enqueue(t testing.TB, pool *pgxpool.Pool, j jobs.Job) {
	t.Helper()
	require.NoError(t, pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
		return jobs.EnqueueTx(context.Background(), tx, j)
	}))
}

// enqueueMany adds n embed jobs for item in one transaction.
func enqueueMany(t testing.TB, pool *pgxpool.Pool, item string, n int) {
	t.Helper()
	require.NoError(t, pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
		for i := range n {
			if err := jobs.EnqueueTx(context.Background(), tx, jobs.Job{Kind: embed, ItemID: item, Revision: i + 1}); err != nil {
				return err
			}
		}
		return nil
	}))
}

type row struct {
	ID        int64
	Status    string
	Attempts  int
	RunAfter  time.Time
	Lease     *time.Time
	LockedBy  *string
	LastError *string
}

func rows(t *testing.T, pool *pgxpool.Pool) []row {
	t.Helper()
	r, err := pool.Query(context.Background(), `
		SELECT id, status, attempts, run_after, lease_until, locked_by, last_error FROM memory_jobs ORDER BY id`)
	require.NoError(t, err)
	out, err := pgx.CollectRows(r, func(r pgx.CollectableRow) (row, error) {
		var x row
		return x, r.Scan(&x.ID, &x.Status, &x.Attempts, &x.RunAfter, &x.Lease, &x.LockedBy, &x.LastError)
	})
	require.NoError(t, err)
	return out
}

func only(t *testing.T, pool *pgxpool.Pool) row {
	t.Helper()
	all := rows(t, pool)
	require.Len(t, all, 1)
	return all[0]
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// runInBackground runs r until the returned stop is called; stop waits for Run to return.
func runInBackground(t *testing.T, r *jobs.Runner) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			require.NoError(t, <-done)
		})
	}
	t.Cleanup(stop)
	return stop
}

func TestEnqueueClaimComplete(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)

	// A listener sees the enqueue's wake-up at commit, with the kind as the only payload.
	conn, err := pool.Acquire(t.Context())
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(t.Context(), "LISTEN "+jobs.Channel)
	require.NoError(t, err)

	// A rolled-back change leaves no job.
	rollback := errors.New("rollback")
	err = pgx.BeginFunc(t.Context(), pool, func(tx pgx.Tx) error {
		require.NoError(t, jobs.EnqueueTx(t.Context(), tx, jobs.Job{Kind: embed, ItemID: item, Revision: 1}))
		return rollback
	})
	require.ErrorIs(t, err, rollback)
	require.Empty(t, rows(t, pool))

	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: item, Revision: 3})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	n, err := conn.Conn().WaitForNotification(ctx)
	require.NoError(t, err)
	assert.Equal(t, "embed", n.Payload)

	pending := only(t, pool)
	assert.Equal(t, "pending", pending.Status)
	assert.Zero(t, pending.Attempts)

	r := jobs.NewRunner(pool, jobs.Options{ID: "runner-a", Log: quiet})
	var got []jobs.Job
	r.Handle(embed, func(ctx context.Context, j jobs.Job) error {
		got = append(got, j)
		var status, lockedBy string
		require.NoError(t, pool.QueryRow(ctx, `SELECT status, locked_by FROM memory_jobs WHERE id = $1`, j.ID).Scan(&status, &lockedBy))
		assert.Equal(t, "running", status, "the job is leased while its handler runs")
		assert.Equal(t, "runner-a", lockedBy)
		return nil
	})
	ran, err := r.RunOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, ran)
	require.Len(t, got, 1)
	assert.Equal(t, jobs.Job{ID: pending.ID, Kind: embed, ItemID: item, Revision: 3, Attempt: 1}, got[0])

	done := only(t, pool)
	assert.Equal(t, "done", done.Status)
	assert.Equal(t, 1, done.Attempts)
	assert.Nil(t, done.Lease)
	assert.Nil(t, done.LastError)

	ran, err = r.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Zero(t, ran, "a done job is not claimed again")
}

func TestEnqueueValidates(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)
	for _, j := range []jobs.Job{
		{Kind: embed, ItemID: item},
		{Kind: embed, Revision: 1},
		{Kind: embed, ItemID: "not-a-uuid", Revision: 1},
		{Kind: extract},
		{Kind: "summarise", ItemID: item, Revision: 1}, // refused by the schema
		{ItemID: item, Revision: 1},
		{Kind: embed, ItemID: item, Revision: 1, RunID: item},
	} {
		err := pgx.BeginFunc(t.Context(), pool, func(tx pgx.Tx) error { return jobs.EnqueueTx(t.Context(), tx, j) })
		assert.Error(t, err, "%+v", j)
	}
	assert.Empty(t, rows(t, pool))
}

func TestRunnerClaimsOnlyItsKindsAndDueJobs(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: item, Revision: 1, RunAfter: time.Now().Add(time.Hour)})
	r := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	r.Handle(extract, func(context.Context, jobs.Job) error { return nil })
	ran, err := r.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Zero(t, ran)

	r.Handle(embed, func(context.Context, jobs.Job) error { return nil })
	ran, err = r.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Zero(t, ran, "a job is not claimed before its run_after")
	assert.Equal(t, "pending", only(t, pool).Status)
}

// TestTwoRunnersNeverRunTheSameJob: two runners work 300 jobs at once; each job runs exactly once.
func TestTwoRunnersNeverRunTheSameJob(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)
	const total = 300
	enqueueMany(t, pool, item, total)

	var (
		mu      sync.Mutex
		counts  = map[int64]int{}
		handled atomic.Int64
		all     = make(chan struct{})
	)
	handler := func(_ context.Context, j jobs.Job) error {
		mu.Lock()
		counts[j.ID]++
		mu.Unlock()
		if handled.Add(1) == total {
			close(all)
		}
		return nil
	}
	var stops []func()
	for _, id := range []string{"runner-a", "runner-b"} {
		r := jobs.NewRunner(pool, jobs.Options{ID: id, Workers: 4, BatchSize: 3, PollInterval: 10 * time.Millisecond, Log: quiet})
		r.Handle(embed, handler)
		stops = append(stops, runInBackground(t, r))
	}
	select {
	case <-all:
	case <-time.After(time.Minute):
		t.Fatalf("only %d of %d jobs ran", handled.Load(), total)
	}
	for _, stop := range stops {
		stop()
	}
	require.Len(t, counts, total)
	for id, n := range counts {
		require.Equal(t, 1, n, "job %d ran %d times", id, n)
	}
	for _, r := range rows(t, pool) {
		require.Equal(t, "done", r.Status)
		require.Equal(t, 1, r.Attempts)
	}
}

// TestRetryWithBackoffThenFailed: a handler that always fails is retried after attempt⁴ seconds
// (±10%), then marked failed after five attempts, with a text-free last_error.
func TestRetryWithBackoffThenFailed(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: item, Revision: 1})

	clk := &clock{now: time.Now().Add(time.Minute)}
	r := jobs.NewRunner(pool, jobs.Options{Now: clk.Now, Log: quiet})
	attempts := 0
	r.Handle(embed, func(_ context.Context, j jobs.Job) error {
		attempts++
		assert.Equal(t, attempts, j.Attempt)
		return fmt.Errorf("embed %q: %w", secret, errors.New("boom"))
	})
	for a := 1; a <= jobs.MaxAttempts; a++ {
		ran, err := r.RunOnce(t.Context())
		require.NoError(t, err)
		require.Equal(t, 1, ran, "attempt %d", a)
		j := only(t, pool)
		require.Equal(t, a, j.Attempts)
		require.NotNil(t, j.LastError)
		assert.Equal(t, jobs.CodeHandlerError, *j.LastError)
		assert.Nil(t, j.Lease)
		if a == jobs.MaxAttempts {
			assert.Equal(t, "failed", j.Status)
			break
		}
		require.Equal(t, "pending", j.Status)
		assert.Nil(t, j.LockedBy)
		want := time.Duration(a*a*a*a) * time.Second
		delay := j.RunAfter.Sub(clk.Now())
		assert.InDelta(t, want.Seconds(), delay.Seconds(), want.Seconds()*0.1+0.01, "attempt %d", a)

		// Not due before its run_after…
		clk.Set(j.RunAfter.Add(-time.Millisecond))
		ran, err = r.RunOnce(t.Context())
		require.NoError(t, err)
		require.Zero(t, ran)
		// …due from then on.
		clk.Set(j.RunAfter)
	}
	clk.Set(clk.Now().Add(24 * time.Hour))
	ran, err := r.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Zero(t, ran, "a failed job is never claimed again")
	assert.Equal(t, jobs.MaxAttempts, attempts)
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	for a := 1; a <= 5; a++ {
		want := float64(a*a*a*a) * float64(time.Second)
		for range 50 {
			d := float64(jobs.Backoff(a))
			require.GreaterOrEqual(t, d, want*0.9)
			require.LessOrEqual(t, d, want*1.1)
		}
	}
}

func TestPermanentErrorFailsAtOnce(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: newItem(t, pool), Revision: 1})
	r := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	r.Handle(embed, func(context.Context, jobs.Job) error {
		return fmt.Errorf("wrapped: %w", jobs.Permanent("ai bad request", errors.New(secret)))
	})
	_, err := r.RunOnce(t.Context())
	require.NoError(t, err)
	j := only(t, pool)
	assert.Equal(t, "failed", j.Status)
	assert.Equal(t, 1, j.Attempts)
	assert.Equal(t, "ai bad request", *j.LastError)
}

// budgetSpent mimics internal/ai's error: it carries RetryAt and a code without importing jobs.
type budgetSpent struct{ until time.Time }

func (e budgetSpent) Error() string        { return "daily AI budget spent" }
func (e budgetSpent) RetryAt() time.Time   { return e.until }
func (e budgetSpent) ErrorCode() string    { return "ai budget spent" }
func (e budgetSpent) Is(target error) bool { return false }

func TestRetryAtWaitsWithoutCountingTheAttempt(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: newItem(t, pool), Revision: 1})
	tomorrow := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	clk := &clock{now: time.Now()}
	r := jobs.NewRunner(pool, jobs.Options{Now: clk.Now, Log: quiet})
	calls := 0
	r.Handle(embed, func(context.Context, jobs.Job) error {
		calls++
		if calls <= jobs.MaxAttempts+1 {
			return fmt.Errorf("embed: %w", budgetSpent{until: tomorrow})
		}
		return nil
	})
	for i := range jobs.MaxAttempts + 1 {
		if i > 0 {
			clk.Set(tomorrow.Add(-time.Hour))
			ran, err := r.RunOnce(t.Context())
			require.NoError(t, err)
			require.Zero(t, ran, "the job waits until tomorrow")
			clk.Set(tomorrow)
		}
		ran, err := r.RunOnce(t.Context())
		require.NoError(t, err)
		require.Equal(t, 1, ran)
		j := only(t, pool)
		require.Equal(t, "pending", j.Status, "never failed, however often it is postponed")
		require.Zero(t, j.Attempts)
		require.True(t, j.RunAfter.Equal(tomorrow), "run_after %v", j.RunAfter)
		require.Equal(t, "ai budget spent", *j.LastError)
	}
	ran, err := r.RunOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, ran)
	assert.Equal(t, "done", only(t, pool).Status)
}

// TestExpiredLeaseIsRescuedAndFinishedOnce: runner A claims a job and hangs (as if killed mid-job,
// it never releases it); once the lease expires, runner B rescues the job and finishes it. When A's
// handler finally returns, its outcome is dropped.
func TestExpiredLeaseIsRescuedAndFinishedOnce(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: newItem(t, pool), Revision: 1})

	a := jobs.NewRunner(pool, jobs.Options{ID: "runner-a", Log: quiet})
	started, hang := make(chan struct{}), make(chan struct{})
	a.Handle(embed, func(context.Context, jobs.Job) error {
		close(started)
		<-hang // ignores its context: a hung or dead process
		return errors.New("late failure")
	})
	aCtx, killA := context.WithCancel(t.Context())
	aDone := make(chan error, 1)
	go func() {
		_, err := a.RunOnce(aCtx)
		aDone <- err
	}()
	<-started
	killA()

	b := jobs.NewRunner(pool, jobs.Options{ID: "runner-b", Log: quiet})
	var bRuns atomic.Int32
	b.Handle(embed, func(_ context.Context, j jobs.Job) error {
		bRuns.Add(1)
		assert.Equal(t, 2, j.Attempt, "the lost attempt counts")
		return nil
	})
	n, err := b.Rescue(t.Context())
	require.NoError(t, err)
	require.Zero(t, n, "a live lease is left alone")
	ran, err := b.RunOnce(t.Context())
	require.NoError(t, err)
	require.Zero(t, ran, "a leased job is not claimed twice")

	_, err = pool.Exec(t.Context(), `UPDATE memory_jobs SET lease_until = now() - interval '1 second'`)
	require.NoError(t, err)
	n, err = b.Rescue(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	rescued := only(t, pool)
	assert.Equal(t, "pending", rescued.Status)
	assert.Equal(t, jobs.CodeLeaseExpired, *rescued.LastError)

	ran, err = b.RunOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, ran)

	close(hang)
	require.NoError(t, <-aDone)
	j := only(t, pool)
	assert.Equal(t, "done", j.Status, "A's late failure doesn't undo B's work")
	assert.Equal(t, "runner-b", *j.LockedBy)
	assert.Equal(t, 2, j.Attempts)
	assert.Nil(t, j.LastError)
	assert.Equal(t, int32(1), bRuns.Load())
}

func TestRescueFailsJobsOutOfAttempts(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: newItem(t, pool), Revision: 1})
	_, err := pool.Exec(t.Context(), `
		UPDATE memory_jobs SET status = 'running', attempts = 5, locked_by = 'dead', lease_until = now() - interval '1 minute'`)
	require.NoError(t, err)
	r := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	n, err := r.Rescue(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	j := only(t, pool)
	assert.Equal(t, "failed", j.Status, "a job that keeps killing its runner stops after five attempts")
	assert.Equal(t, jobs.CodeLeaseExpired, *j.LastError)
}

func TestShutdownReleasesUnfinishedJobs(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueueMany(t, pool, newItem(t, pool), 2)
	r := jobs.NewRunner(pool, jobs.Options{Workers: 2, ShutdownGrace: 20 * time.Millisecond, Log: quiet})
	started := make(chan struct{}, 2)
	r.Handle(embed, func(ctx context.Context, _ jobs.Job) error {
		started <- struct{}{}
		<-ctx.Done()
		return fmt.Errorf("%s: %w", secret, ctx.Err())
	})
	stop := runInBackground(t, r)
	<-started
	<-started
	stop()
	for _, j := range rows(t, pool) {
		assert.Equal(t, "pending", j.Status)
		assert.Zero(t, j.Attempts, "a released job's attempt doesn't count")
		assert.Nil(t, j.LockedBy)
		assert.Nil(t, j.Lease)
		assert.Nil(t, j.LastError)
	}
}

func TestShutdownLetsHandlersFinish(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: newItem(t, pool), Revision: 1})
	r := jobs.NewRunner(pool, jobs.Options{ShutdownGrace: time.Minute, Log: quiet})
	started, finish := make(chan struct{}), make(chan struct{})
	r.Handle(embed, func(ctx context.Context, _ jobs.Job) error {
		close(started)
		<-finish
		return ctx.Err() // still nil: the grace period hasn't run out
	})
	stop := runInBackground(t, r)
	<-started
	stopped := make(chan struct{})
	go func() {
		stop()
		close(stopped)
	}()
	close(finish)
	<-stopped
	assert.Equal(t, "done", only(t, pool).Status)
}

func TestShutdownLeavesAHandlerThatIgnoresCancellation(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueue(t, pool, jobs.Job{Kind: embed, ItemID: newItem(t, pool), Revision: 1})
	r := jobs.NewRunner(pool, jobs.Options{ShutdownGrace: 10 * time.Millisecond, Log: quiet})
	started, hang := make(chan struct{}), make(chan struct{})
	r.Handle(embed, func(context.Context, jobs.Job) error {
		close(started)
		<-hang
		return nil
	})
	defer close(hang)
	stop := runInBackground(t, r)
	<-started
	stop() // returns although the handler doesn't
	j := only(t, pool)
	assert.Equal(t, "pending", j.Status)
	assert.Zero(t, j.Attempts)
}

// TestNotificationWakesTheRunner: with a poll interval of an hour, only the enqueue's NOTIFY can
// make the runner pick the job up.
func TestNotificationWakesTheRunner(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)
	r := jobs.NewRunner(pool, jobs.Options{PollInterval: time.Hour, Log: quiet})
	handled := make(chan jobs.Job, 2)
	r.Handle(embed, func(_ context.Context, j jobs.Job) error {
		handled <- j
		return nil
	})
	runInBackground(t, r)
	<-r.Listening()
	for rev := 1; rev <= 2; rev++ {
		enqueue(t, pool, jobs.Job{Kind: embed, ItemID: item, Revision: rev})
		select {
		case j := <-handled:
			assert.Equal(t, rev, j.Revision)
		case <-time.After(30 * time.Second):
			t.Fatal("the runner did not wake up")
		}
	}
}

// TestLastErrorNeverHoldsHandlerText: whatever a handler's error says — plain, wrapped, a database
// error whose detail quotes the row, a panic — last_error holds a code, never the text.
func TestLastErrorNeverHoldsHandlerText(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)

	// A real database error whose DETAIL quotes the failing row, memory text included.
	_, dbErr := pool.Exec(t.Context(), `INSERT INTO memory_items (kind, content, status, source) VALUES ('fact', $1, 'bogus', 'user')`, secret)
	require.Error(t, dbErr)
	require.Contains(t, fmt.Sprintf("%+v", dbErr)+detail(dbErr), "swordfish", "the test's premise: the driver error carries the text")

	cases := map[string]struct {
		fn   func() error
		want string
	}{
		"plain":    {func() error { return errors.New(secret) }, jobs.CodeHandlerError},
		"wrapped":  {func() error { return fmt.Errorf("step: %w", errors.New(secret)) }, jobs.CodeHandlerError},
		"database": {func() error { return fmt.Errorf("store: %w", dbErr) }, "database error 23514"},
		"panic":    {func() error { panic(secret) }, jobs.CodeHandlerPanic},
		"coded":    {func() error { return &jobs.Error{Code: "ai rate limited", Err: errors.New(secret)} }, "ai rate limited"},
		"timeout":  {func() error { return fmt.Errorf("%s: %w", secret, context.DeadlineExceeded) }, jobs.CodeTimeout},
	}
	for name, tc := range cases {
		_, err := pool.Exec(t.Context(), `DELETE FROM memory_jobs`)
		require.NoError(t, err)
		enqueue(t, pool, jobs.Job{Kind: embed, ItemID: item, Revision: 1})
		r := jobs.NewRunner(pool, jobs.Options{Log: quiet})
		r.Handle(embed, func(context.Context, jobs.Job) error { return tc.fn() })
		_, err = r.RunOnce(t.Context())
		require.NoError(t, err)
		j := only(t, pool)
		require.NotNil(t, j.LastError, name)
		assert.Equal(t, tc.want, *j.LastError, name)
		assert.NotContains(t, *j.LastError, "swordfish", name)
	}
	// And nothing else in the table holds it.
	var dump string
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT coalesce(string_agg(j::text, ' '), '') FROM memory_jobs j`).Scan(&dump))
	assert.NotContains(t, dump, "swordfish")
}

func detail(err error) string {
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		return fmt.Sprintf("%#v", err)
	}
	return ""
}

func TestErrorCode(t *testing.T) {
	t.Parallel()
	assert.Equal(t, jobs.CodeHandlerError, jobs.ErrorCode(errors.New(secret)))
	assert.Equal(t, "ai server error 503", jobs.ErrorCode(fmt.Errorf("x: %w", &jobs.Error{Code: "ai server error 503\n" + "\x00"})))
	assert.Equal(t, "cancelled", jobs.ErrorCode(context.Canceled))
	long := jobs.ErrorCode(&jobs.Error{Code: string(make([]byte, 0)) + fmt.Sprintf("%0300d", 7)})
	assert.LessOrEqual(t, len(long), 100)
	assert.Equal(t, "ai bad request", jobs.Permanent("ai bad request", errors.New(secret)).Error(), "a coded error's message is the code alone")
}

func TestEnqueueUniqueSkipsWaitingDuplicates(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	item := newItem(t, pool)
	conn, err := pool.Acquire(t.Context())
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(t.Context(), "LISTEN "+jobs.Channel)
	require.NoError(t, err)

	unique := func(js ...jobs.Job) int {
		var n int
		require.NoError(t, pgx.BeginFunc(t.Context(), pool, func(tx pgx.Tx) (err error) {
			n, err = jobs.EnqueueUniqueTx(t.Context(), tx, js)
			return err
		}))
		return n
	}
	e1 := jobs.Job{Kind: embed, ItemID: item, Revision: 1}
	e2 := jobs.Job{Kind: embed, ItemID: item, Revision: 2}
	assert.Equal(t, 2, unique(e1, e2, e1), "duplicates within one call count once")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	n, err := conn.Conn().WaitForNotification(ctx)
	require.NoError(t, err)
	assert.Equal(t, "embed", n.Payload)

	assert.Zero(t, unique(e1, e2), "already pending")
	_, err = pool.Exec(t.Context(), `UPDATE memory_jobs SET status = 'running', lease_until = now() + interval '1 minute' WHERE revision = 1`)
	require.NoError(t, err)
	assert.Zero(t, unique(e1), "already running")
	_, err = pool.Exec(t.Context(), `UPDATE memory_jobs SET status = 'done', lease_until = NULL`)
	require.NoError(t, err)
	assert.Equal(t, 1, unique(e1), "a finished job may be enqueued again")
	assert.Zero(t, unique())
	_, err = jobs.EnqueueUniqueTx(t.Context(), nil, []jobs.Job{{Kind: extract}})
	assert.Error(t, err, "validated before anything is sent")
}

// TestBatchHandlerGetsTheClaimedJobsTogether: the embed jobs claimed together go to one call, and each
// job gets its own outcome.
func TestBatchHandlerGetsTheClaimedJobsTogether(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueueMany(t, pool, newItem(t, pool), 5)
	r := jobs.NewRunner(pool, jobs.Options{BatchSize: 4, Log: quiet})
	var calls [][]int
	r.HandleBatch(embed, func(_ context.Context, js []jobs.Job) []error {
		revs := []int{}
		errs := make([]error, len(js))
		for i, j := range js {
			revs = append(revs, j.Revision)
			if j.Revision == 2 {
				errs[i] = jobs.Permanent("bad item", errors.New(secret))
			}
		}
		calls = append(calls, revs)
		return errs
	})
	assert.Equal(t, []jobs.Kind{embed}, r.Kinds())
	ran, err := r.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 4, ran)
	ran, err = r.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, ran)
	assert.Equal(t, [][]int{{1, 2, 3, 4}, {5}}, calls, "oldest first, at most BatchSize at once")
	statuses := map[string]int{}
	for _, j := range rows(t, pool) {
		statuses[j.Status]++
	}
	assert.Equal(t, map[string]int{"done": 4, "failed": 1}, statuses)
}

func TestBatchHandlerPanicOrWrongAnswerRetriesEveryJob(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	enqueueMany(t, pool, newItem(t, pool), 2)
	r := jobs.NewRunner(pool, jobs.Options{Log: quiet})
	r.HandleBatch(embed, func(context.Context, []jobs.Job) []error { return nil })
	_, err := r.RunOnce(t.Context())
	require.NoError(t, err)
	for _, j := range rows(t, pool) {
		assert.Equal(t, "pending", j.Status)
		assert.Equal(t, jobs.CodeHandlerError, *j.LastError)
	}
	_, err = pool.Exec(t.Context(), `UPDATE memory_jobs SET run_after = now()`)
	require.NoError(t, err)
	r.HandleBatch(embed, func(context.Context, []jobs.Job) []error { panic(secret) })
	_, err = r.RunOnce(t.Context())
	require.NoError(t, err)
	for _, j := range rows(t, pool) {
		assert.Equal(t, 2, j.Attempts)
		assert.Equal(t, jobs.CodeHandlerPanic, *j.LastError)
	}
}
