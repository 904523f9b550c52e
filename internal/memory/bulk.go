package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// MaxBulkItems bounds how many items or suggestions one bulk operation names: a page of the app.
const MaxBulkItems = MaxPageSize

// ItemRef names an item and the revision the caller last saw of it (R2).
type ItemRef struct {
	ID           string
	BaseRevision int
}

// checkRefs validates a bulk operation's items: 1–MaxBulkItems, valid ids, revisions ≥ 1, no id
// twice. It returns the ids in canonical form.
func checkRefs(refs []ItemRef) ([]ItemRef, error) {
	if len(refs) == 0 || len(refs) > MaxBulkItems {
		return nil, invalid("items", fmt.Sprintf("must name 1 to %d items", MaxBulkItems))
	}
	out := make([]ItemRef, len(refs))
	seen := map[string]bool{}
	for i, r := range refs {
		field := fmt.Sprintf("items[%d]", i)
		id, err := parseID(field+".id", r.ID)
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, invalid(field+".id", "names an item already in the list")
		}
		seen[id] = true
		if r.BaseRevision < 1 {
			return nil, invalid(field+".baseRevision", "must be a revision number (1 or more)")
		}
		out[i] = ItemRef{ID: id, BaseRevision: r.BaseRevision}
	}
	return out, nil
}

// lockItemsTx locks the scopes of items ids, then the items, and returns them by id. Scopes are
// locked in one order — shared first, then teammates' scopes by id — so bulk operations over
// several scopes can't deadlock one another, and single-scope writers hold one scope only. An id
// that names no item is ErrNotFound.
func lockItemsTx(ctx context.Context, tx pgx.Tx, ids []string) (map[string]Item, error) {
	// An item's scope never changes, so it can be read before the scope's lock is taken.
	q := queries(tx)
	rows, err := q.ItemsScopes(ctx, ids)
	if err != nil {
		return nil, err
	}
	scopeOf := map[string]string{}
	for _, r := range rows {
		scopeOf[r.ID] = r.Scope
	}
	if len(scopeOf) != len(ids) {
		return nil, ErrNotFound
	}
	var scopes []string
	for _, sc := range scopeOf {
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	slices.SortFunc(scopes, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == ScopeShared:
			return -1
		case b == ScopeShared:
			return 1
		case a < b:
			return -1
		}
		return 1
	})
	for _, sc := range scopes {
		if err := lockScopeTx(ctx, tx, sc); err != nil {
			return nil, err
		}
	}
	items, err := q.ItemsGetForUpdate(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Item, len(items))
	for _, it := range items {
		out[it.ID] = itemFromRow(it)
	}
	if len(out) != len(ids) {
		return nil, ErrNotFound
	}
	return out, nil
}

// lockActiveRefsTx locks refs' items and checks each as an edit would (R2, checkBase): not
// forgotten, at its base revision, active.
func lockActiveRefsTx(ctx context.Context, tx pgx.Tx, refs []ItemRef) ([]Item, error) {
	byID, err := lockItemsTx(ctx, tx, refIDs(refs))
	if err != nil {
		return nil, err
	}
	return activeRefs(refs, byID)
}

func refIDs(refs []ItemRef) []string {
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	return ids
}

// activeRefs is refs' items, locked, each checked as lockActiveRefsTx says.
func activeRefs(refs []ItemRef, byID map[string]Item) ([]Item, error) {
	out := make([]Item, len(refs))
	for i, r := range refs {
		cur := byID[r.ID]
		switch {
		case cur.Status == StatusForgotten:
			return nil, ErrNotFound
		case r.BaseRevision > cur.Revision:
			return nil, baseAhead(fmt.Sprintf("items[%d].baseRevision", i), cur)
		case cur.Revision != r.BaseRevision:
			return nil, &ConflictError{Current: cur.Revision, ItemID: cur.ID}
		case cur.Status != StatusActive:
			return nil, invalid(fmt.Sprintf("items[%d].id", i), "is not an active memory; confirm or dismiss a suggestion instead")
		}
		out[i] = cur
	}
	return out, nil
}

// ForgetMemories forgets several active items for the user, each exactly as ForgetMemory does
// (forgetItemTx), and the items of also with them — typically the copies CopiesOf listed, which the
// user left ticked, as ForgetWithCopies does for one — in one transaction: all of them or, on any
// error, none. Each item of refs must still be at the revision the user saw (R2), so a bulk forget
// never erases a version nobody looked at; an item of also already forgotten (by this very forget,
// as a suggestion of the same text in its scope, or before) is skipped, an unknown one fails the
// whole forget (NOT_FOUND). Every scope involved is locked first, in lockItemsTx's order.
func (s *Service) ForgetMemories(ctx context.Context, refs []ItemRef, also []string) (forgotten, others []Item, err error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return nil, nil, err
	}
	refs, err = checkRefs(refs)
	if err != nil {
		return nil, nil, err
	}
	ids := refIDs(refs)
	alsoIDs, err := checkAlsoForget(also, ids)
	if err != nil {
		return nil, nil, err
	}
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		byID, err := lockItemsTx(ctx, tx, append(slices.Clone(ids), alsoIDs...))
		if err != nil {
			return err
		}
		items, err := activeRefs(refs, byID)
		if err != nil {
			return err
		}
		forgotten = make([]Item, len(items))
		for i, cur := range items {
			if forgotten[i], err = s.forgetItemTx(ctx, tx, cur, ActorUser, nil); err != nil {
				return err
			}
		}
		others, err = s.forgetAlsoTx(ctx, tx, alsoIDs)
		return err
	})
	if err != nil {
		return nil, nil, wrapUnlessDomain("forget memories", err)
	}
	s.log.InfoContext(ctx, "memories forgotten", "count", len(forgotten), "copies", len(others))
	return forgotten, others, nil
}

// PinMemories pins (or unpins) several active items for the user, each as a "pin" revision (R1)
// based on the revision the user saw (R2), in one transaction: all or none. An item already pinned
// (or unpinned) gets no revision and is returned as it is.
func (s *Service) PinMemories(ctx context.Context, refs []ItemRef, pinned bool) ([]Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return nil, err
	}
	out, err := s.changeItems(ctx, "pin memories", refs, func(tx pgx.Tx, cur Item) (Item, error) {
		if cur.Pinned == pinned {
			return cur, nil
		}
		next := itemState(cur)
		next.pinned = pinned
		return s.writeRevisionTx(ctx, tx, cur, next, StatusActive, ActionPin, ActorUser, nil)
	})
	if err != nil {
		return nil, err
	}
	s.log.InfoContext(ctx, "memories pinned", "count", len(out), "pinned", pinned)
	return out, nil
}

// changeItems is changeItem for a list of active items the user saw (the caller has checked the
// credential): it validates the references, then, in one transaction, locks the items' scopes and
// the items, checks each is active at the revision given (R2), and runs change on each in order —
// all of them or, on any error, none.
func (s *Service) changeItems(ctx context.Context, op string, refs []ItemRef, change func(tx pgx.Tx, cur Item) (Item, error)) ([]Item, error) {
	refs, err := checkRefs(refs)
	if err != nil {
		return nil, err
	}
	var out []Item
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		items, err := lockActiveRefsTx(ctx, tx, refs)
		if err != nil {
			return err
		}
		out = make([]Item, len(items))
		for i, cur := range items {
			if out[i], err = change(tx, cur); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, wrapUnlessDomain(op, err)
	}
	return out, nil
}

// lockCandidatesTx locks scope and returns the suggestions ids names — or, with ids nil, every
// suggestion waiting in scope (up to MaxBulkItems) — each checked to wait in scope.
func lockCandidatesTx(ctx context.Context, tx pgx.Tx, scope string, ids []string) ([]Item, error) {
	if err := lockScopeTx(ctx, tx, scope); err != nil {
		return nil, err
	}
	q := queries(tx)
	if ids == nil {
		waiting, err := q.ItemsWaiting(ctx, memorydb.ItemsWaitingParams{Scope: scope, MaxRows: MaxBulkItems})
		if err != nil {
			return nil, err
		}
		ids = waiting
	}
	locked, err := q.ItemsGetForUpdate(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := map[string]Item{}
	for _, it := range locked {
		byID[it.ID] = itemFromRow(it)
	}
	out := make([]Item, len(ids))
	for i, id := range ids {
		it, ok := byID[id]
		if !ok {
			return nil, ErrNotFound
		}
		if it.Scope != scope || it.Status != StatusCandidate {
			return nil, invalid(fmt.Sprintf("ids[%d]", i), "is not a suggestion waiting in this scope")
		}
		out[i] = it
	}
	return out, nil
}

// checkCandidateIDs validates the ids of a bulk operation on suggestions; nil means "all waiting".
func checkCandidateIDs(ids []string) ([]string, error) {
	if ids == nil {
		return nil, nil
	}
	if len(ids) == 0 || len(ids) > MaxBulkItems {
		return nil, invalid("ids", fmt.Sprintf("must name 1 to %d suggestions, or be omitted for all", MaxBulkItems))
	}
	out := make([]string, len(ids))
	for i, raw := range ids {
		id, err := parseID(fmt.Sprintf("ids[%d]", i), raw)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out[:i], id) {
			return nil, invalid(fmt.Sprintf("ids[%d]", i), "names a suggestion already in the list")
		}
		out[i] = id
	}
	return out, nil
}

// ConfirmCandidates confirms several suggestions of scope as they are (user only), each as
// ConfirmCandidate does, in one transaction: all or none. ids nil confirms every suggestion waiting
// in the scope (up to MaxBulkItems), oldest first. A suggestion that an earlier one of the same call
// took with it (a proposal forgotten with the item another proposal forgot) is skipped.
func (s *Service) ConfirmCandidates(ctx context.Context, scope Scope, ids []string) ([]Item, error) {
	out, err := s.eachCandidateTx(ctx, scope, ids, "confirm suggestions", func(tx pgx.Tx, c Item) (*Item, error) {
		row, err := queries(tx).ItemGetForUpdate(ctx, c.ID)
		if errors.Is(err, ErrNotFound) {
			return nil, nil // a proposal removed by an earlier confirmation of this call
		} else if err != nil {
			return nil, err
		}
		cur := itemFromRow(row)
		if cur.Status != StatusCandidate {
			return nil, nil // forgotten with an earlier confirmation's target
		}
		item, err := s.confirmCandidateTx(ctx, tx, cur, confirmEdits{})
		return &item, err
	})
	if err == nil {
		s.log.InfoContext(ctx, "suggestions confirmed", "scope", scope.String(), "count", len(out))
	}
	return out, err
}

// DismissCandidates dismisses several suggestions of scope (user only) in one transaction; ids nil
// dismisses every suggestion waiting there (up to MaxBulkItems). Each gets a "dismiss" revision, as
// DismissCandidate gives it; no generation changes (G1).
func (s *Service) DismissCandidates(ctx context.Context, scope Scope, ids []string) ([]Item, error) {
	return s.eachCandidateTx(ctx, scope, ids, "dismiss suggestions", func(tx pgx.Tx, c Item) (*Item, error) {
		item, err := settleSuggestionTx(ctx, tx, c, ResolutionDismissed, ActionDismiss, ActorUser, nil)
		return &item, err
	})
}

// eachCandidateTx is the frame of the bulk suggestion actions (user only): it checks the scope and
// ids, locks the suggestions in one transaction and settles each with settle, all or none. settle
// returns nil for a suggestion an earlier one of the same call already took with it.
func (s *Service) eachCandidateTx(ctx context.Context, scope Scope, ids []string, op string, settle func(pgx.Tx, Item) (*Item, error)) ([]Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return nil, err
	}
	sc, err := scopeOf(scope)
	if err != nil {
		return nil, err
	}
	if ids, err = checkCandidateIDs(ids); err != nil {
		return nil, err
	}
	var out []Item
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		cands, err := lockCandidatesTx(ctx, tx, sc.String(), ids)
		if err != nil {
			return err
		}
		out = make([]Item, 0, len(cands))
		for _, c := range cands {
			item, err := settle(tx, c)
			if err != nil {
				return err
			}
			if item != nil {
				out = append(out, *item)
			}
		}
		return nil
	})
	if err != nil {
		return nil, wrapUnlessDomain(op, err)
	}
	return out, nil
}

// UndoDismissCandidate puts a suggestion the user dismissed back among those waiting (user only),
// as it was, with an "undo" revision that records who brought it back; no generation changes (G1),
// and it is announced as an arriving suggestion (A6). Only a dismissal is undone: a proposal that
// was confirmed or settled itself stays settled. A proposal keeps its target revision, so confirming
// it later still checks R2. It can't come back while the same suggestion waits already (or, for a
// proposal to forget, another proposal to forget the same item).
func (s *Service) UndoDismissCandidate(ctx context.Context, id string) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	return s.changeItem(ctx, "undo dismissal", id, func(tx pgx.Tx, cur Item) (Item, error) {
		if cur.Status != StatusDismissed || cur.Resolution == nil || *cur.Resolution != ResolutionDismissed {
			return Item{}, invalid("id", "is not a dismissed suggestion")
		}
		q := queries(tx)
		var (
			waiting bool
			err     error
		)
		if cur.ProposesForget {
			waiting, err = q.ItemForgetProposalWaiting(ctx, *cur.TargetItemID)
		} else {
			waiting, err = q.ItemSameSuggestionWaiting(ctx, memorydb.ItemSameSuggestionWaitingParams{
				Scope: cur.Scope, ContentHash: ContentHash(cur.Content), ID: cur.ID,
			})
		}
		if err != nil {
			return Item{}, err
		}
		if waiting {
			return Item{}, invalid("id", "the same suggestion is waiting already")
		}
		rev := cur.Revision + 1
		if err := q.RevisionInsert(ctx, itemState(cur).revision(cur.ID, rev, ActionUndo, ActorUser, &cur.Revision, nil)); err != nil {
			return Item{}, err
		}
		row, err := q.ItemUndismiss(ctx, memorydb.ItemUndismissParams{ID: cur.ID, Revision: rev})
		if err != nil {
			return Item{}, err
		}
		out := itemFromRow(row)
		return out, notifyTx(ctx, tx, Event{
			Scope: out.Scope, ItemID: out.ID, Revision: out.Revision, Action: string(ActionUndo),
			Status: string(out.Status), Candidate: true,
		})
	})
}
