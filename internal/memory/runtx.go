package memory

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// The run-credential prologue (G5) and the adoption epilogue (G6), in one place: every operation a
// run credential makes on memory — the teammate's tools and completeRun — goes through runWriteTx or
// runTx, so no tool can forget the check and a worker that skips checkRunGeneration (or calls
// tools in parallel) still can't act on memory the user just corrected. Their transactions are inTx's (tx.go), which holds the lock order.

// runOpen locks the caller's run and returns it while it is running; a cancelled or ended run's
// credential no longer acts (ErrUnauthenticated), nor does one whose run is gone with its teammate.
func runOpen(ctx context.Context, tx pgx.Tx, c Credential) (Run, error) {
	row, err := queries(tx).RunGetForUpdate(ctx, c.RunID)
	if errors.Is(err, ErrNotFound) {
		return Run{}, ErrUnauthenticated // the teammate was deleted since the credential was checked
	}
	if err != nil {
		return Run{}, err
	}
	run := runFromRow(row)
	if run.Status != RunRunning {
		return Run{}, ErrUnauthenticated
	}
	return run, nil
}

// checkGenerationTx is G5's check inside the caller's transaction: it reads the teammate's
// generation and, when it is no longer the run's, ends the run as interrupted and reports false.
// The caller commits (so the interruption sticks) and answers ErrMemoryChangedMidTurn.
func checkGenerationTx(ctx context.Context, tx pgx.Tx, run Run) (Generation, bool, error) {
	q := queries(tx)
	g, err := generationQ(ctx, q, run.TeammateID)
	if err != nil {
		return Generation{}, false, err
	}
	if g.String() == run.Generation {
		return g, true, nil
	}
	_, err = q.RunEnd(ctx, memorydb.RunEndParams{ID: run.ID, Status: string(RunInterrupted)})
	return g, false, err
}

// runWriteTx runs a teammate's write (run credential). In one transaction it locks the run
// (refusing if the user cancelled it or it ended), takes the shared and the teammate's generation
// rows in that order for the rest of the transaction, and checks the run's generation (G5): if memory
// changed since the run adopted its generation, the run is interrupted, nothing is written and the
// answer is ErrMemoryChangedMidTurn. Otherwise write runs with the run's user message, and the run
// and its thread adopt the generation after only if it is the run's generation plus the write's own
// bumps (G6) — which, with both rows held, it must be; anything else is not adopted (fail closed),
// so the next check interrupts the run. scope is the scope the write is about; a run may write only
// shared memory and its own. With an idempotency key (keyed.key), the key is claimed after the
// generation check: a key that answered before answers the same again (its item re-read as it is
// now) and write doesn't run; otherwise the answer is recorded with the write (idempotency.go).
func (s *Service) runWriteTx(ctx context.Context, scope string, keyed keyedWrite, write func(tx pgx.Tx, run Run, message, messageID string) (ToolResult, error)) (ToolResult, error) {
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return ToolResult{}, err
	}
	once, err := s.idempotencyFor(c, keyed.key, keyed.operation, keyed.input)
	if err != nil {
		return ToolResult{}, err
	}
	if s.hooks.beforeToolWrite != nil {
		s.hooks.beforeToolWrite()
	}
	var (
		out     ToolResult
		changed bool
	)
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		out, changed = ToolResult{}, false
		run, err := runOpen(ctx, tx, c)
		if err != nil {
			return err
		}
		if scope != ScopeShared && scope != run.TeammateID {
			return ErrForbidden // S1: never reached through the tools, which derive scope from the run
		}
		// The two generation rows, always shared first and in two statements, so that the order is
		// fixed (no deadlock with another teammate's write, and user writes take one row only). They
		// are held until commit: a concurrent user change of either scope has either committed
		// before (and the check answers MEMORY_CHANGED) or waits until after.
		b := newBatch()
		b.q.ScopeLock(ctx, ScopeShared)
		b.q.ScopeLock(ctx, run.TeammateID)
		if err := b.send(ctx, tx); err != nil {
			return err
		}
		before, ok, err := checkGenerationTx(ctx, tx, run)
		if err != nil || !ok {
			changed = !ok
			return err
		}
		first, err := once.claimTx(ctx, tx)
		if err != nil || first != nil {
			if first != nil {
				out, err = replayToolTx(ctx, tx, first)
			}
			return err
		}
		q := queries(tx)
		request, err := q.MessageUserOfRun(ctx, run.ID)
		if err != nil {
			return err
		}
		if s.hooks.inToolWriteWindow != nil {
			s.hooks.inToolWriteWindow()
		}
		if out, err = write(tx, run, request.Content, request.ID); err != nil {
			return err
		}
		if out.Item != nil { // the item answered may be shared, from another teammate (S4)
			items := []Item{*out.Item}
			if err := withholdForRun(ctx, tx, c, items); err != nil {
				return err
			}
			out.Item = &items[0]
		}
		after, err := generationQ(ctx, q, run.TeammateID)
		if err != nil {
			return err
		}
		if after != before && ownBumpOnly(before, after) {
			if err := q.RunAdopt(ctx, memorydb.RunAdoptParams{ID: run.ID, Generation: after.String()}); err != nil {
				return err
			}
			if err := q.ThreadAdopt(ctx, memorydb.ThreadAdoptParams{
				ID: run.ThreadID, Generation: after.String(), RunGeneration: run.Generation,
			}); err != nil {
				return err
			}
			out.Adopted = true
		}
		return once.answerTx(ctx, tx, answer{tool: &out})
	})
	if err != nil {
		return ToolResult{}, wrapUnlessDomain("teammate tool", err)
	}
	if changed {
		s.log.InfoContext(ctx, "run interrupted: memory changed mid-turn", "run", c.RunID)
		return ToolResult{}, ErrMemoryChangedMidTurn
	}
	return out, nil
}

// keyedWrite is a teammate's write's idempotency key (nil for none), with the operation and the
// input it guards (see idempotencyFor).
type keyedWrite struct {
	key       *string
	operation string
	input     any
}

// ownBumpOnly reports whether after can only be before plus this transaction's own changes: with
// both generation rows held since before was read, no one else can bump them, so anything but
// counters that moved up (a bump) means something is wrong, and the run doesn't adopt (fail closed).
// The expired count may differ: now() is fixed within a transaction, so only the write itself can
// change it (forgetting or editing an expired item).
func ownBumpOnly(before, after Generation) bool {
	return after.Shared >= before.Shared && after.Own >= before.Own
}

// runTx runs a teammate's operation that changes no memory — a read, or completeRun's reply — (run
// credential) in one repeatable-read transaction: it locks the run, checks the run's generation
// (G5; a change interrupts the run and answers ErrMemoryChangedMidTurn), then runs fn. The check and
// fn see one snapshot, so what a read returns is the memory whose generation was checked; a change
// committed meanwhile is caught by the next call. A call of the same run that updates the run's row (a save it adopts, an interruption)
// while the read waits for the run's lock makes that snapshot too old to lock the row with
// (SQLSTATE 40001): the read then starts over with a new snapshot (inTx), which sees that call's
// outcome — tools called in parallel wait for each other instead of failing. So does a call that
// waited for its teammate's deletion: the new snapshot finds the run gone (ErrUnauthenticated).
func (s *Service) runTx(ctx context.Context, op string, fn func(tx pgx.Tx, run Run) error) error {
	c, err := require(ctx, CredentialRun)
	if err != nil {
		return err
	}
	changed := false
	err = s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		changed = false
		run, err := runOpen(ctx, tx, c)
		if err != nil {
			return err
		}
		_, ok, err := checkGenerationTx(ctx, tx, run)
		if err != nil || !ok {
			changed = !ok
			return err
		}
		return fn(tx, run)
	})
	if err != nil {
		return wrapUnlessDomain(op, err)
	}
	if changed {
		s.log.InfoContext(ctx, "run interrupted: memory changed mid-turn", "run", c.RunID)
		return ErrMemoryChangedMidTurn
	}
	return nil
}
