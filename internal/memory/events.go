package memory

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/open-bot/memory/internal/memory/memorydb"
)

// EventChannel is the PostgreSQL NOTIFY channel every memory change is announced on. Every API
// process LISTENs on it, so each one delivers every event to its own subscribers (RULES §5).
const EventChannel = "memory_events"

// Event is the payload of one notification: ids, numbers and enum words only, never memory text (F5).
type Event struct {
	// Scope is ScopeShared or a teammate id.
	Scope string `json:"scope"`
	// ItemID, Revision, Action and Status describe a change to one item; empty for a bare generation
	// change (an item expiring, say).
	ItemID   string `json:"item,omitempty"`
	Revision int    `json:"rev,omitempty"`
	Action   string `json:"action,omitempty"`
	Status   string `json:"status,omitempty"`
	// Generation is true when the scope's generation moved (G1).
	Generation bool `json:"gen,omitempty"`
	// Candidate is true when a candidate arrived in the scope (A6).
	Candidate bool `json:"candidate,omitempty"`
	// Teammate is set when the teammate whose scope this is was created, renamed, switched or deleted
	// (TeammateCreated …), so that every open page can follow the list of teammates.
	Teammate TeammateChange `json:"teammate,omitempty"`
}

// TeammateChange is what happened to a teammate, in an Event.
type TeammateChange string

// The teammate changes an Event announces.
const (
	TeammateCreated TeammateChange = "created"
	TeammateRenamed TeammateChange = "renamed"
	TeammateDeleted TeammateChange = "deleted"
	// TeammateSwitched: its memory switch changed (switch.go).
	TeammateSwitched TeammateChange = "switched"
)

// DecodeEvent parses a notification payload.
func DecodeEvent(payload string) (Event, error) {
	var e Event
	if err := json.Unmarshal([]byte(payload), &e); err != nil {
		return e, fmt.Errorf("decode memory event: %w", err)
	}
	if e.Scope == "" {
		return e, fmt.Errorf("decode memory event: no scope")
	}
	return e, nil
}

// notifyTx queues e on EventChannel; PostgreSQL delivers it when tx commits, and never if it rolls back.
func notifyTx(ctx context.Context, tx pgx.Tx, e Event) error {
	b := newBatch()
	if err := queueNotify(ctx, b, e); err != nil {
		return err
	}
	if err := b.send(ctx, tx); err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	return nil
}

// queueNotify adds notifyTx's statement to a batch.
func queueNotify(ctx context.Context, b *batch, e Event) error {
	payload, err := json.Marshal(e)
	if err != nil {
		return err
	}
	b.q.EventNotify(ctx, memorydb.EventNotifyParams{Channel: EventChannel, Payload: string(payload)})
	return nil
}
