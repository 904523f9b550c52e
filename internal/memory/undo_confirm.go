package memory

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Confirmation names a suggestion the user confirmed and the revision of the memory that
// confirmation returned: for a suggested new memory, the item's own (the suggestion is the item);
// for a proposal to change an item, that item's.
type Confirmation struct {
	ID       string
	Revision int
}

// UndoConfirmCandidate takes back the user's confirmation of a suggestion (user only): the
// suggestion waits again as it was, and memory goes back to what it held before.
//
//   - A suggested new memory that became active goes back among the suggestions with the text it
//     was suggested with (before any edit the user made while confirming). It leaves active memory,
//     so the scope's generation changes (G1), and it is announced as an arriving suggestion (A6).
//   - A proposal to change an item: the item gets back the text, kind, key, pin and expiry it had
//     before, as a new revision, which changes the generation (G1); the proposal waits again, based
//     on that new revision, so confirming it again applies it as before.
//   - A proposal to forget can't be undone: forgetting is for good (F1), and the proposal was
//     forgotten with its item, so it is NOT_FOUND.
//
// Both write an "undo" revision by the user, so the history shows it. It fails with a CONFLICT
// naming the current revision if the item changed since the confirmation (the revision given is no
// longer the item's), and with BAD_USER_INPUT if that revision is not the user's confirmation of
// this suggestion.
func (s *Service) UndoConfirmCandidate(ctx context.Context, c Confirmation) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	if c.Revision < 1 {
		return Item{}, invalid("revision", "must be a revision number (1 or more)")
	}
	out, err := s.changeItem(ctx, "undo confirmation", c.ID, func(tx pgx.Tx, cur Item) (Item, error) {
		return s.undoConfirmTx(ctx, tx, cur, c.Revision, "")
	})
	if err != nil {
		return Item{}, err
	}
	s.log.InfoContext(ctx, "confirmation undone", "candidate", out.ID, "revision", out.Revision)
	return out, nil
}

// UndoConfirmCandidates takes back several confirmations (user only) — typically all those of one
// Confirm all — each as UndoConfirmCandidate does, in one transaction: all of them or, on any error,
// none. It returns the suggestions, waiting again, in the order given.
func (s *Service) UndoConfirmCandidates(ctx context.Context, cs []Confirmation) ([]Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return nil, err
	}
	if len(cs) == 0 || len(cs) > MaxBulkItems {
		return nil, invalid("items", fmt.Sprintf("must name 1 to %d confirmations", MaxBulkItems))
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		field := fmt.Sprintf("items[%d]", i)
		id, err := parseID(field+".id", c.ID)
		if err != nil {
			return nil, err
		}
		for _, seen := range ids[:i] {
			if seen == id {
				return nil, invalid(field+".id", "names a suggestion already in the list")
			}
		}
		if c.Revision < 1 {
			return nil, invalid(field+".revision", "must be a revision number (1 or more)")
		}
		ids[i] = id
	}
	var out []Item
	err := s.inWriteTx(ctx, func(tx pgx.Tx) error {
		// Locks every scope involved (in one order) and the suggestions. A proposal's item is in
		// the proposal's scope, so its lock is held already when undoConfirmTx locks the item.
		byID, err := lockItemsTx(ctx, tx, ids)
		if err != nil {
			return err
		}
		out = make([]Item, len(cs))
		for i, id := range ids {
			cur := byID[id]
			if cur.Status == StatusForgotten {
				return ErrNotFound
			}
			if out[i], err = s.undoConfirmTx(ctx, tx, cur, cs[i].Revision, fmt.Sprintf("items[%d].", i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, wrapUnlessDomain("undo confirmations", err)
	}
	s.log.InfoContext(ctx, "confirmations undone", "count", len(out))
	return out, nil
}

// undoConfirmTx undoes the confirmation of cand, a suggestion locked with its scope, that returned
// revision (see UndoConfirmCandidate). prefix is put before the names of fields in errors.
func (s *Service) undoConfirmTx(ctx context.Context, tx pgx.Tx, cand Item, revision int, prefix string) (Item, error) {
	notConfirmed := invalid(prefix+"id", "is not a suggestion the user confirmed")
	if cand.TargetItemID == nil {
		if cand.Status != StatusActive {
			return Item{}, notConfirmed
		}
		if err := checkConfirmedAt(cand, revision, prefix); err != nil {
			return Item{}, err
		}
		rev, err := queries(tx).RevisionGet(ctx, memorydb.RevisionGetParams{ItemID: cand.ID, Revision: revision})
		if err != nil {
			return Item{}, err
		}
		if Action(rev.Action) != ActionConfirm || rev.Actor != ActorUser || revision < 2 {
			return Item{}, notConfirmed
		}
		return s.unconfirmNewTx(ctx, tx, cand)
	}
	if cand.ProposesForget || cand.Status != StatusDismissed || cand.Resolution == nil || *cand.Resolution != ResolutionConfirmed {
		return Item{}, notConfirmed
	}
	q := queries(tx)
	row, err := q.ItemGetForUpdate(ctx, *cand.TargetItemID)
	if err != nil {
		return Item{}, err
	}
	target := itemFromRow(row)
	if target.Status != StatusActive {
		return Item{}, ErrNotFound
	}
	if err := checkConfirmedAt(target, revision, prefix); err != nil {
		return Item{}, err
	}
	// The proposal was settled and its item revised by the same confirmation, in one transaction:
	// both revisions carry that transaction's time.
	applied, err := q.RevisionGet(ctx, memorydb.RevisionGetParams{ItemID: target.ID, Revision: revision})
	if err != nil {
		return Item{}, err
	}
	settled, err := q.RevisionGet(ctx, memorydb.RevisionGetParams{ItemID: cand.ID, Revision: cand.Revision})
	if err != nil {
		return Item{}, err
	}
	if Action(applied.Action) != ActionConfirm || applied.Actor != ActorUser || revision < 2 ||
		Action(settled.Action) != ActionConfirm || !applied.CreatedAt.Equal(settled.CreatedAt) {
		return Item{}, notConfirmed
	}
	before, err := revisionStateTx(ctx, tx, target.ID, revision-1)
	if err != nil {
		return Item{}, err
	}
	restored, err := s.writeRevisionTx(ctx, tx, target, before, StatusActive, ActionUndo, ActorUser, nil)
	if err != nil {
		return Item{}, err
	}
	// The proposal waits again, based on the revision that holds the text it was made against.
	next := cand.Revision + 1
	if err := q.RevisionInsert(ctx, itemState(cand).revision(cand.ID, next, ActionUndo, ActorUser, &cand.Revision, nil)); err != nil {
		return Item{}, err
	}
	prow, err := q.ItemUnconfirmProposal(ctx, memorydb.ItemUnconfirmProposalParams{
		ID: cand.ID, Revision: next, TargetRevision: restored.Revision,
	})
	if err != nil {
		return Item{}, err
	}
	out := itemFromRow(prow)
	return out, notifyTx(ctx, tx, Event{
		Scope: out.Scope, ItemID: out.ID, Revision: out.Revision, Action: string(ActionUndo),
		Status: string(out.Status), Candidate: true,
	})
}

// checkConfirmedAt is R2 for an undo: the item must still be at the revision the confirmation
// returned.
func checkConfirmedAt(cur Item, revision int, prefix string) error {
	switch {
	case revision > cur.Revision:
		return baseAhead(prefix+"revision", cur)
	case revision != cur.Revision:
		return &ConflictError{Current: cur.Revision, ItemID: cur.ID}
	}
	return nil
}

// unconfirmNewTx puts cand, an active item made by the user's confirmation of it (its current
// revision), back among the suggestions with the state it had before that confirmation.
func (s *Service) unconfirmNewTx(ctx context.Context, tx pgx.Tx, cand Item) (Item, error) {
	before, err := revisionStateTx(ctx, tx, cand.ID, cand.Revision-1)
	if err != nil {
		return Item{}, err
	}
	next := cand
	next.Revision, next.Status = cand.Revision+1, StatusCandidate
	next.Content, next.Key, next.Kind, next.Pinned, next.ExpiresAt = before.content, before.key, before.kind, before.pinned, before.expiresAt
	b := newBatch()
	b.q.RevisionInsert(ctx, before.revision(cand.ID, next.Revision, ActionUndo, ActorUser, &cand.Revision, nil))
	row, _ := b.q.ItemRevise(ctx, memorydb.ItemReviseParams{
		ID: cand.ID, Revision: next.Revision, Content: before.content, Key: before.key, Kind: string(before.kind),
		Pinned: before.pinned, ExpiresAt: before.expiresAt, ContentHash: contentHashOrNil(before.content),
		Status: string(StatusCandidate),
	})
	queueLessonProjection(ctx, b, next, cand.Kind == KindLesson)
	// It leaves active memory (G1), and arrives among the suggestions again (A6).
	b.q.GenerationBump(ctx, cand.Scope)
	if err := queueNotify(ctx, b, Event{
		Scope: cand.Scope, ItemID: cand.ID, Revision: next.Revision, Action: string(ActionUndo),
		Status: string(StatusCandidate), Generation: true, Candidate: true,
	}); err != nil {
		return Item{}, err
	}
	if err := b.send(ctx, tx); err != nil {
		return Item{}, err
	}
	out := itemFromRow(row)
	return out, refreshAboutMeIfSharedTx(ctx, tx, out)
}
