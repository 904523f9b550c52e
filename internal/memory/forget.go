package memory

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// ForgetMemory erases an item for the user (F1): see forgetItemTx.
func (s *Service) ForgetMemory(ctx context.Context, id string) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	out, err := s.changeItem(ctx, "forget memory", id, func(tx pgx.Tx, cur Item) (Item, error) {
		return s.forgetItemTx(ctx, tx, cur, ActorUser, nil)
	})
	if err != nil {
		return Item{}, err
	}
	s.log.InfoContext(ctx, "memory forgotten", "item", out.ID, "scope", out.Scope)
	return out, nil
}

// forgetItemTx erases cur everywhere, under its scope's lock (held by the caller), in the caller's
// transaction (F1–F4): tombstone hashes of every text it ever had, blank content and key of the item
// and every revision, delete every embedding, cancel pending jobs, suppress extraction from its
// source message, forget proposals to change it and suggestions of its scope with any of its texts
// (waiting or dismissed), drop its lesson projection, write a content-free
// "forget" revision and the ledger's entry (F8), bump the generation if it was active, and notify
// with ids only.
func (s *Service) forgetItemTx(ctx context.Context, tx pgx.Tx, cur Item, actor string, runID *string) (Item, error) {
	q := queries(tx)
	texts, err := q.RevisionTexts(ctx, cur.ID)
	if err != nil {
		return Item{}, err
	}
	if cur.Content != "" {
		texts = append(texts, cur.Content)
	}
	seen := map[string]bool{}
	var hashes, keyed [][]byte
	for _, t := range texts {
		h := ContentHash(t)
		if seen[string(h)] {
			continue
		}
		seen[string(h)] = true
		hashes = append(hashes, h)
		// The tombstone is keyed (F3); items keep the plain hash to find same-text suggestions.
		k := s.tombstoneHash(t)
		keyed = append(keyed, k)
		if err := q.TombstoneInsert(ctx, memorydb.TombstoneInsertParams{
			Scope: cur.Scope, ContentHash: k, ItemID: cur.ID,
		}); err != nil {
			return Item{}, err
		}
	}
	// A restore of an older backup applies it again (F8).
	if err := s.ledgerForgetTx(ctx, tx, cur, actor, keyed); err != nil {
		return Item{}, err
	}
	for _, erase := range []func(context.Context, string) error{
		q.RevisionsBlank, q.EmbeddingsDelete, q.JobsCancelOfItem, q.SuppressionInsert,
	} {
		if err := erase(ctx, cur.ID); err != nil {
			return Item{}, err
		}
	}
	rev := cur.Revision + 1
	if err := q.RevisionInsert(ctx, state{kind: cur.Kind}.revision(cur.ID, rev, ActionForget, actor, &cur.Revision, runID)); err != nil {
		return Item{}, err
	}
	row, err := q.ItemForget(ctx, memorydb.ItemForgetParams{ID: cur.ID, Revision: rev})
	if err != nil {
		return Item{}, err
	}
	item := itemFromRow(row)
	if err := projectTx(ctx, tx, item); err != nil {
		return Item{}, err
	}
	if cur.Status == StatusActive {
		if err := q.GenerationBump(ctx, item.Scope); err != nil {
			return Item{}, err
		}
	}
	if err := notifyTx(ctx, tx, Event{
		Scope: item.Scope, ItemID: item.ID, Revision: item.Revision, Action: string(ActionForget),
		Status: string(StatusForgotten), Generation: cur.Status == StatusActive,
	}); err != nil {
		return Item{}, err
	}
	ids, err := q.ItemsProposalsOf(ctx, memorydb.ItemsProposalsOfParams{ItemID: cur.ID, Scope: cur.Scope, Hashes: hashes})
	if err != nil {
		return Item{}, err
	}
	for _, id := range ids {
		row, err := q.ItemGetForUpdate(ctx, id)
		if err != nil {
			return Item{}, err
		}
		p := itemFromRow(row)
		if p.Status == StatusForgotten {
			continue // a suggestion of the same text, forgotten by an earlier one of this loop
		}
		if _, err := s.forgetItemTx(ctx, tx, p, actor, runID); err != nil {
			return Item{}, err
		}
	}
	return item, nil
}

// tombstonedTx reports whether text was forgotten before in scope (F3).
func (s *Service) tombstonedTx(ctx context.Context, tx pgx.Tx, scope, text string) (bool, error) {
	return queries(tx).TombstoneExists(ctx, memorydb.TombstoneExistsParams{Scope: scope, Hashes: s.tombstoneHashes(text)})
}

// ForgottenBefore reports whether text was forgotten in scope before (F3), so the web app can warn
// before an explicit save brings it back. The user's own save is allowed either way.
func (s *Service) ForgottenBefore(ctx context.Context, scope Scope, text string) (bool, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return false, err
	}
	sc, err := s.CheckScopeReadable(ctx, scope)
	if err != nil {
		return false, err
	}
	if err := checkText("content", text, MaxContentLength, false); err != nil {
		return false, err
	}
	return queries(s.pool).TombstoneExists(ctx, memorydb.TombstoneExistsParams{Scope: sc.String(), Hashes: s.tombstoneHashes(text)})
}
