package memory

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// Copies (issue 18 item 3): forgetting one item doesn't forget another item of the same text, so
// the user is shown the others — active items and suggestions, in every scope — and may forget them
// in the same transaction.

// MaxAlsoForget bounds how many other items one forget may take with it.
const MaxAlsoForget = MaxPageSize

// Copies lists the items with the same normalised text as item id — as it is now or was in any
// revision — in every scope (user only: the user sees every scope): active items first, then
// suggestions waiting or dismissed, at most MaxAlsoForget. Forgetting id forgets the suggestions of
// its own scope anyway (F3); the rest stay unless the caller names them in ForgetWithCopies.
func (s *Service) Copies(ctx context.Context, id string) ([]Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return nil, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return nil, err
	}
	row, err := queries(s.pool).ItemGet(ctx, id)
	if err != nil {
		return nil, err
	}
	item := itemFromRow(row)
	if item.Status == StatusForgotten {
		return []Item{}, nil
	}
	var out []Item
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		hashes, err := itemHashesTx(ctx, tx, item)
		if err != nil {
			return err
		}
		rows, err := queries(tx).ItemsCopies(ctx, memorydb.ItemsCopiesParams{ID: id, Hashes: hashes, MaxRows: MaxAlsoForget})
		if err != nil {
			return err
		}
		out = mapRows(rows, itemFromRow)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("copies: %w", err)
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
	if len(also) > MaxAlsoForget {
		return Item{}, nil, invalid("alsoForget", fmt.Sprintf("must name at most %d items", MaxAlsoForget))
	}
	ids := []string{id}
	for _, a := range also {
		a, err := parseID("alsoForget", a)
		if err != nil {
			return Item{}, nil, err
		}
		if !slices.Contains(ids, a) {
			ids = append(ids, a)
		}
	}
	var (
		out    Item
		others []Item
	)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
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
