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
//
// It takes its locks in the order of every run write (tx.go, lock order) — the teammate's row
// against new starts, its runs, its scope, its items, and only then the row itself — so a delete
// made while the teammate's runs are writing waits for their calls under way, and their next calls
// find the credential gone; a deadlock with anything else is retried (inTx), never answered. It
// records the deletion in the forget ledger (F8) and for the purge (F7: PurgeDue), which, where the
// service owns the cluster, then rewrites every table that held the teammate's texts, conversations
// included.
func (s *Service) DeleteTeammate(ctx context.Context, id string) (DeleteResult, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return DeleteResult{}, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return DeleteResult{}, err
	}
	var res DeleteResult
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		res = DeleteResult{TeammateID: id}
		// The teammate's row first, in a mode that makes startRun wait from now on (it locks the row
		// FOR SHARE) but lets the teammate's running tools insert (their foreign keys lock it FOR KEY
		// SHARE): a tool that holds its run must be able to finish, as the runs are locked next.
		q := queries(tx)
		if _, err := q.TeammateLock(ctx, id); err != nil {
			return err
		}
		// A teammate's tool locks its run, then the scopes (runWriteTx): the runs are locked before the
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
		if err := s.ledgerDeletionTx(ctx, tx, id); err != nil {
			return err
		}
		// The rows are gone, their text isn't yet: the purge of the cluster's files is due (F7).
		if err := q.PurgeDeletionRecord(ctx); err != nil {
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
