package ai

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/open-bot/memory/internal/ai/aidb"
)

// ErrBudgetSpent is what Reserve's error matches (errors.Is) when today's budget is spent or AI is
// off (limit 0).
var ErrBudgetSpent = errors.New("the daily AI request budget is spent")

// BudgetSpentError says the budget is spent until Until, the start of the next day (UTC). A job
// that meets it waits until then instead of failing (it has RetryAt for internal/jobs).
type BudgetSpentError struct {
	Until time.Time
}

func (e *BudgetSpentError) Error() string {
	return "the daily AI request budget is spent until " + e.Until.UTC().Format(time.RFC3339)
}

// Is makes errors.Is(err, ErrBudgetSpent) true.
func (e *BudgetSpentError) Is(target error) bool { return target == ErrBudgetSpent }

// RetryAt is when the budget resets.
func (e *BudgetSpentError) RetryAt() time.Time { return e.Until }

// ErrorCode is the text-free code a job records.
func (e *BudgetSpentError) ErrorCode() string { return "ai budget spent" }

// Budget is the daily cap on memory AI requests (I4), shared by every process on the database.
type Budget struct {
	q     *aidb.Queries
	limit int
	// now is the clock; nil means the database's. Tests only.
	now func() time.Time
}

// NewBudget returns a budget of limit requests a day (UTC); 0 turns memory AI off.
func NewBudget(pool *pgxpool.Pool, limit int) *Budget {
	return &Budget{q: aidb.New(pool), limit: max(limit, 0)}
}

// WithClock returns a copy of b that reads the day from now (tests).
func (b *Budget) WithClock(now func() time.Time) *Budget {
	c := *b
	c.now = now
	return &c
}

// Limit is the number of requests allowed a day.
func (b *Budget) Limit() int { return b.limit }

func (b *Budget) clock() *time.Time {
	if b.now == nil {
		return nil
	}
	t := b.now()
	return &t
}

// Reserve takes one request from today's budget, or returns a *BudgetSpentError (errors.Is
// ErrBudgetSpent) when none is left. A reservation is never given back: a request that fails still
// counted, which errs on the side of spending less.
func (b *Budget) Reserve(ctx context.Context) error {
	if b.limit == 0 {
		// AI is off: nothing is counted, and nothing will be tomorrow either, but tomorrow is the
		// honest answer to "when may I retry" (the limit may have been raised by then).
		today, err := b.q.UsageToday(ctx, b.clock())
		if err != nil {
			return fmt.Errorf("reserve AI budget: %w", err)
		}
		return &BudgetSpentError{Until: nextDay(today.Day)}
	}
	res, err := b.q.UsageReserve(ctx, aidb.UsageReserveParams{Now: b.clock(), MaxRequests: b.limit})
	if err != nil {
		return fmt.Errorf("reserve AI budget: %w", err)
	}
	if !res.Reserved {
		return &BudgetSpentError{Until: nextDay(res.Day)}
	}
	return nil
}

// Used is the number of requests reserved today (UTC).
func (b *Budget) Used(ctx context.Context) (int, error) {
	today, err := b.q.UsageToday(ctx, b.clock())
	if err != nil {
		return 0, fmt.Errorf("read AI budget: %w", err)
	}
	return today.Requests, nil
}

func nextDay(day time.Time) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day()+1, 0, 0, 0, 0, time.UTC)
}
