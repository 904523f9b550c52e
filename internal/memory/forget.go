package memory

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

const (
	qRevisionTexts = `SELECT content FROM memory_revisions WHERE item_id = $1 AND content <> ''`

	qTombstoneInsert = `
		INSERT INTO memory_tombstones (scope, content_hash, item_id, keyed) VALUES ($1, $2, $3, true)
		ON CONFLICT (scope, content_hash) DO UPDATE SET item_id = EXCLUDED.item_id, forgotten_at = now()`

	// $2 is every value a tombstone of the text may have (Service.tombstoneHashes).
	qTombstoneExists = `SELECT EXISTS (SELECT 1 FROM memory_tombstones WHERE scope = $1 AND content_hash = ANY($2::bytea[]))`

	qRevisionsBlank = `UPDATE memory_revisions SET content = '', key = NULL WHERE item_id = $1`

	qEmbeddingsDelete = `DELETE FROM memory_embeddings WHERE item_id = $1`

	// A job already running holds a lease; it re-checks the item under lock before writing (F2).
	qJobsCancel = `UPDATE memory_jobs SET status = 'cancelled', updated_at = now()
		WHERE item_id = $1 AND status = 'pending'`

	qSuppress = `INSERT INTO memory_suppressions (message_id)
		SELECT source_message_id FROM memory_items WHERE id = $1 AND source_message_id IS NOT NULL
		ON CONFLICT DO NOTHING`

	qItemForget = `
		UPDATE memory_items
		   SET status = 'forgotten', content = '', key = NULL, evidence = NULL, content_hash = NULL,
		       pinned = false, revision = $2, forgotten_at = now(), updated_at = now()
		 WHERE id = $1
		RETURNING ` + itemColumns

	qLessonDelete = `DELETE FROM lessons WHERE item_id = $1`

	// Proposals to change a forgotten item carry its (new) text, and suggestions of the scope with
	// the same text as any of its revisions carry that text: waiting or dismissed, they are forgotten
	// with it (F3: a candidate whose text is tombstoned is dropped; F5: no trace in the database).
	qProposalsOf = `SELECT id::text FROM memory_items
		 WHERE status IN ('candidate', 'dismissed')
		   AND (target_item_id = $1 OR (scope = $2 AND content_hash = ANY($3::bytea[])))`
)

// ForgetMemory erases an item for the user (F1): see forgetItemTx.
func (s *Service) ForgetMemory(ctx context.Context, id string) (Item, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Item{}, err
	}
	id, err := parseID("id", id)
	if err != nil {
		return Item{}, err
	}
	var out Item
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		cur, err := lockItemTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if cur.Status == StatusForgotten {
			return ErrNotFound
		}
		out, err = s.forgetItemTx(ctx, tx, cur, ActorUser, nil)
		return err
	})
	if err != nil {
		return Item{}, wrapUnlessDomain("forget memory", err)
	}
	s.log.InfoContext(ctx, "memory forgotten", "item", out.ID, "scope", out.Scope)
	return out, nil
}

// forgetItemTx erases cur everywhere, under its scope's lock (held by the caller), in the caller's
// transaction (F1–F4): tombstone hashes of every text it ever had, blank content and key of the item
// and every revision, delete every embedding, cancel pending jobs, suppress extraction from its
// source message, forget proposals to change it and suggestions of its scope with any of its texts
// (waiting or dismissed), drop its lesson projection, write a content-free
// "forget" revision, bump the generation if it was active, and notify with ids only.
func (s *Service) forgetItemTx(ctx context.Context, tx pgx.Tx, cur Item, actor string, runID *string) (Item, error) {
	rows, err := tx.Query(ctx, qRevisionTexts, cur.ID)
	if err != nil {
		return Item{}, err
	}
	texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return Item{}, err
	}
	if cur.Content != "" {
		texts = append(texts, cur.Content)
	}
	seen := map[string]bool{}
	var hashes [][]byte
	for _, t := range texts {
		h := ContentHash(t)
		if seen[string(h)] {
			continue
		}
		seen[string(h)] = true
		hashes = append(hashes, h)
		// The tombstone is keyed (F3); items keep the plain hash to find same-text suggestions.
		if _, err := tx.Exec(ctx, qTombstoneInsert, cur.Scope, s.tombstoneHash(t), cur.ID); err != nil {
			return Item{}, err
		}
	}
	for _, q := range []string{qRevisionsBlank, qEmbeddingsDelete, qJobsCancel, qSuppress} {
		if _, err := tx.Exec(ctx, q, cur.ID); err != nil {
			return Item{}, err
		}
	}
	rev := cur.Revision + 1
	if _, err := tx.Exec(ctx, qRevisionInsert, cur.ID, rev, "", nil, cur.Kind, false, nil, ActionForget,
		actor, cur.Revision, runID); err != nil {
		return Item{}, err
	}
	item, err := scanItem(tx.QueryRow(ctx, qItemForget, cur.ID, rev))
	if err != nil {
		return Item{}, err
	}
	if err := projectTx(ctx, tx, item); err != nil {
		return Item{}, err
	}
	if cur.Status == StatusActive {
		if _, err := tx.Exec(ctx, qGenerationBump, item.Scope); err != nil {
			return Item{}, err
		}
	}
	if err := notifyTx(ctx, tx, Event{
		Scope: item.Scope, ItemID: item.ID, Revision: item.Revision, Action: string(ActionForget),
		Status: string(StatusForgotten), Generation: cur.Status == StatusActive,
	}); err != nil {
		return Item{}, err
	}
	proposals, err := tx.Query(ctx, qProposalsOf, cur.ID, cur.Scope, hashes)
	if err != nil {
		return Item{}, err
	}
	ids, err := pgx.CollectRows(proposals, pgx.RowTo[string])
	if err != nil {
		return Item{}, err
	}
	for _, id := range ids {
		p, err := scanItem(tx.QueryRow(ctx, qItemForUpdate, id))
		if err != nil {
			return Item{}, err
		}
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
	var yes bool
	err := tx.QueryRow(ctx, qTombstoneExists, scope, s.tombstoneHashes(text)).Scan(&yes)
	return yes, err
}

// wrapUnlessDomain adds context to infrastructure errors and leaves domain errors (which the
// presenter maps to codes) untouched.
func wrapUnlessDomain(op string, err error) error {
	if isDomain(err) {
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
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
	var yes bool
	err = s.pool.QueryRow(ctx, qTombstoneExists, sc.String(), s.tombstoneHashes(text)).Scan(&yes)
	return yes, err
}
