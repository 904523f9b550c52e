package memory

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// RecallPreviewWithLeftOut is RecallPreview and, when the user asks, what the packet left out and
// why (Packet.LeftOut, counted in the packet's transaction). The worker and runs get the preview
// without it. The counts cost a few index scans more than the preview, so a caller asks for them
// only when it shows them.
func (s *Service) RecallPreviewWithLeftOut(ctx context.Context, teammateID, query string) (Packet, error) {
	return s.recallPreview(ctx, teammateID, query, true)
}

// LeftOut counts what a packet did not give, by reason, so that the recall preview can say why a
// memory the user expected is missing. It is computed for the user's preview alone:
// a run's packet has no use for it, and a run or the worker must not learn it — the count of
// suggestions waiting would tell a run whether its own suggestion was kept or silently dropped as
// forgotten text (F3).
type LeftOut struct {
	// NoSharedWord: active, unexpired, unpinned items that share no word with the request (after
	// PostgreSQL's stemming and stop words, P2) and are not in the packet. Pinning one of them makes
	// it reach every request.
	NoSharedWord int
	// OverBudget: items that matched (a shared word, or pinned) but were left out by the packet's
	// limits: the 30 of a list (P2), the 12 entries (P4) or the 6,000 characters (P5).
	OverBudget int
	// Expired: active items whose expiry has passed; runs no longer get them.
	Expired int
	// Waiting: suggestions waiting for the user; none is given until it is confirmed (A2).
	Waiting int
}

// qRecallLeftOut counts, for LeftOut, the items of the teammate's scope and the shared scope that a
// packet may have left out. $1 is the teammate, $2 the request's words (requestWords, turned into the
// same lexemes as recall's, recallQuery) and $3 the ids of the packet's entries. It reads no item's
// row but the pinned and the expired ones, which are few:
//
//   - active: the active items (an index-only scan of memory_items_recall);
//   - pinned: the active pinned ones, expired or not (memory_items_list);
//   - expired and expired_pinned: the active ones whose expiry has passed (memory_items_expiry);
//   - matched: the unpinned, unexpired active items not in the packet that share a word with the
//     request, counted in memory_terms like recall's full-text list (an index-only scan of the
//     request's lexemes);
//   - waiting: the suggestions waiting for the user (memory_items_waiting_text).
//
// sqlcheck:allow it reuses recall's request fragment (recallQuery), which sqlc can't express
var qRecallLeftOut = `WITH ` + recallQuery + `
	SELECT (SELECT count(*) FROM memory_items i
	         WHERE i.scope IN ('shared', $1::text) AND i.status = 'active') AS active,
	       (SELECT count(*) FROM memory_items i
	         WHERE i.scope IN ('shared', $1::text) AND i.status = 'active' AND i.pinned) AS pinned,
	       (SELECT count(*) FROM memory_items i
	         WHERE i.scope IN ('shared', $1::text) AND i.status = 'active' AND i.expires_at <= now()) AS expired,
	       (SELECT count(*) FROM memory_items i
	         WHERE i.scope IN ('shared', $1::text) AND i.status = 'active' AND i.expires_at <= now() AND i.pinned) AS expired_pinned,
	       (SELECT count(DISTINCT t.item_id) FROM memory_terms t
	         WHERE t.scope IN ('shared', $1::text) AND t.lexeme = ANY ((SELECT lexemes FROM q)::text[])
	           AND (t.expires_at IS NULL OR t.expires_at > now()) AND t.item_id <> ALL ($3::uuid[])) AS matched,
	       (SELECT count(*) FROM memory_items i
	         WHERE i.scope IN ('shared', $1::text) AND i.status = 'candidate') AS waiting`

// leftOutTx counts what packet p, built in tx for teammateID's request q, left out and why. Every
// entry of p is active, unexpired and visible (P1); an unpinned entry that isn't in the full-text list
// came from the vector list, and is subtracted from the items that share no word.
func leftOutTx(ctx context.Context, tx pgx.Tx, teammateID string, q RecallQuery, p Packet) (LeftOut, error) {
	ids := make([]string, len(p.Entries))
	var pinnedGiven, unpinnedGiven int
	for i, e := range p.Entries {
		ids[i] = e.Item.ID
		if e.Item.Pinned {
			pinnedGiven++
		} else {
			unpinnedGiven++
		}
	}
	var active, pinned, expired, expiredPinned, matched, waiting int
	if err := tx.QueryRow(ctx, qRecallLeftOut, teammateID, q.words, ids).
		Scan(&active, &pinned, &expired, &expiredPinned, &matched, &waiting); err != nil {
		return LeftOut{}, fmt.Errorf("count what recall left out: %w", err)
	}
	unpinnedVisible := active - pinned - (expired - expiredPinned)
	pinnedVisible := pinned - expiredPinned
	return LeftOut{
		NoSharedWord: unpinnedVisible - unpinnedGiven - matched,
		OverBudget:   matched + pinnedVisible - pinnedGiven,
		Expired:      expired,
		Waiting:      waiting,
	}, nil
}
