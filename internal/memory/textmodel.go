package memory

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// textModelVersion is the version of the text model ContentHash uses (textmodel.Canonical): 4 reads the
// figure and en dashes as "-" and keeps a trailing minus ("O-" is not "O"); 3 folds Cherokee letters
// and the minus sign one way (2 could fold them two ways). Items whose hash was computed with an
// older one are rehashed once, at start.
const textModelVersion = 4

// RehashTexts brings every live item's content_hash to the current text model, once: dedup,
// same-text suggestions and the forget of copies compare hashes (F3), so a hash of an older model
// would let a copy of a forgotten text survive. It runs in one transaction holding the model's row,
// so concurrent API processes rehash once and never see half of it. Tombstones can't be rehashed —
// their texts are gone — and are matched with both models instead (legacyContentHash).
func (s *Background) RehashTexts(ctx context.Context) error {
	n := 0
	err := s.service().inWriteTx(ctx, func(tx pgx.Tx) error {
		q := queries(tx)
		version, err := q.TextModelGetForUpdate(ctx)
		if err != nil {
			return err
		}
		if version >= textModelVersion {
			return nil
		}
		texts, err := q.ItemsLiveTexts(ctx)
		if err != nil {
			return err
		}
		b := newBatch()
		for _, t := range texts {
			b.q.ItemHashSet(ctx, memorydb.ItemHashSetParams{ID: t.ID, ContentHash: ContentHash(t.Content)})
		}
		b.q.TextModelSet(ctx, textModelVersion)
		n = len(texts)
		return b.send(ctx, tx)
	})
	if err != nil {
		return fmt.Errorf("rehash memory texts: %w", err)
	}
	if n > 0 {
		s.log.InfoContext(ctx, "memory texts rehashed for the current text model", "items", n, "version", textModelVersion)
	}
	return nil
}
