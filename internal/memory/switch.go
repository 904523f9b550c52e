package memory

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/intent"
	"github.com/open-bot/memory/internal/memory/memorydb"
)

// A teammate's memory switch: two settings the user turns on and off, both on by default.
//
//   - Use memory off: the teammate's runs are given an empty packet (pinned items and lessons
//     included) whose text says memory is off (MemoryOffNote), recallPreview shows the same, and
//     its search tools answer ErrMemoryOff (MEMORY_OFF) instead of a list that would look like
//     "nothing found".
//   - Save to memory off: every write of the teammate's tools — a save, an update, a forget — waits
//     for the user as a suggestion or a proposal (reason intent.ReasonSavingOff), even one the user
//     asked for in the conversation. Nothing is lost, and the user decides.
//
// Each check reads the switch inside the transaction of the read or the write it governs, after that
// transaction's locks are taken; SetMemorySwitch takes the same locks before it changes the switch.
// So a change and a write are ordered: a tool write that read the switch as on commits before the
// change that turns it off can return, and one that starts after that change sees it off. The
// same holds for a run's start (the teammate's row, FOR SHARE, TeammateStartLock).

// Switches is a teammate's memory switch.
type Switches struct {
	// UseMemory: runs are given memory and may search it.
	UseMemory bool
	// SaveMemory: the teammate's writes are judged as usual (A1–A5); off, every one waits for the
	// user.
	SaveMemory bool
}

// MemoryOffNote is the whole text of the packet a run gets while its teammate's "Use memory" is
// off: the teammate learns that memory is off, not that nothing matched.
const MemoryOffNote = `Memory is off for this teammate: the user turned off "Use memory", so nothing was recalled and the memory tools can't search. Answer without memory.`

// ErrMemoryOff: the run's teammate has "Use memory" off; the search did nothing.
//
//lint:ignore ST1005 the teammate reads this sentence as it is (docs/MCP.md).
var ErrMemoryOff = errors.New(`Memory is off for this teammate: the user turned off "Use memory", so nothing was searched. Answer without memory.`) //nolint:staticcheck // the teammate reads this sentence as it is

// savingOffMessage is the tool's answer when a write waits because "Save to memory" is off.
const savingOffMessage = `"Save to memory" is off for this teammate, so nothing was changed: this waits for the user to decide.`

// SetMemorySwitchInput changes a teammate's switch; a nil field keeps its setting.
type SetMemorySwitchInput struct {
	TeammateID string
	UseMemory  *bool
	SaveMemory *bool
}

// SetMemorySwitch changes a teammate's memory switch (user only: a run credential or the worker's is
// FORBIDDEN, RULES §4) and announces it to every open page (teammatesChanged, SWITCHED). It changes
// no memory, so no generation moves. It locks the teammate's row and then its scope's generation
// row (tx.go, lock order), the row every write of the teammate's tools holds from before it reads the
// switch until it commits: a write under way finishes first, and a later one sees the new setting.
func (s *Service) SetMemorySwitch(ctx context.Context, in SetMemorySwitchInput) (Teammate, error) {
	if _, err := require(ctx, CredentialUser); err != nil {
		return Teammate{}, err
	}
	id, err := parseID("teammateId", in.TeammateID)
	if err != nil {
		return Teammate{}, err
	}
	if in.UseMemory == nil && in.SaveMemory == nil {
		return Teammate{}, invalid("useMemory", "give useMemory, saveMemory or both")
	}
	var t Teammate
	err = s.inWriteTx(ctx, func(tx pgx.Tx) error {
		q := queries(tx)
		if _, err := q.TeammateLock(ctx, id); err != nil {
			return err // ErrNotFound: no such teammate
		}
		if _, err := q.ScopeLock(ctx, id); err != nil {
			return err
		}
		row, err := q.TeammateSetSwitches(ctx, memorydb.TeammateSetSwitchesParams{
			ID: id, UseMemory: in.UseMemory, SaveMemory: in.SaveMemory,
		})
		if err != nil {
			return err
		}
		t = teammateFromRow(row)
		return notifyTx(ctx, tx, Event{Scope: t.ID, Teammate: TeammateSwitched})
	})
	if err != nil {
		return Teammate{}, wrapUnlessDomain("set memory switch", err)
	}
	s.log.InfoContext(ctx, "memory switch changed", "teammate", t.ID, "use", t.Switches.UseMemory,
		"save", t.Switches.SaveMemory)
	return t, nil
}

// switchesTx reads teammateID's switch inside tx. No such teammate: ErrNotFound.
func switchesTx(ctx context.Context, tx pgx.Tx, teammateID string) (Switches, error) {
	row, err := queries(tx).TeammateSwitches(ctx, teammateID)
	if err != nil {
		return Switches{}, err
	}
	return Switches{UseMemory: row.UseMemory, SaveMemory: row.SaveMemory}, nil
}

// savingOffTx reports whether run's teammate has "Save to memory" off. It is called by a tool's
// write inside runWriteTx, with the generation rows held (see SetMemorySwitch).
func (s *Service) savingOffTx(ctx context.Context, tx pgx.Tx, run Run) (bool, error) {
	sw, err := switchesTx(ctx, tx, run.TeammateID)
	if err != nil {
		return false, err
	}
	if s.hooks.afterSwitchCheck != nil {
		s.hooks.afterSwitchCheck()
	}
	return !sw.SaveMemory, nil
}

// savingOff is the decision a write gets while "Save to memory" is off: it waits, whatever the
// message says.
var savingOff = intent.Decision{Verdict: intent.Suggested, Reason: intent.ReasonSavingOff}

// memoryOffTx reports whether teammateID has "Use memory" off, inside tx.
func memoryOffTx(ctx context.Context, tx pgx.Tx, teammateID string) (bool, error) {
	sw, err := switchesTx(ctx, tx, teammateID)
	if err != nil {
		return false, err
	}
	return !sw.UseMemory, nil
}

// offPacket is the packet of a run whose teammate has "Use memory" off.
func offPacket(vector VectorStatus) Packet {
	return Packet{Text: MemoryOffNote, MemoryOff: true, Vector: vector}
}

// restoreSwitchTx sets teammateID's switch to sw for an import (ImportMemory), which holds the
// teammate's row and its scope's lock as SetMemorySwitch does. A change is announced as
// SetMemorySwitch announces it.
func restoreSwitchTx(ctx context.Context, tx pgx.Tx, teammateID string, sw Switches) error {
	cur, err := switchesTx(ctx, tx, teammateID)
	if err != nil || cur == sw {
		return err
	}
	if _, err := queries(tx).TeammateSetSwitches(ctx, memorydb.TeammateSetSwitchesParams{
		ID: teammateID, UseMemory: &sw.UseMemory, SaveMemory: &sw.SaveMemory,
	}); err != nil {
		return err
	}
	return notifyTx(ctx, tx, Event{Scope: teammateID, Teammate: TeammateSwitched})
}
