package memory

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// DeleteResult is what DeleteTeammate removed.
type DeleteResult struct {
	TeammateID string
	// ForgottenItems is how many items of its scope were forgotten (active, waiting or dismissed).
	ForgottenItems int
	Runs           int
	Threads        int
	Messages       int
}

// DeleteTeammate deletes a teammate (user only), in one transaction: every item of its scope that
// isn't forgotten yet is forgotten exactly as ForgetMemory forgets (forgetItemTx: F1–F4, with its
// events), then the teammate row goes and takes its scope, tombstones, runs, threads, messages and
// memory contexts with it. Forgetting first, rather than letting the cascade delete the items, keeps
// one definition of what a forget erases: whatever forgetItemTx erases beyond the rows themselves is
// erased here too. Running runs lose their credential with their row. Every open page hears of it.
func (s *Service) DeleteTeammate(ctx context.Context, id string) (DeleteResult, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return DeleteResult{}, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return DeleteResult{}, err
	}
	res := DeleteResult{TeammateID: id}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The teammate's row first: startRun's insert of a new run waits on it from now on.
		q := queries(tx)
		if _, err := q.TeammateLock(ctx, id); err != nil {
			return err
		}
		// A teammate's tool locks its run, then the scope (runWriteTx): the runs are locked before the
		// scope here, in id order, so the two never wait on each other in opposite orders.
		runs, err := q.RunsLockOfTeammate(ctx, id)
		if err != nil {
			return err
		}
		res.Runs = len(runs)
		if err := lockScopeTx(ctx, tx, id); err != nil {
			return err
		}
		ids, err := q.ItemsOfTeammate(ctx, id)
		if err != nil {
			return err
		}
		// Each one is forgotten, directly or with an earlier one of the loop (a proposal with its
		// target).
		res.ForgottenItems = len(ids)
		for _, itemID := range ids {
			row, err := q.ItemGetForUpdate(ctx, itemID)
			if err != nil {
				return err
			}
			cur := itemFromRow(row)
			if cur.Status == StatusForgotten {
				continue
			}
			if _, err := s.forgetItemTx(ctx, tx, cur, ActorUser, nil); err != nil {
				return err
			}
		}
		counts, err := q.TeammateConversationCounts(ctx, id)
		if err != nil {
			return err
		}
		res.Threads, res.Messages = int(counts.Threads), int(counts.Messages)
		if err := q.TeammateDelete(ctx, id); err != nil {
			return err
		}
		// Generation: subscribers of the teammate's generation re-read it, find it gone and end.
		return notifyTx(ctx, tx, Event{Scope: id, Generation: true, Teammate: TeammateDeleted})
	})
	if err != nil {
		return DeleteResult{}, wrapUnlessDomain("delete teammate", err)
	}
	s.log.InfoContext(ctx, "teammate deleted", "teammate", id, "items", res.ForgottenItems, "runs", res.Runs,
		"threads", res.Threads, "messages", res.Messages)
	return res, nil
}
