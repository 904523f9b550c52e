package memory

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Copies: forgetting one item doesn't forget another item of the same text, so the user is shown
// the others — active items and suggestions, in every scope — and may forget them in the same
// transaction.

// MaxAlsoForget bounds how many other items one forget may take with it.
const MaxAlsoForget = MaxPageSize

// Copies lists the items with the same normalised text as item id — as it is now or was in any
// revision — in every scope (user only: the user sees every scope): active items first, then
// suggestions waiting or dismissed, at most MaxAlsoForget. Forgetting id forgets the suggestions of
// its own scope anyway (F3); the rest stay unless the caller names them in ForgetWithCopies.
func (s *Service) Copies(ctx context.Context, id string) ([]Item, error) {
	return s.copies(ctx, "id", []string{id})
}

// CopiesOf is Copies for the 1–MaxBulkItems items ids at once, as a bulk forget shows them: the
// items with the same text as any of them, none of ids itself, at most MaxAlsoForget. A forgotten
// item of ids has no text left and adds nothing; an unknown one is ErrNotFound.
func (s *Service) CopiesOf(ctx context.Context, ids []string) ([]Item, error) {
	if len(ids) == 0 || len(ids) > MaxBulkItems {
		if _, err := require(ctx, CredentialUser); err != nil {
			return nil, err
		}
		return nil, invalid("ids", fmt.Sprintf("must name 1 to %d items", MaxBulkItems))
	}
	return s.copies(ctx, "ids", ids)
}

func (s *Service) copies(ctx context.Context, field string, ids []string) ([]Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return nil, err
	}
	canonical := make([]string, 0, len(ids))
	for _, id := range ids {
		id, err := parseID(field, id)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(canonical, id) {
			canonical = append(canonical, id)
		}
	}
	var out []Item
	err := s.inReadTx(ctx, func(tx pgx.Tx) error {
		out = []Item{}
		rows, err := queries(tx).ItemsGetByIDs(ctx, canonical)
		if err != nil {
			return err
		}
		if len(rows) != len(canonical) {
			return ErrNotFound
		}
		var hashes [][]byte
		for _, row := range rows {
			item := itemFromRow(row)
			if item.Status == StatusForgotten {
				continue
			}
			h, err := itemHashesTx(ctx, tx, item)
			if err != nil {
				return err
			}
			for _, x := range h {
				if !slices.ContainsFunc(hashes, func(y []byte) bool { return string(x) == string(y) }) {
					hashes = append(hashes, x)
				}
			}
		}
		if len(hashes) == 0 {
			return nil
		}
		found, err := queries(tx).ItemsCopies(ctx, memorydb.ItemsCopiesParams{Ids: canonical, Hashes: hashes, MaxRows: MaxAlsoForget})
		if err != nil {
			return err
		}
		out = mapRows(found, itemFromRow)
		return nil
	})
	if err != nil {
		return nil, wrapUnlessDomain("copies", err)
	}
	return out, nil
}

// itemHashesTx is the ContentHash of every text item has had.
func itemHashesTx(ctx context.Context, tx pgx.Tx, item Item) ([][]byte, error) {
	texts, err := queries(tx).RevisionTexts(ctx, item.ID)
	if err != nil {
		return nil, err
	}
	if item.Content != "" {
		texts = append(texts, item.Content)
	}
	var hashes [][]byte
	for _, t := range texts {
		h := ContentHash(t)
		if !slices.ContainsFunc(hashes, func(x []byte) bool { return string(x) == string(h) }) {
			hashes = append(hashes, h)
		}
	}
	return hashes, nil
}

// ForgetWithCopies forgets item id and, in the same transaction, every item of also (user only; at
// most MaxAlsoForget, typically what Copies listed): each is forgotten exactly as ForgetMemory
// forgets one (F1–F4), with a tombstone in its own scope, so a later suggestion of the text is
// dropped in every scope it was forgotten from. An item of also that is already forgotten — by this
// very forget, as a suggestion of id's text in id's scope, or before — is skipped; an unknown one
// fails the whole forget (NOT_FOUND) and nothing is forgotten. It returns id's item and the others
// it forgot.
func (s *Service) ForgetWithCopies(ctx context.Context, id string, also []string) (Item, []Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, nil, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return Item{}, nil, err
	}
	alsoIDs, err := checkAlsoForget(also, []string{id})
	if err != nil {
		return Item{}, nil, err
	}
	ids := append([]string{id}, alsoIDs...)
	var (
		out    Item
		others []Item
	)
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		out, others = Item{}, nil
		q := queries(tx)
		scopes, err := q.ItemsDistinctScopes(ctx, ids)
		if err != nil {
			return err
		}
		if err := q.ScopesLock(ctx, scopes); err != nil {
			return err
		}
		for i, x := range ids {
			row, err := q.ItemGetForUpdate(ctx, x)
			if err != nil {
				return err
			}
			cur := itemFromRow(row)
			if cur.Status == StatusForgotten {
				if i == 0 {
					return ErrNotFound
				}
				continue
			}
			forgotten, err := s.forgetItemTx(ctx, tx, cur, ActorUser, nil)
			if err != nil {
				return err
			}
			if i == 0 {
				out = forgotten
			} else {
				others = append(others, forgotten)
			}
		}
		return nil
	})
	if err != nil {
		return Item{}, nil, wrapUnlessDomain("forget memory", err)
	}
	s.log.InfoContext(ctx, "memory forgotten", "item", out.ID, "scope", out.Scope, "copies", len(others))
	return out, others, nil
}

// checkAlsoForget validates the items a forget takes with it (at most MaxAlsoForget, valid ids) and
// returns them in canonical form, each once, without those of named.
func checkAlsoForget(also, named []string) ([]string, error) {
	if len(also) > MaxAlsoForget {
		return nil, invalid("alsoForget", fmt.Sprintf("must name at most %d items", MaxAlsoForget))
	}
	var out []string
	for _, a := range also {
		a, err := parseID("alsoForget", a)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(named, a) && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

// forgetAlsoTx forgets the items ids (their scopes locked by the caller) as ForgetMemory forgets
// one, skipping those already forgotten, and returns the ones it forgot.
func (s *Service) forgetAlsoTx(ctx context.Context, tx pgx.Tx, ids []string) ([]Item, error) {
	var out []Item
	for _, id := range ids {
		row, err := queries(tx).ItemGetForUpdate(ctx, id)
		if err != nil {
			return nil, err
		}
		cur := itemFromRow(row)
		if cur.Status == StatusForgotten {
			continue
		}
		forgotten, err := s.forgetItemTx(ctx, tx, cur, ActorUser, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, forgotten)
	}
	return out, nil
}
