package memory

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/packet"
)

// RunPacket returns the memory packet the caller's run was given at startRun (run credential): the
// text the worker got then, for an MCP client that reads it as a resource. It is a run-credential
// operation like the tools, so it checks the run's generation first (G5, runTx) and interrupts a
// run whose memory changed (ErrMemoryChangedMidTurn). The packet is laid out again from
// memory_contexts and each item's saved revision with the same rules (P5), so it is the same text
// as long as nothing in it was forgotten. While the teammate's "Use memory" is off it is
// MemoryOffNote, whatever the run was given: an item the run itself forgot since (its own change, which
// the run adopted, G6) is left out, since its text is gone (F1).
func (t *Tools) RunPacket(ctx context.Context) (string, error) {
	s := t.service()
	var text string
	err := s.runTx(ctx, "run packet", func(tx pgx.Tx, run Run) error {
		text = ""
		if off, err := memoryOffTx(ctx, tx, run.TeammateID); err != nil || off {
			if off {
				text = MemoryOffNote // the switch as it is now: the run reads no memory (switch.go)
			}
			return err
		}
		rows, err := queries(tx).ContextsPacketOfRun(ctx, run.ID)
		if err != nil {
			return fmt.Errorf("run packet: %w", err)
		}
		var kept []packet.Item
		for _, r := range rows {
			if Status(r.Status) != StatusForgotten {
				kept = append(kept, packet.Item{ID: r.ID, Scope: r.Scope, Revision: r.Revision, Kind: r.Kind,
					Key: r.Key, Content: r.Content})
			}
		}
		text, _, _ = packet.Render(kept)
		return nil
	})
	return text, err
}
