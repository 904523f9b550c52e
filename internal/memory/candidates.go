package memory

import (
	"context"

	"github.com/jackc/pgx/v5"
)

const qCandidateDismiss = `UPDATE memory_items SET status = 'dismissed', updated_at = now() WHERE id = $1 RETURNING ` + itemColumns

const qCandidateDelete = `DELETE FROM memory_items WHERE id = $1`

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
			out, err = forgetItemTx(ctx, tx, target, ActorUser, cand.SourceRunID)
			return err
		}
		next := itemState(target)
		next.content = st.content
		if out, err = s.writeRevisionTx(ctx, tx, target, next, StatusActive, ActionConfirm, ActorUser, cand.SourceRunID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, qCandidateDelete, cand.ID)
		return err
	})
	if err != nil {
		return Item{}, wrapUnlessDomain("confirm suggestion", err)
	}
	s.log.InfoContext(ctx, "suggestion confirmed", "candidate", id, "item", out.ID, "revision", out.Revision)
	return out, nil
}

// DismissCandidate declines a suggestion (user only). Its content is untouched, so this is a status
// change without a new revision; it doesn't count in a generation (G1).
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
		if out, err = scanItem(tx.QueryRow(ctx, qCandidateDismiss, id)); err != nil {
			return err
		}
		return announceTx(ctx, tx, out, "")
	})
	if err != nil {
		return Item{}, wrapUnlessDomain("dismiss suggestion", err)
	}
	return out, nil
}
