package memory

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// settleSuggestionTx ends a waiting suggestion without making it memory: a revision records who
// settled it, how and when (its text unchanged), and the change is announced. It never touches the
// generation (G1: suggestions aren't active memory).
func settleSuggestionTx(ctx context.Context, tx pgx.Tx, cand Item, r Resolution, action Action, actor string, runID *string) (Item, error) {
	rev := cand.Revision + 1
	q := queries(tx)
	if err := q.RevisionInsert(ctx, itemState(cand).revision(cand.ID, rev, action, actor, &cand.Revision, runID)); err != nil {
		return Item{}, err
	}
	row, err := q.ItemSettle(ctx, memorydb.ItemSettleParams{ID: cand.ID, Revision: rev, Resolution: string(r)})
	if err != nil {
		return Item{}, err
	}
	out := itemFromRow(row)
	return out, announceTx(ctx, tx, out, action)
}

// resolveAppliedProposalsTx settles the waiting proposals to change item whose text the item now
// holds (A4): there is nothing left for the user to decide. It runs after every new revision of an
// active item, under the scope's lock.
func resolveAppliedProposalsTx(ctx context.Context, tx pgx.Tx, item Item, actor string, runID *string) error {
	done, err := queries(tx).ItemsProposalsApplied(ctx, memorydb.ItemsProposalsAppliedParams{
		ItemID: item.ID, ContentHash: ContentHash(item.Content),
	})
	if err != nil {
		return err
	}
	for _, p := range done {
		if _, err := settleSuggestionTx(ctx, tx, itemFromRow(p), ResolutionApplied, ActionResolve, actor, runID); err != nil {
			return err
		}
	}
	return nil
}

// ConfirmInput is the user's confirmation of a suggestion. Nil fields keep the suggestion's value
// (for a proposed change, the target's kind and key); Key pointing at "" removes the key.
type ConfirmInput struct {
	ID      string
	Content *string
	Kind    *Kind
	Key     *string
}

// confirmEdits is a ConfirmInput validated: what the user changed while confirming.
type confirmEdits struct {
	content *string
	kind    *Kind
	key     *string // set when keySet
	keySet  bool
}

// validate checks the user's edits, before any transaction.
func (in ConfirmInput) validate() (confirmEdits, error) {
	e := confirmEdits{content: in.Content, kind: in.Kind, keySet: in.Key != nil}
	if in.Content != nil {
		if err := checkContent(*in.Content); err != nil {
			return e, err
		}
	}
	if in.Kind != nil && !in.Kind.valid() {
		return e, invalid("kind", "must be fact, preference, lesson or note")
	}
	if in.Key != nil {
		k, err := normalizeKey(in.Key)
		if err != nil {
			return e, err
		}
		e.key = k
	}
	return e, nil
}

// any reports whether the user changed anything.
func (e confirmEdits) any() bool { return e.content != nil || e.kind != nil || e.keySet }

// apply puts the user's edits on st.
func (e confirmEdits) apply(st state) state {
	if e.content != nil {
		st.content = *e.content
	}
	if e.kind != nil {
		st.kind = *e.kind
	}
	if e.keySet {
		st.key = e.key
	}
	return st
}

// ConfirmCandidate makes a suggestion memory (user only), optionally with the user's edited
// content, kind and key. A plain suggestion becomes active as a "confirm" revision, pinned when its
// kind is pinned by default (Kind.PinnedByDefault). A proposal to
// change an item (A4) is applied to that item as a "confirm" revision — failing with a conflict if
// the item changed since the proposal was made (R2) — and the proposal itself is settled. A proposal
// to forget an item (A5) forgets it (F1–F4), with the same conflict check, so the user never erases a
// version they haven't seen. All of them bump the generation.
func (s *Service) ConfirmCandidate(ctx context.Context, in ConfirmInput) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	edits, err := in.validate()
	if err != nil {
		return Item{}, err
	}
	out, err := s.changeItem(ctx, "confirm suggestion", in.ID, func(tx pgx.Tx, cand Item) (Item, error) {
		if cand.Status != StatusCandidate {
			return Item{}, invalid("id", "is not a suggestion waiting for confirmation")
		}
		return s.confirmCandidateTx(ctx, tx, cand, edits)
	})
	if err != nil {
		return Item{}, err
	}
	s.log.InfoContext(ctx, "suggestion confirmed", "candidate", in.ID, "item", out.ID, "revision", out.Revision)
	return out, nil
}

// confirmCandidateTx confirms cand, a waiting suggestion locked with its scope by the caller (see
// ConfirmCandidate), with the user's edits.
func (s *Service) confirmCandidateTx(ctx context.Context, tx pgx.Tx, cand Item, edits confirmEdits) (Item, error) {
	if cand.ProposesForget && edits.any() {
		return Item{}, invalid("content", "content, kind and key must be omitted when confirming a proposal to forget")
	}
	if cand.TargetItemID == nil {
		next := edits.apply(itemState(cand))
		next.pinned = next.pinned || next.kind.PinnedByDefault()
		return s.writeRevisionTx(ctx, tx, cand, next, StatusActive, ActionConfirm, ActorUser, cand.SourceRunID)
	}
	row, err := queries(tx).ItemGetForUpdate(ctx, *cand.TargetItemID)
	if err != nil {
		return Item{}, err
	}
	target := itemFromRow(row)
	if target.Status != StatusActive {
		return Item{}, ErrNotFound
	}
	if target.Revision != *cand.TargetRevision {
		return Item{}, &ConflictError{Current: target.Revision, ItemID: target.ID}
	}
	if cand.ProposesForget {
		// The proposal goes with its target (forgetItemTx forgets proposals to change it).
		return s.forgetItemTx(ctx, tx, target, ActorUser, cand.SourceRunID)
	}
	next := itemState(target)
	next.content = cand.Content
	next = edits.apply(next)
	if next.equal(itemState(target)) {
		// The item already says this: nothing to apply, the proposal settles itself.
		_, err = settleSuggestionTx(ctx, tx, cand, ResolutionApplied, ActionResolve, ActorUser, cand.SourceRunID)
		return target, err
	}
	// The proposal is settled first, so the revision below doesn't find it still waiting.
	if _, err = settleSuggestionTx(ctx, tx, cand, ResolutionConfirmed, ActionConfirm, ActorUser, cand.SourceRunID); err != nil {
		return Item{}, err
	}
	return s.writeRevisionTx(ctx, tx, target, next, StatusActive, ActionConfirm, ActorUser, cand.SourceRunID)
}

// DismissCandidate declines a suggestion (user only). Its text is untouched; a "dismiss" revision
// records who dismissed it and when. It doesn't count in a generation (G1).
func (s *Service) DismissCandidate(ctx context.Context, id string) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	return s.changeItem(ctx, "dismiss suggestion", id, func(tx pgx.Tx, cand Item) (Item, error) {
		if cand.Status != StatusCandidate {
			return Item{}, invalid("id", "is not a suggestion waiting for confirmation")
		}
		return settleSuggestionTx(ctx, tx, cand, ResolutionDismissed, ActionDismiss, ActorUser, nil)
	})
}
