package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/open-bot/memory/internal/jobs/jobsdb"
	"github.com/open-bot/memory/internal/metrics"
)

// Channel is the NOTIFY channel an enqueue wakes runners on. The payload is the job's kind.
const Channel = "memory_jobs"

// MaxAttempts is how often a job is tried before it is marked failed (RULES I3).
const MaxAttempts = 5

// Kind is what a job does. The domain defines its kinds (internal/memory: embed, extract) and the
// wiring registers a handler for each; memory_jobs' check constraint lists the kinds the schema
// accepts.
type Kind string

// Job is one unit of background work. It references an item revision or a run, never memory text.
type Job struct {
	// ID is the row's id; set by the queue.
	ID int64
	// Kind says which handler runs it.
	Kind Kind
	// ItemID and Revision name an item revision ("" and 0 when not used).
	ItemID   string
	Revision int
	// RunID names a run ("" when not used).
	RunID string
	// RunAfter delays the job; zero means now.
	RunAfter time.Time
	// Attempt is 1 on the first try; set by the runner.
	Attempt int
}

// validate checks what the queue itself needs: a kind, and exactly one reference — an item revision
// (ItemID and Revision ≥ 1) or a run — given as uuids.
func (j Job) validate() error {
	if j.Kind == "" {
		return errors.New("jobs: a job needs a kind")
	}
	item, run := j.ItemID != "" || j.Revision != 0, j.RunID != ""
	switch {
	case item && run:
		return errors.New("jobs: a job names an item revision or a run, not both")
	case item && (j.ItemID == "" || j.Revision < 1):
		return errors.New("jobs: a job on an item needs the item and a revision")
	case !item && !run:
		return errors.New("jobs: a job needs an item revision or a run")
	}
	for _, id := range []string{j.ItemID, j.RunID} {
		if id != "" {
			if _, err := uuid.Parse(id); err != nil {
				return errors.New("jobs: item and run ids must be uuids")
			}
		}
	}
	return nil
}

// DBTX is what EnqueueTx writes with: a transaction, or a batch of statements queued to run in one.
type DBTX = jobsdb.DBTX

// EnqueueTx adds j in tx, so the job exists if and only if the change that needs it commits, and
// wakes the runners (at commit). On a queued batch, the statement's error is the batch's.
func EnqueueTx(ctx context.Context, tx DBTX, j Job) error {
	if err := j.validate(); err != nil {
		return err
	}
	if err := jobsdb.New(tx).JobInsert(ctx, jobsdb.JobInsertParams{
		Channel: Channel, Kind: string(j.Kind), ItemID: nullString(j.ItemID), Revision: nullInt(j.Revision),
		RunID: nullString(j.RunID), RunAfter: nullTime(j.RunAfter),
	}); err != nil {
		return fmt.Errorf("enqueue %s job: %w", j.Kind, err)
	}
	return nil
}

// EnqueueUniqueTx adds each of js in tx unless the same job (kind, item, revision, run) is already
// pending or running, and returns how many it added. Concurrent callers should serialise (say, on an
// advisory lock) if duplicates matter to them.
func EnqueueUniqueTx(ctx context.Context, tx pgx.Tx, js []Job) (int, error) {
	if len(js) == 0 {
		return 0, nil
	}
	arg := jobsdb.JobsInsertUniqueParams{
		Channel: Channel, Kinds: make([]string, len(js)), ItemIds: make([]string, len(js)),
		Revisions: make([]int, len(js)), RunIds: make([]string, len(js)),
	}
	for i, j := range js {
		if err := j.validate(); err != nil {
			return 0, err
		}
		// "" and 0 stand for none (a valid job has a uuid or nothing, a revision ≥ 1 or none).
		arg.Kinds[i], arg.ItemIds[i], arg.Revisions[i], arg.RunIds[i] = string(j.Kind), j.ItemID, j.Revision, j.RunID
	}
	res, err := jobsdb.New(tx).JobsInsertUnique(ctx, arg)
	if err != nil {
		return 0, fmt.Errorf("enqueue jobs: %w", err)
	}
	return res.Added, nil
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nullInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// Codes the queue itself records in last_error.
const (
	// CodeHandlerError stands for any error that carries no code of its own: its message might
	// quote memory text, so it is never stored or logged.
	CodeHandlerError = "handler error"
	// CodeHandlerPanic: the handler panicked.
	CodeHandlerPanic = "handler panic"
	// CodeTimeout: the handler ran out of its time.
	CodeTimeout = "timed out"
	// CodeLeaseExpired: the runner holding the job died or hung; the rescuer took it back.
	CodeLeaseExpired = "lease expired"
	// CodeNoHandler: no handler for the kind (a runner claims only kinds it handles, so this means a
	// programming error).
	CodeNoHandler = "no handler"
)

// Handlers signal what should happen to a failed job through optional methods on their error
// (found with errors.As anywhere in the chain), so packages like internal/ai need not import this one:
//
//	ErrorCode() string     // a text-free code for last_error and logs, e.g. "ai rate limited"
//	Retryable() bool       // false: fail now, retrying can't help (e.g. HTTP 400)
//	RetryAt() time.Time    // wait until then; the attempt doesn't count (e.g. budget spent)
type (
	errorCoder interface{ ErrorCode() string }
	retryable  interface{ Retryable() bool }
	retryAter  interface{ RetryAt() time.Time }
)

// Error is a handler error with a text-free Code. Its message is the code alone, so it is safe to
// log; Err (which may quote memory text) is kept for errors.Is/As only.
type Error struct {
	Code      string
	Permanent bool
	Err       error
}

func (e *Error) Error() string     { return e.Code }
func (e *Error) Unwrap() error     { return e.Err }
func (e *Error) ErrorCode() string { return e.Code }
func (e *Error) Retryable() bool   { return !e.Permanent }

// Permanent wraps err so the job fails at once with code, without further attempts.
func Permanent(code string, err error) error { return &Error{Code: code, Permanent: true, Err: err} }

// ErrorCode returns the text-free code recorded for err: its own ErrorCode if it has one (cleaned of
// anything but letters, digits and a little punctuation), a SQLSTATE for database errors, or a
// generic code. It never returns err's message.
func ErrorCode(err error) string {
	var c errorCoder
	if errors.As(err, &c) {
		if code := cleanCode(c.ErrorCode()); code != "" {
			return code
		}
	}
	var pg *pgconn.PgError
	switch {
	case errors.As(err, &pg):
		// The message and detail of a database error may quote a row; the SQLSTATE can't.
		return "database error " + cleanCode(pg.Code)
	case errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return CodeHandlerError
}

// maxCodeLength keeps codes short; last_error allows 500 characters.
const maxCodeLength = 100

func cleanCode(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= maxCodeLength {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(" _-.:/", r):
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// QueueDepth is the queue's pending and running jobs by kind and status, each with the age of its
// oldest job: what the metrics report at a scrape.
func QueueDepth(ctx context.Context, db DBTX) ([]metrics.QueueDepth, error) {
	rows, err := jobsdb.New(db).JobsQueueDepth(ctx)
	if err != nil {
		return nil, fmt.Errorf("job queue depth: %w", err)
	}
	out := make([]metrics.QueueDepth, len(rows))
	for i, r := range rows {
		out[i] = metrics.QueueDepth{Kind: r.Kind, Status: r.Status, Jobs: r.Jobs,
			OldestAge: time.Duration(r.OldestSeconds * float64(time.Second))}
	}
	return out, nil
}
