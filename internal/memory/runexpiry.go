package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Runs end when they are abandoned (issue 17): a run token that goes unused for longer than the run
// idle timeout stops working and its run is interrupted, either when the token is next presented or
// by the sweeper (InterruptIdleRuns), whichever comes first. Before, a worker that died mid-turn
// left a token that worked forever.

// neverIdle stands for "no run idle timeout" in SQL intervals.
const neverIdle = 100 * 365 * 24 * time.Hour

const (
	// qRunAuthenticate returns the running run of a token hash and whether it has been idle for
	// longer than $2. A live run's last activity is moved to now only when it is older than $3, so
	// a busy run writes its row at most once per $3 rather than on every tool call.
	qRunAuthenticate = `WITH r AS (
			SELECT id, teammate_id, last_active_at < now() - $2::interval AS idle,
				last_active_at < now() - $3::interval AS stale
			FROM runs WHERE token_hash = $1 AND status = 'running'
		), touched AS (
			UPDATE runs SET last_active_at = now() FROM r WHERE runs.id = r.id AND NOT r.idle AND r.stale
		)
		SELECT id::text, teammate_id::text, idle FROM r`
	// qRunsEndIdle interrupts the running runs idle for longer than $1: every one, or $2 alone. The
	// idle condition is checked again here, so a run used meanwhile is left alone.
	qRunsEndIdle = `UPDATE runs SET status = 'interrupted', ended_at = now(), token_hash = NULL
		WHERE status = 'running' AND last_active_at < now() - $1::interval AND ($2::uuid IS NULL OR id = $2)
		RETURNING id::text`
)

// WithRunIdleTimeout sets how long a run token may go unused before its run is interrupted; zero (the
// default) means never.
func WithRunIdleTimeout(d time.Duration) Option {
	return func(s *Service) { s.runIdle = d }
}

// runIdleTimeouts are the idle timeout and the granularity of activity tracking.
func (s *Service) runIdleTimeouts() (idle, touchEvery time.Duration) {
	idle = s.runIdle
	if idle <= 0 {
		idle = neverIdle
	}
	return idle, min(idle/20, time.Minute)
}

// authenticateRun is AuthenticateRun for a token's hash: the credential of a running run that has
// not been idle for too long. An idle run is interrupted on the spot.
func (s *Service) authenticateRun(ctx context.Context, tokenHash []byte) (Credential, error) {
	idle, touchEvery := s.runIdleTimeouts()
	c := Credential{Kind: CredentialRun}
	var expired bool
	err := s.pool.QueryRow(ctx, qRunAuthenticate, tokenHash, idle, touchEvery).Scan(&c.RunID, &c.TeammateID, &expired)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Credential{}, ErrUnauthenticated
	case err != nil:
		return Credential{}, fmt.Errorf("authenticate run: %w", err)
	case expired:
		if _, err := s.endIdleRuns(ctx, &c.RunID); err != nil {
			return Credential{}, err
		}
		return Credential{}, ErrUnauthenticated
	}
	return c, nil
}

// InterruptIdleRuns interrupts every running run whose token has not been used for longer than the
// run idle timeout, and returns how many it ended. The API's sweeper calls it.
func (s *Service) InterruptIdleRuns(ctx context.Context) (int, error) {
	if s.runIdle <= 0 {
		return 0, nil
	}
	return s.endIdleRuns(ctx, nil)
}

func (s *Service) endIdleRuns(ctx context.Context, runID *string) (int, error) {
	idle, _ := s.runIdleTimeouts()
	rows, err := s.pool.Query(ctx, qRunsEndIdle, idle, runID)
	if err != nil {
		return 0, fmt.Errorf("interrupt idle runs: %w", err)
	}
	ended, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("interrupt idle runs: %w", err)
	}
	for _, id := range ended {
		s.log.InfoContext(ctx, "run interrupted: its token was idle for longer than the run idle timeout", "run", id, "idle", idle)
	}
	return len(ended), nil
}
