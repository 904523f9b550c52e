package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Runs end when they are abandoned: a run token that goes unused for longer than the run idle
// timeout stops working and its run is interrupted, either when the token is next presented or by
// the sweeper (InterruptIdleRuns), whichever comes first. So a worker that dies mid-turn leaves no
// token that works forever.

// neverIdle stands for "no run idle timeout" in SQL intervals.
const neverIdle = 100 * 365 * 24 * time.Hour

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
	run, err := queries(s.pool).RunAuthenticate(ctx, memorydb.RunAuthenticateParams{
		TokenHash: tokenHash, Idle: idle, TouchEvery: touchEvery,
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return Credential{}, ErrUnauthenticated
	case err != nil:
		return Credential{}, fmt.Errorf("authenticate run: %w", err)
	case run.Idle:
		if _, err := s.endIdleRuns(ctx, &run.ID); err != nil {
			return Credential{}, err
		}
		return Credential{}, ErrUnauthenticated
	}
	return Credential{Kind: CredentialRun, RunID: run.ID, TeammateID: run.TeammateID}, nil
}

// InterruptIdleRuns interrupts every running run whose token has not been used for longer than the
// run idle timeout, and returns how many it ended. The API's sweeper calls it.
func (s *Background) InterruptIdleRuns(ctx context.Context) (int, error) {
	if s.runIdle <= 0 {
		return 0, nil
	}
	return s.service().endIdleRuns(ctx, nil)
}

func (s *Service) endIdleRuns(ctx context.Context, runID *string) (int, error) {
	idle, _ := s.runIdleTimeouts()
	ended, err := queries(s.pool).RunsEndIdle(ctx, memorydb.RunsEndIdleParams{Idle: idle, OnlyID: runID})
	if err != nil {
		return 0, fmt.Errorf("interrupt idle runs: %w", err)
	}
	for _, id := range ended {
		s.log.InfoContext(ctx, "run interrupted: its token was idle for longer than the run idle timeout", "run", id, "idle", idle)
	}
	return len(ended), nil
}
