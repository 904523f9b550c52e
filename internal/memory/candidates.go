package memory

import (
	"context"

	"github.com/jackc/pgx/v5"
)

const (
	// qSuggestionSettle records how a suggestion was settled, as its next revision ($2).
	qSuggestionSettle = `UPDATE memory_items SET status = 'dismissed', resolution = $3, revision = $2, updated_at = now()
		WHERE id = $1 RETURNING ` + itemColumns

	// qProposalsApplied are the waiting proposals to change item $1 whose text it now holds ($2).
	qProposalsApplied = `SELECT ` + itemColumns + ` FROM memory_items
		WHERE target_item_id = $1 AND status = 'candidate' AND NOT proposes_forget AND content_hash = $2
		FOR UPDATE`
)

// settleSuggestionTx ends a waiting suggestion without making it memory: a revision records who
// settled it, how and when (its text unchanged), and the change is announced. It never touches the
// generation (G1: suggestions aren't active memory).
func settleSuggestionTx(ctx context.Context, tx pgx.Tx, cand Item, r Resolution, action Action, actor string, runID *string) (Item, error) {
	rev := cand.Revision + 1
	if _, err := tx.Exec(ctx, qRevisionInsert, cand.ID, rev, cand.Content, cand.Key, cand.Kind, cand.Pinned,
		cand.ExpiresAt, action, actor, cand.Revision, runID); err != nil {
		return Item{}, err
	}
	out, err := scanItem(tx.QueryRow(ctx, qSuggestionSettle, cand.ID, rev, r))
	if err != nil {
		return Item{}, err
	}
	return out, announceTx(ctx, tx, out, action)
}

// resolveAppliedProposalsTx settles the waiting proposals to change item whose text the item now
// holds (A4): there is nothing left for the user to decide. It runs after every new revision of an
// active item, under the scope's lock.
func resolveAppliedProposalsTx(ctx context.Context, tx pgx.Tx, item Item, actor string, runID *string) error {
	rows, err := tx.Query(ctx, qProposalsApplied, item.ID, ContentHash(item.Content))
	if err != nil {
		return err
	}
	done, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Item, error) { return scanItem(r) })
	if err != nil {
		return err
	}
	for _, p := range done {
		if _, err := settleSuggestionTx(ctx, tx, p, ResolutionApplied, ActionResolve, actor, runID); err != nil {
			return err
		}
	}
	return nil
}

// ConfirmCandidate makes a suggestion memory (user only), optionally with the user's edited content.
// A plain suggestion becomes active as a "confirm" revision. A proposal to change an item (A4) is
// applied to that item as a "confirm" revision — failing with a conflict if the item changed since
// the proposal was made (R2) — and the proposal itself is removed. A proposal to forget an item (A5)
// forgets it (F1–F4), with the same conflict check, so the user never erases a version they
// haven't seen. All of them bump the generation.
func (s *Service) ConfirmCandidate(ctx context.Context, id string, content *string) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return Item{}, err
	}
	if content != nil {
		if err := checkContent(*content); err != nil {
			return Item{}, err
		}
	}
	var out Item
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		cand, err := lockItemTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if cand.Status != StatusCandidate {
			return invalid("id", "is not a suggestion waiting for confirmation")
		}
		if cand.ProposesForget && content != nil {
			return invalid("content", "must be omitted when confirming a proposal to forget")
		}
		st := itemState(cand)
		if content != nil {
			st.content = *content
		}
		if cand.TargetItemID == nil {
			out, err = s.writeRevisionTx(ctx, tx, cand, st, StatusActive, ActionConfirm, ActorUser, cand.SourceRunID)
			return err
		}
		target, err := scanItem(tx.QueryRow(ctx, qItemForUpdate, *cand.TargetItemID))
		if err != nil {
			return notFoundIfNoRows(err)
		}
		if target.Status != StatusActive {
			return ErrNotFound
		}
		if target.Revision != *cand.TargetRevision {
			return &ConflictError{Current: target.Revision}
		}
		if cand.ProposesForget {
			// The proposal goes with its target (forgetItemTx forgets proposals to change it).
			out, err = s.forgetItemTx(ctx, tx, target, ActorUser, cand.SourceRunID)
			return err
		}
		next := itemState(target)
		next.content = st.content
		if next.equal(itemState(target)) {
			// The item already says this: nothing to apply, the proposal settles itself.
			out = target
			_, err = settleSuggestionTx(ctx, tx, cand, ResolutionApplied, ActionResolve, ActorUser, cand.SourceRunID)
			return err
		}
		// The proposal is settled first, so the revision below doesn't find it still waiting.
		if _, err = settleSuggestionTx(ctx, tx, cand, ResolutionConfirmed, ActionConfirm, ActorUser, cand.SourceRunID); err != nil {
			return err
		}
		out, err = s.writeRevisionTx(ctx, tx, target, next, StatusActive, ActionConfirm, ActorUser, cand.SourceRunID)
		return err
	})
	if err != nil {
		return Item{}, wrapUnlessDomain("confirm suggestion", err)
	}
	s.log.InfoContext(ctx, "suggestion confirmed", "candidate", id, "item", out.ID, "revision", out.Revision)
	return out, nil
}

// DismissCandidate declines a suggestion (user only). Its text is untouched; a "dismiss" revision
// records who dismissed it and when. It doesn't count in a generation (G1).
func (s *Service) DismissCandidate(ctx context.Context, id string) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return Item{}, err
	}
	var out Item
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		cand, err := lockItemTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if cand.Status != StatusCandidate {
			return invalid("id", "is not a suggestion waiting for confirmation")
		}
		out, err = settleSuggestionTx(ctx, tx, cand, ResolutionDismissed, ActionDismiss, ActorUser, nil)
		return err
	})
	if err != nil {
		return Item{}, wrapUnlessDomain("dismiss suggestion", err)
	}
	return out, nil
}
