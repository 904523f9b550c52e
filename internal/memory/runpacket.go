package memory

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// qRunPacket reads what run $1 was given (P7), in packet order: each item at the revision given,
// from its saved revision, with the item's scope and status now. The packet text itself is not
// stored, so RunPacket lays these out again the way startRun did.
const qRunPacket = `
	SELECT i.id::text, i.scope, i.status, r.revision, r.kind, r.key, r.content
	  FROM memory_contexts c
	  JOIN memory_items i ON i.id = c.item_id
	  JOIN memory_revisions r ON r.item_id = c.item_id AND r.revision = c.revision
	 WHERE c.run_id = $1
	 ORDER BY c.position`

// RunPacket returns the memory packet the caller's run was given at startRun (run credential): the
// text the worker got then, for an MCP client that reads it as a resource. It is a run-credential
// operation like the tools, so it checks the run's generation first (G5, runReadTx) and interrupts a
// run whose memory changed (ErrMemoryChangedMidTurn). The packet is laid out again from
// memory_contexts and each item's saved revision with the same rules (P5), so it is the same text
// as long as nothing in it was forgotten: an item the run itself forgot since (its own change, which
// the run adopted, G6) is left out, since its text is gone (F1).
func (s *Service) RunPacket(ctx context.Context) (string, error) {
	var text string
	err := s.runReadTx(ctx, func(tx pgx.Tx, run Run) error {
		rows, err := tx.Query(ctx, qRunPacket, run.ID)
		if err != nil {
			return fmt.Errorf("run packet: %w", err)
		}
		entries, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PacketEntry, error) {
			var i Item
			err := r.Scan(&i.ID, &i.Scope, &i.Status, &i.Revision, &i.Kind, &i.Key, &i.Content)
			return PacketEntry{Item: i}, err
		})
		if err != nil {
			return fmt.Errorf("run packet: %w", err)
		}
		kept := entries[:0]
		for _, e := range entries {
			if e.Item.Status != StatusForgotten {
				kept = append(kept, e)
			}
		}
		text, _ = renderPacket(kept)
		return nil
	})
	return text, err
}
