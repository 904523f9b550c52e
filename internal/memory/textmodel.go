package memory

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// textModelVersion is the version of the text model ContentHash uses (intent.Canonical): 3 folds
// Cherokee letters and the minus sign one way (2 could fold them two ways). Items whose
// hash was computed with an older one are rehashed once, at start.
const textModelVersion = 3

const (
	qTextModelLock  = `SELECT version FROM memory_text_model FOR UPDATE`
	qTextModelSet   = `UPDATE memory_text_model SET version = $1`
	qLiveItemTexts  = `SELECT id::text, content FROM memory_items WHERE status <> 'forgotten' AND content <> ''`
	qItemHashUpdate = `UPDATE memory_items SET content_hash = $2 WHERE id = $1`
)

// RehashTexts brings every live item's content_hash to the current text model, once: dedup,
// same-text suggestions and the forget of copies compare hashes (F3), so a hash of an older model
// would let a copy of a forgotten text survive. It runs in one transaction holding the model's row,
// so concurrent API processes rehash once and never see half of it. Tombstones can't be rehashed —
// their texts are gone — and are matched with both models instead (legacyContentHash).
func (s *Service) RehashTexts(ctx context.Context) error {
	n := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var version int
		if err := tx.QueryRow(ctx, qTextModelLock).Scan(&version); err != nil {
			return err
		}
		if version >= textModelVersion {
			return nil
		}
		rows, err := tx.Query(ctx, qLiveItemTexts)
		if err != nil {
			return err
		}
		type text struct{ id, content string }
		texts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (text, error) {
			var t text
			return t, r.Scan(&t.id, &t.content)
		})
		if err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, t := range texts {
			b.Queue(qItemHashUpdate, t.id, ContentHash(t.content))
		}
		b.Queue(qTextModelSet, textModelVersion)
		n = len(texts)
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return fmt.Errorf("rehash memory texts: %w", err)
	}
	if n > 0 {
		s.log.InfoContext(ctx, "memory texts rehashed for the current text model", "items", n, "version", textModelVersion)
	}
	return nil
}
